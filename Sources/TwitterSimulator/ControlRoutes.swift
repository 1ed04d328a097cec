import Bedrock
import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// `/_sim/…`: what tests use to steer the simulator and to read its ground truth. No
/// authentication: the simulator binds to loopback.
enum ControlRoutes {
    static func handle(_ r: SimRequest, world: World) async -> SimResponse {
        switch (r.method, r.path) {
        case ("GET", "/_sim/credentials"):
            let c = world.credentials
            return .json(
                200,
                .object([
                    ("consumer_key", .string(c.consumerKey)), ("consumer_secret", .string(c.consumerSecret)),
                    ("xauth_consumer_key", .string(c.xauthConsumerKey)), ("xauth_consumer_secret", .string(c.xauthConsumerSecret)),
                    ("access_token", .string(c.accessToken)), ("access_token_secret", .string(c.accessTokenSecret)),
                    ("screen_name", .string(c.screenName)), ("user_id", .string(String(c.userID))), ("password", .string(c.password)),
                    ("oauth2_client_id", .string(world.config.oauth2ClientID)),
                    ("oauth2_redirect_uri", .string(world.config.oauth2RedirectURIs.first ?? "")),
                ]))
        case ("GET", "/_sim/timeline"):
            return await timeline(r, world: world)
        case ("GET", "/_sim/requests"):
            let log = await world.log
            return .json(
                200,
                .array(
                    log.map { e in
                        var fields: [(String, J)] = [
                            ("method", .string(e.method)), ("path", .string(e.path)), ("auth", .string(e.auth)),
                            ("status", .int(Int64(e.status))), ("at", .double(e.at)),
                        ]
                        if let rem = e.remaining, let reset = e.reset {
                            fields += [("remaining", .int(Int64(rem))), ("reset", .int(reset))]
                        }
                        if !e.paging.isEmpty { fields.append(("query", .object(e.paging.map { ($0.0, J.string($0.1)) }))) }
                        return .object(fields)
                    }))
        case ("GET", "/_sim/media"):
            // Ground truth: every attached file's key, kind and claimed size.
            let files = await world.tweets.values.sorted { $0.id < $1.id }.flatMap { $0.media ?? [] }
            return .json(
                200,
                .array(
                    files.map {
                        .object([
                            ("key", .string($0.key)), ("kind", .string($0.kind)), ("width", .int(Int64($0.width ?? 1200))),
                            ("height", .int(Int64($0.height ?? 800))),
                        ])
                    }))
        case ("GET", "/_sim/firehose"):
            let count = min(Int(r.param("count") ?? "") ?? 10_000, 5_000_000)
            if r.param("distinct") == "1" {
                return await distinctFirehose(count: count, perSecond: Int(r.param("rate") ?? "") ?? 0, world: world)
            }
            return await firehose(count: count, world: world)
        case ("GET", "/_sim/usage"):
            return .json(200, await world.usageJSON)
        case ("GET", "/_sim/billed"):
            return .json(200, await world.billedJSON)
        case ("GET", "/_sim/streams"):
            return .json(200, .object([("open", .int(await world.streamCount))]))
        case ("POST", "/_sim/faults"):
            guard let plan = try? JSONDecoder().decode(FaultPlan.self, from: r.body) else {
                return .error(400, code: 0, "Body must be a JSON fault plan.")
            }
            await world.setFaults(plan)
            return .json(200, .object([("ok", .bool(true))]))
        case ("POST", "/_sim/clock"):
            await world.setClockOffset(Int64(r.param("offset") ?? "0") ?? 0)
            return .json(200, .object([("ok", .bool(true))]))
        case ("POST", "/_sim/expire_tokens"):
            // Every OAuth 2.0 access token stops working now, before its time: a client must
            // renew with its refresh token after the 401.
            return .json(200, .object([("expired", .int(Int64(await world.expireOAuth2AccessTokens())))]))
        case ("POST", "/_sim/reset_limits"):
            await world.resetRateLimits()
            return .json(200, .object([("ok", .bool(true))]))
        case ("POST", "/_sim/tweet"):
            guard
                let id = await world.injectTweet(
                    author: r.param("author"), text: r.param("text"), mentionDemo: World.truthy(r.param("mention_demo")),
                    replySettings: r.param("reply_settings"), photo: r.param("photo"))
            else {
                return .error(404, code: 50, "User not found.")
            }
            return .json(200, .object([("id_str", .string(String(id)))]))
        case ("POST", "/_sim/message"):
            guard let id = await world.injectMessage(from: r.param("from"), text: r.param("text")) else {
                return .error(404, code: 50, "User not found.")
            }
            return .json(200, .object([("id", .string(String(id)))]))
        case ("POST", "/_sim/delete"):
            guard let id = r.param("id").flatMap(UInt64.init), await world.deleteTweet(id) else {
                return .error(404, code: 144, "No status found with that ID.")
            }
            return .json(200, .object([("ok", .bool(true))]))
        case ("POST", "/_sim/notice"):
            let notice: J
            switch r.param("kind") ?? "" {
            case "limit":
                notice = .object([
                    (
                        "limit",
                        .object([
                            ("track", .int(Int(r.param("track") ?? "1") ?? 1)), ("timestamp_ms", .string(String(await world.nowMillis))),
                        ])
                    )
                ])
            case "disconnect":
                notice = .object([
                    (
                        "disconnect",
                        .object([
                            ("code", .int(Int(r.param("code") ?? "12") ?? 12)), ("stream_name", .string("linnet-sim")),
                            ("reason", .string(r.param("reason") ?? "shedding load")),
                        ])
                    )
                ])
            case "warning":
                notice = .object([
                    (
                        "warning",
                        .object([
                            ("code", .string("FALLING_BEHIND")), ("message", .string("Your connection is falling behind.")),
                            ("percent_full", .int(60)),
                        ])
                    )
                ])
            case "unknown": notice = .object([("something_new", .object([("detail", .string("a message kind clients do not know"))]))])
            default: return .error(400, code: 0, "kind must be limit, disconnect, warning or unknown")
            }
            await world.broadcastNotice(notice)
            // Twitter closes a stream after telling it why.
            if r.param("kind") == "disconnect" { await world.closeAllStreams() }
            return .json(200, .object([("ok", .bool(true))]))
        default:
            return .error(404, code: 34, "Sorry, that page does not exist.")
        }
    }

