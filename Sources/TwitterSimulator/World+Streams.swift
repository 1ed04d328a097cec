import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// Live streams: who listens to what, framing, keep-alives and stream faults.
struct StreamSubscriber {
    enum Kind {
        case sample
        /// Phrases (each a list of words that must all appear) and followed user ids.
        case filter(track: [[String]], follow: Set<UInt64>)
        case user(UInt64)
        /// API v2's filtered stream of an app: posts matching its rules, as v2 JSON lines
        /// with the fields the connection asked for.
        case rules(consumer: String, fields: V2Fields)
    }

    var kind: Kind
    var delimited: Bool
    var stallWarnings: Bool
    var continuation: AsyncStream<Data>.Continuation
    var sent = 0
    var dropAfter: Int?
    var stallAfter: Int?
    var stallSeconds: Double = 0
    var stalledUntil: Date?
    var pending: [Data] = []
}

enum StreamEvent {
    case tweet(SimTweet)
    case delete(id: UInt64, userID: UInt64)
}

extension World {
    /// Opens a stream; frames arrive on the returned sequence until the stream is dropped.
    func subscribe(kind: StreamSubscriber.Kind, delimited: Bool, stallWarnings: Bool) -> AsyncStream<Data> {
        let id = nextSubscriberID
        nextSubscriberID += 1
        let (stream, continuation) = AsyncStream<Data>.makeStream(bufferingPolicy: .bufferingNewest(50_000))
        var sub = StreamSubscriber(kind: kind, delimited: delimited, stallWarnings: stallWarnings, continuation: continuation)
        sub.dropAfter = faults.dropStreamAfterMessages
        if let s = faults.stallStreamSeconds {
            sub.stallAfter = faults.stallAfterMessages
            sub.stallSeconds = s
            faults.stallStreamSeconds = nil
        }
        subscribers[id] = sub
        continuation.onTermination = { [weak self] _ in
            Task { await self?.unsubscribe(id) }
        }
        if case .user(let uid) = kind {
            let friends = users[uid]?.following ?? []
            deliver(id, J.object([("friends", .array(friends.map { .uint($0) }))]).text)
        }
        checkStall(id)
        let interval = config.keepAliveSeconds
        Task { [weak self] in
            while let self, await self.keepAlive(id) {
                try? await Task.sleep(nanoseconds: SimClock.nanoseconds(max(0.01, interval)))
            }
        }
        return stream
    }

    func unsubscribe(_ id: Int) {
        subscribers[id]?.continuation.finish()
        subscribers[id] = nil
    }

    /// Sends a keep-alive (or what a stall held back); false once the stream is gone.
    func keepAlive(_ id: Int) -> Bool {
        guard let sub = subscribers[id] else { return false }
        if sub.stalledUntil != nil { return true }
        sub.continuation.yield(Data("\r\n".utf8))
        return true
    }

    var streamCount: Int { subscribers.count }

    func publish(_ event: StreamEvent) {
        // One encoding per viewer, not one per stream: most streams have no viewer.
        var encoded: [UInt64?: String] = [:]
        for (id, sub) in subscribers where matches(sub.kind, event) {
            if case .rules(let consumer, let fields) = sub.kind {
                // v2 sends no deletes on this stream; a post goes with the rules it matched.
                guard case .tweet(let t) = event else { continue }
                var enc = V2Encoder(world: snapshot, fields: fields, viewer: nil)
                let data = enc.post(t)
                let matched = (v2Rules[consumer] ?? []).filter { $0.query.matches(candidate(t)) }
                var envelope = enc.envelope(data: data)
                if case .object(var fields) = envelope {
                    fields.append(("matching_rules", .array(matched.map { .object([("id", .string($0.id)), ("tag", .string($0.tag))]) })))
                    envelope = .object(fields)
                }
                deliver(id, envelope.text)
                // Each delivered post is billed as a read, with what it brings in `includes`.
                chargePosts([t.id], owned: false)
                chargePosts(enc.includedTweets, owned: false)
                chargeUsers(enc.includedUsers)
                continue
            }
            switch event {
            case .tweet(let t):
                let viewer: UInt64? = { if case .user(let u) = sub.kind { return u } else { return nil } }()
                let json = encoded[viewer] ?? TweetEncoder(world: snapshot, viewer: viewer, mode: .stream).tweet(t).text
                encoded[viewer] = json
                deliver(id, json)
            case .delete(let tid, let uid):
                deliver(
                    id,
                    J.object([
                        (
                            "delete",
                            .object([
                                (
                                    "status",
                                    .object([
                                        ("id", .uint(tid)), ("id_str", .string(String(tid))), ("user_id", .uint(uid)),
                                        ("user_id_str", .string(String(uid))),
                                    ])
                                )
                            ])
                        ),
                        ("timestamp_ms", .string(String(nowMillis))),
                    ]).text)
            }
        }
    }

