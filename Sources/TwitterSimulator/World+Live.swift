import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// New tweets while the simulator runs, and the ones tests inject.
extension World {
    /// Adds a tweet now by `author` (a random user when nil); returns its id.
    /// `photo`: `WIDTHxHEIGHT` attaches a photo of that size (served by `/media/`).
    func injectTweet(author: String?, text: String?, mentionDemo: Bool, replySettings: String? = nil, photo: String? = nil) -> UInt64? {
        let candidates = users.values.filter { $0.id != credentials.userID }.sorted { $0.id < $1.id }
        guard !candidates.isEmpty else { return nil }
        let who: SimUser
        if let name = author {
            guard let u = user(named: name) else { return nil }
            who = u
        } else {
            who = rng.pick(candidates)
        }
        let id = nextID()
        var t = WorldGenerator.composeTweet(
            id: id, author: who, users: Array(users.values), demo: users[credentials.userID] ?? who, rng: &rng,
            index: Int(rng.next() % 10), ms: Snowflake.ms(id), page: id % 100_000)
        if let text {
            t.text = text
            t.links = []
        }
        if mentionDemo && !t.text.contains("@" + credentials.screenName) { t.text = "@\(credentials.screenName) " + t.text }
        t.replySettings = replySettings
        if let size = photo?.split(separator: "x").compactMap({ Int($0) }), size.count == 2, size.allSatisfy({ (1...8192).contains($0) }) {
            t.media = [SimAttachment(key: "3_\(id)", kind: "photo", altText: "A red disc over a field", width: size[0], height: size[1])]
            t.links = []
        }
        // Now and then a live post asks a question with a poll (on the stream as on timelines).
        if text == nil, rng.next() % 6 == 0 {
            let choices = ["Yes", "No", "It depends"]
            t.poll = SimPoll(
                id: id &+ 1, choices: choices, votes: choices.map { _ in Int(rng.next() % 50) }, durationMinutes: 60,
                endMs: t.createdAtMs + 3_600_000)
        }
        insert(t)
        publish(.tweet(t))
        return id
    }

    func deleteTweet(_ id: UInt64) -> Bool {
        guard let t = tweets[id], !deleted.contains(id) else { return false }
        remove(t)
        return true
    }

    /// One step of the live world: a new tweet, sometimes mentioning the demo user, and now and
    /// then the deletion of an earlier live tweet.
    func liveStep() {
        if rng.chance(0.1) { _ = injectMessage(from: nil, text: nil) }
        let mention = rng.chance(0.25)
        _ = injectTweet(author: nil, text: nil, mentionDemo: mention)
        if rng.chance(0.08),
            let victim = createdIDs.suffix(30).filter({ !deleted.contains($0) && tweets[$0]?.userID != credentials.userID }).first
        {
            _ = deleteTweet(victim)
        }
    }
}

extension World {
    /// Stream frames (`delimited=length`) of up to `limit` live tweets, newest first.
    func sampleFrames(limit: Int) -> [Data] {
        sampleTweets(limit: limit).map { World.frame($0.json, delimited: true) }
    }

    /// Up to `limit` live tweets as stream JSON, with their ids.
    func sampleTweets(limit: Int) -> [(id: UInt64, json: String)] {
        let enc = TweetEncoder(world: snapshot, viewer: nil, mode: .stream)
        return liveTweetsNewestFirst().prefix(limit).map { ($0.id, enc.tweet($0).text) }
    }
}