    /// `count` stream messages (`delimited=length`), pre-encoded from the world's tweets and sent
    /// as fast as the socket takes them, for the ingest benchmark.
    static func firehose(count: Int, world: World) async -> SimResponse {
        let frames = await world.sampleFrames(limit: 200)
        let (stream, continuation) = AsyncStream<Data>.makeStream(bufferingPolicy: .bufferingOldest(4))
        Task {
            var sent = 0
            while sent < count, !frames.isEmpty {
                var batch = Data()
                for _ in 0..<min(64, count - sent) {
                    batch.append(frames[sent % frames.count])
                    sent += 1
                }
                // Waits while the buffer is full, so memory stays bounded and the socket sets the pace.
                while case .dropped = continuation.yield(batch) {
                    try? await Task.sleep(nanoseconds: 200_000)
                }
            }
            continuation.finish()
        }
        return SimResponse(status: 200, headers: [("Content-Type", "application/json")], body: .stream(stream))
    }

    /// Like `firehose`, but every message a new tweet: the sample's ids moved past the whole
    /// sample each round, so a client's store fills and trims as it would on a live stream;
    /// at most `perSecond` messages a second (0: as fast as the socket takes them).
    static func distinctFirehose(count: Int, perSecond: Int, world: World) async -> SimResponse {
        let sample = await world.sampleTweets(limit: 200)
        let ids = sample.map(\.id)
        let stride = (ids.max() ?? 0) - (ids.min() ?? 0) + 1
        let (stream, continuation) = AsyncStream<Data>.makeStream(bufferingPolicy: .bufferingOldest(4))
        Task {
            let clock = ContinuousClock()
            let start = clock.now
            var sent = 0
            while sent < count, !sample.isEmpty {
                var batch = Data()
                for _ in 0..<min(64, count - sent) {
                    let (id, json) = sample[sent % sample.count]
                    let fresh = String(id + UInt64(sent / sample.count) * stride)
                    batch.append(World.frame(json.replacingAll(String(id), with: fresh), delimited: true))
                    sent += 1
                }
                while case .dropped = continuation.yield(batch) {
                    try? await Task.sleep(nanoseconds: 200_000)
                }
                if perSecond > 0 {
                    let due = Duration.seconds(Double(sent) / Double(perSecond))
                    let elapsed = clock.now - start
                    if due > elapsed { try? await Task.sleep(for: due - elapsed) }
                }
            }
            continuation.finish()
        }
        return SimResponse(status: 200, headers: [("Content-Type", "application/json")], body: .stream(stream))
    }

    /// Ground truth: ids per timeline (`home`, `mentions`, `user`, or `all` created).
    static func timeline(_ r: SimRequest, world: World) async -> SimResponse {
        let user = await world.user(named: r.param("user") ?? world.credentials.screenName)
        let ids: [UInt64]
        switch r.param("name") ?? "all" {
        case "home": ids = await world.homeTweets(of: user?.id ?? 0).map(\.id)
        case "mentions": ids = await world.mentionTweets(of: user?.id ?? 0).map(\.id)
        case "user": ids = await world.userTweets(of: user?.id ?? 0).map(\.id)
        case "deleted": ids = await world.deleted.sorted(by: >)
        default: ids = await world.createdIDs.reversed()
        }
        return .json(200, .object([("ids", .array(ids.map { .string(String($0)) }))]))
    }
}