    /// Sends a notice (limit, disconnect, warning) to every stream; API v2 streams get a
    /// disconnect in their own words and nothing else.
    func broadcastNotice(_ json: J) {
        let isDisconnect: Bool = { if case .object(let f) = json { return f.first?.0 == "disconnect" } else { return false } }()
        for (id, sub) in subscribers {
            if case .rules = sub.kind {
                guard isDisconnect else { continue }
                deliver(
                    id,
                    J.object([
                        (
                            "errors",
                            .array([
                                .object([
                                    ("title", .string("operational-disconnect")),
                                    ("disconnect_type", .string("UpstreamOperationalDisconnect")),
                                    ("detail", .string("This stream has been disconnected upstream for operational reasons.")),
                                    ("type", .string("https://api.twitter.com/2/problems/operational-disconnect")),
                                ])
                            ])
                        )
                    ]).text)
            } else {
                deliver(id, json.text)
            }
        }
    }

    private func matches(_ kind: StreamSubscriber.Kind, _ event: StreamEvent) -> Bool {
        let t: SimTweet
        switch event {
        case .tweet(let tweet): t = tweet
        case .delete(let id, let uid):
            guard let tweet = tweets[id] else { return true }
            t = tweet
            _ = uid
        }
        switch kind {
        case .rules(let consumer, _):
            return (v2Rules[consumer] ?? []).contains { $0.query.matches(candidate(t)) }
        case .sample: return true
        case .user(let uid):
            let following = Set(users[uid]?.following ?? []).union([uid])
            let name = users[uid]?.screenName.lowercased() ?? ""
            return following.contains(t.userID) || (mentionsByTweet[t.id] ?? []).contains(name)
        case .filter(let track, let follow):
            if follow.contains(t.userID) || t.inReplyToUserID.map(follow.contains) == true { return true }
            if let rt = t.retweetedID, let o = tweets[rt], follow.contains(o.userID) { return true }
            let haystack = searchableText(t)
            return track.contains { words in words.allSatisfy { haystack.contains($0) } }
        }
    }

    /// Lower-cased text plus expanded and display URLs, mentions and hashtags, for `track`.
    func searchableText(_ t: SimTweet) -> String {
        ([t.text] + t.links.flatMap { [$0.expanded, $0.display] }).joined(separator: " ").lowercased()
    }

    /// Frames and sends one message, applying the stream faults.
    func deliver(_ id: Int, _ json: String) {
        guard var sub = subscribers[id] else { return }
        var payload = json
        if faults.truncatedMessages > 0 {
            faults.truncatedMessages -= 1
            payload = String(json.prefix(max(1, json.count / 2)))
        }
        let frame: Data
        if faults.malformedFrames > 0 {
            faults.malformedFrames -= 1
            frame = Data((sub.delimited ? "12x!\r\n{\"broken\r\n" : "}{\"broken\": \r\n").utf8)
        } else {
            frame = Self.frame(payload, delimited: sub.delimited)
        }
        if sub.stalledUntil != nil {
            sub.pending.append(frame)
        } else {
            sub.continuation.yield(frame)
        }
        sub.sent += 1
        subscribers[id] = sub
        checkStall(id)
        if let limit = sub.dropAfter, sub.sent >= limit {
            sub.continuation.yield(Data())
            sub.continuation.finish()
            subscribers[id] = nil
        }
    }

    private func checkStall(_ id: Int) {
        guard var sub = subscribers[id], let after = sub.stallAfter, sub.sent >= after else { return }
        if sub.stallWarnings {
            sub.continuation.yield(
                Self.frame(
                    J.object([
                        (
                            "warning",
                            .object([
                                ("code", .string("FALLING_BEHIND")),
                                (
                                    "message",
                                    .string(
                                        "Your connection is falling behind and messages are being queued for delivery to you. Your queue is now over 60% full. You will be disconnected when the queue is full."
                                    )
                                ),
                                ("percent_full", .int(60)),
                            ])
                        )
                    ]).text, delimited: sub.delimited))
        }
        sub.stallAfter = nil
        sub.stalledUntil = Date().addingTimeInterval(sub.stallSeconds)
        subscribers[id] = sub
        let seconds = sub.stallSeconds
        Task { [weak self] in
            try? await Task.sleep(nanoseconds: SimClock.nanoseconds(seconds))
            await self?.endStall(id)
        }
    }

    /// Sends what a stall held back.
    func endStall(_ id: Int) {
        guard var sub = subscribers[id], let until = sub.stalledUntil, Date() >= until else { return }
        sub.stalledUntil = nil
        for frame in sub.pending { sub.continuation.yield(frame) }
        sub.pending.removeAll()
        subscribers[id] = sub
    }

    static func frame(_ json: String, delimited: Bool) -> Data {
        let body = Data(json.utf8)
        return delimited ? Data("\(body.count + 2)\r\n".utf8) + body + Data("\r\n".utf8) : body + Data("\r\n".utf8)
    }
}
