import TwitterAPI

extension TimelineStore {
    /// Starts from a cached snapshot (before any network call); what the network brings later
    /// merges into it.
    public func restore(_ cached: TimelineSnapshot) {
        if !cached.mailbox.conversations.isEmpty {
            let marks = Dictionary(cached.mailbox.conversations.map { ($0.id, $0.lastRead) }, uniquingKeysWith: max)
            if mailbox.me == nil { mailbox.me = cached.mailbox.me }
            mailbox.merge(cached.mailbox.conversations.flatMap(\.messages), users: Array(cached.mailbox.users.values))
            mailbox.setRead(marks)
        }
        // A cache larger than what is held (the whole file after its head, at launch) lends its
        // table: the held tweets join it, instead of each cached one being stored again (two
        // lookups and an insert each, a third of loading 100k). A cached tweet wins over a held one.
        let lent = cached.tweets.count > tweets.count
        if lent {
            var table = cached.tweets
            // Room for the held tweets that join it, and as much as the store's own table had
            // (a smaller cache's would grow by doubling after launch).
            table.reserveCapacity(adding: Swift.max(tweets.count, Self.room(forCap: cap) - table.count))
            for (id, t) in tweets where !table.contains(id) { table[id] = t }
            for id in deleted where table.contains(id) { table[id] = nil }
            tweets = table
        }
        for (id, view) in cached.timelines {
            var h = Held(gapsBelow: view.gapsBelow, readMarker: view.readMarker, anchor: view.anchor)
            h.ascending.reserveCapacity(view.ids.count)
            for t in view.ids.reversed() where deleted.isEmpty || !deleted.contains(t) {
                if lent {
                    if cached.tweets.contains(t) { _ = h.insert(t) }
                } else if let tweet = cached.tweets[t] {
                    store(tweet, in: &h)
                }
            }
            held[id] = h
        }
        // Trimmed once every timeline is placed: a tweet two of them name is in a lent table
        // only once, and trimming the first would take it from the second.
        for id in cached.timelines.keys { evict(id) }
        changed()
    }
}
