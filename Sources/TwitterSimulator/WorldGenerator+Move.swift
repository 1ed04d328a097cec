/// The backlog dated: made at `fixedStart`, then moved to end when it should.
extension WorldGenerator {
    /// A quote's link: its t.co and the quoted tweet's page.
    static func quoteLink(tco: String, author: String, id: UInt64) -> SimLink {
        SimLink(tco: tco, expanded: "https://twitter.com/\(author)/status/\(id)", display: "twitter.com/\(author)/st…")
    }

    /// The backlog moved `ms` later: every time, and every id (a snowflake: its time is in its
    /// upper bits, so it moves by `ms << 22`), with the links that carry an id.
    static func move(_ users: inout [SimUser], _ tweets: inout [SimTweet], by ms: UInt64) {
        let ids = ms << 22
        for i in users.indices { users[i].createdAtMs += ms }
        let names = Dictionary(users.map { ($0.id, $0.screenName) }, uniquingKeysWith: { first, _ in first })
        let authors = Dictionary(tweets.map { ($0.id, $0.userID) }, uniquingKeysWith: { first, _ in first })
        for i in tweets.indices {
            let t = tweets[i]
            tweets[i].id += ids
            tweets[i].createdAtMs += ms
            tweets[i].inReplyToStatusID = t.inReplyToStatusID.map { $0 + ids }
            tweets[i].retweetedID = t.retweetedID.map { $0 + ids }
            tweets[i].quotedID = t.quotedID.map { $0 + ids }
            if let quoted = t.quotedID, let link = t.links.first, let author = authors[quoted].flatMap({ names[$0] }) {
                tweets[i].links[0] = quoteLink(tco: link.tco, author: author, id: quoted + ids)
            }
        }
    }
}
