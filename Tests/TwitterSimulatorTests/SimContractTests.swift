import Foundation
import LinnetTestSupport
import Testing
import TwitterAPI

@testable import TwitterSimulator

/// The simulator refuses what X's contract rules out, with X's `Invalid Request` problem, and
/// lets through what it allows: the cases a request Linnet got wrong would meet at X.
@Suite struct SimContractTests {
    /// A signed v2 call; a JSON body when given.
    func v2(_ sim: SimHarness, _ method: String, _ target: String, json: String? = nil) async throws -> RawHTTP.Response {
        let auth = try OAuth1Signer().authorizationHeader(
            method: method, url: sim.base + target, formParameters: [], credentials: sim.credentials)
        var headers = [("Authorization", auth)]
        if json != nil { headers.append(("Content-Type", "application/json")) }
        return try await RawHTTP.send(port: sim.port, method: method, target: target, headers: headers, body: Data((json ?? "").utf8))
    }

    func problem(_ sim: SimHarness, _ r: RawHTTP.Response) throws -> (parameters: [String], messages: [String]) {
        #expect(r.status == 400, "\(r.status) \(String(decoding: r.body, as: UTF8.self))")
        #expect(r.headers["content-type"]?.hasPrefix("application/problem+json") == true)
        let v = try sim.json(r)
        #expect(v["title"]?.stringValue == "Invalid Request")
        #expect(v["type"]?.stringValue == "https://api.twitter.com/2/problems/invalid-request")
        #expect(v["detail"]?.stringValue == "One or more parameters to your request was invalid.")
        guard case .array(let errors)? = v["errors"] else { return ([], []) }
        var names: [String] = []
        for e in errors {
            if case .object(let p)? = e["parameters"] { names += p.map(\.0) }
        }
        return (names, errors.compactMap { $0["message"]?.stringValue })
    }

    @Test func theHomeTimelineRefusesWhatXRefuses() async throws {
        let sim = try await SimHarness.start()
        defer { Task { await sim.stop() } }
        let me = try sim.json(try await v2(sim, "GET", "/2/users/me"))["data"]?["id"]?.stringValue ?? ""
        let home = "/2/users/\(me)/timelines/reverse_chronological"
        let cases: [(String, String, String)] = [
            ("tweet.fields=foo", "tweet.fields", "The `tweet.fields` query parameter value [foo] is not one of ["),
            ("nonsense=1", "nonsense", "The query parameter [nonsense] is not one of ["),
            ("max_results=1000", "max_results", "The `max_results` query parameter value [1000] is not between 1 and 100"),
            ("expansions=nonsense", "expansions", "The `expansions` query parameter value [nonsense] is not one of ["),
            ("since_id=abc", "since_id", "The `since_id` query parameter value [abc] is not valid"),
            ("start_time=yesterday", "start_time", "The `start_time` query parameter value [yesterday] is not valid"),
            ("tweet.fields=id,id", "tweet.fields", "The `tweet.fields` query parameter value [id,id] is not valid"),
        ]
        for (query, name, message) in cases {
            let (names, messages) = try problem(sim, try await v2(sim, "GET", home + "?" + query))
            #expect(names == [name], "\(query): \(names)")
            #expect(messages.first?.hasPrefix(message) == true, "\(query): \(messages)")
        }
        // Two faults at once are both named.
        let (both, _) = try problem(sim, try await v2(sim, "GET", home + "?max_results=0&user.fields=bogus"))
        #expect(Set(both) == ["max_results", "user.fields"])
        // What the contract allows is answered.
        let ok = try await v2(
            sim, "GET",
            home + "?max_results=5&tweet.fields=created_at,author_id,note_tweet&expansions=author_id&start_time=2020-01-01T00:00:00.000Z")
        #expect(ok.status == 200, "\(String(decoding: ok.body, as: UTF8.self))")
    }

    @Test func pathParametersAndBodiesAreHeldToTheContract() async throws {
        let sim = try await SimHarness.start()
        defer { Task { await sim.stop() } }
        let (ids, _) = try problem(sim, try await v2(sim, "GET", "/2/tweets/not-a-number"))
        #expect(ids == ["id"])
        let (names, _) = try problem(sim, try await v2(sim, "GET", "/2/users/by/username/far_too_long_for_a_handle"))
        #expect(names == ["username"])
        // A lookup needs its ids.
        let (_, missing) = try problem(sim, try await v2(sim, "GET", "/2/tweets"))
        #expect(missing == ["The `ids` query parameter can not be empty"])
        // JSON bodies: types, unknown properties where the schema is closed, JSON itself.
        for (body, says) in [
            (#"{"text": 5}"#, "$.text: 5 is not a string"),
            (#"{"text": "hi", "reply": {"in_reply_to_tweet_id": "x1"}}"#, "$.reply.in_reply_to_tweet_id: x1 does not match"),
            (#"{"text": "hi", "media": {"media_ids": []}}"#, "$.media.media_ids: fewer than 1 items"),
            (#"{"text": "hi""#, "The request body is not valid JSON"),
        ] {
            let (_, messages) = try problem(sim, try await v2(sim, "POST", "/2/tweets", json: body))
            #expect(messages.first?.hasPrefix(says) == true, "\(body): \(messages)")
        }
        let made = try await v2(sim, "POST", "/2/tweets", json: #"{"text": "held to the contract"}"#)
        #expect(made.status == 201, "\(String(decoding: made.body, as: UTF8.self))")
        // A form body where the operation takes JSON is refused, not guessed at.
        let form = try await sim.call("POST", "/2/tweets", [("text", "a form")])
        #expect(form.status == 400)
    }

    /// Fields and expansions as documented: defaults alone when nothing is asked; an expansion
    /// puts its field in `data` and its objects in `includes`.
    @Test func anExpansionBringsItsFieldIntoData() async throws {
        let sim = try await SimHarness.start()
        defer { Task { await sim.stop() } }
        let me = try sim.json(try await v2(sim, "GET", "/2/users/me"))["data"]?["id"]?.stringValue ?? ""
        let home = "/2/users/\(me)/timelines/reverse_chronological?max_results=5"
        func keys(_ v: JSONValue?) -> Set<String> { if case .object(let o)? = v { Set(o.map(\.0)) } else { [] } }
        let plain = try sim.json(try await v2(sim, "GET", home))
        guard case .array(let bare)? = plain["data"] else { throw Failure("no data") }
        #expect(bare.allSatisfy { keys($0) == ["id", "text", "edit_history_tweet_ids"] }, "\(bare.map(keys))")
        #expect(plain["includes"] == nil)
        let expanded = try sim.json(try await v2(sim, "GET", home + "&expansions=author_id"))
        guard case .array(let posts)? = expanded["data"], case .array(let users)? = expanded["includes"]?["users"] else {
            throw Failure("no data or includes")
        }
        let authors = Set(posts.compactMap { $0["author_id"]?.stringValue })
        #expect(posts.allSatisfy { $0["author_id"]?.stringValue != nil }, "author_id comes with its expansion")
        #expect(authors == Set(users.compactMap { $0["id"]?.stringValue }))
    }

    /// Live posts (what the stream carries) ask questions with polls too.
    @Test func livePostsCarryPolls() async throws {
        let sim = try await SimHarness.start()
        defer { Task { await sim.stop() } }
        var ids: [String] = []
        for _ in 0..<40 {
            let made = try sim.json(try await sim.control("POST", "/_sim/tweet"))
            if let id = made["id_str"]?.stringValue { ids.append(id) }
        }
        let answer = try sim.json(
            try await v2(
                sim, "GET", "/2/tweets?ids=\(ids.joined(separator: ","))&expansions=attachments.poll_ids&poll.fields=voting_status"))
        guard case .array(let polls)? = answer["includes"]?["polls"] else { throw Failure("no polls among 40 live posts") }
        #expect(!polls.isEmpty && polls.allSatisfy { $0["voting_status"]?.stringValue == "open" })
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ d: String) { description = d }
    }

    /// The table the checks come from is X's contract, every operation of it.
    @Test func theChecksCoverEveryOperationOfTheContract() throws {
        let doc = try JSONSerialization.jsonObject(with: Fixtures.data("x-api-v2/openapi.json")) as? [String: Any] ?? [:]
        let paths = doc["paths"] as? [String: [String: Any]] ?? [:]
        let methods: Set<String> = ["get", "post", "put", "delete", "patch"]
        let expected = Set(paths.flatMap { path, item in item.keys.filter(methods.contains).map { $0.uppercased() + " " + path } })
        let contract = Contract.x
        #expect(contract.version == (doc["info"] as? [String: Any])?["version"] as? String)
        #expect(Set(contract.operations.map { $0.method + " " + $0.template }) == expected)
        // Each operation takes the contract's parameters, shared ones (written once, by name) included.
        let named = (doc["components"] as? [String: Any])?["parameters"] as? [String: [String: Any]] ?? [:]
        for op in contract.operations {
            let item = paths[op.template] ?? [:]
            let listed =
                (item["parameters"] as? [[String: Any]] ?? [])
                + ((item[op.method.lowercased()] as? [String: Any])?["parameters"] as? [[String: Any]] ?? [])
            let want = listed.map { p in (p["$ref"] as? String).flatMap { named[String($0.split(separator: "/").last ?? "")] } ?? p }
            #expect(
                op.parameters.map { "\($0.location) \($0.name) \($0.required)" }
                    == want.map { "\($0["in"] ?? "") \($0["name"] ?? "") \($0["required"] as? Bool ?? false)" }, "\(op.template)")
            // Each keeps a schema where the contract gives one (shared ones too).
            #expect(
                op.parameters.map { $0.schema != .object([:]) }
                    == want.map { !(($0["schema"] as? [String: Any]) ?? [:]).isEmpty }, "\(op.template)")
        }
        #expect(contract.operation(method: "GET", rawPath: "/2/users/me")?.0.template == "/2/users/me")
        #expect(contract.operation(method: "GET", rawPath: "/2/users/12")?.1 == ["id": "12"])
    }

    @Test func dateTimesAreRFC3339() {
        for good in ["2026-11-25T13:54:23Z", "2026-11-25T13:54:23.123Z", "2026-11-25t13:54:23+01:00", "2020-02-29T23:59:60Z"] {
            #expect(RFC3339.isValid(good), "\(good)")
        }
        for bad in ["2026-11-25", "2026-13-01T00:00:00Z", "2026-11-25T13:54:23", "2026-11-25T13:54:23.Z", "2026-11-25 13:54:23Z", ""] {
            #expect(!RFC3339.isValid(bad), "\(bad)")
        }
    }
}

/// Every v2 route the simulator serves counts against a row of docs/X-LIMITS.md.
@Suite struct SimLimitsTableTests {
    @Test func everyRouteHasItsDocumentedLimit() {
        let routes: [(String, String)] = [
            ("GET", "/2/users/me"), ("GET", "/2/users"), ("GET", "/2/users/by/username/ada"),
            ("GET", "/2/users/1/timelines/reverse_chronological"),
            ("GET", "/2/users/1/mentions"), ("GET", "/2/users/1/tweets"), ("GET", "/2/tweets/search/recent"), ("GET", "/2/tweets"),
            ("GET", "/2/tweets/1"), ("GET", "/2/tweets/search/stream/rules"), ("POST", "/2/tweets/search/stream/rules"),
            ("GET", "/2/users/1/owned_lists"), ("GET", "/2/users/1/followed_lists"), ("GET", "/2/lists/1/tweets"), ("GET", "/2/dm_events"),
            ("GET", "/2/dm_conversations/with/1/dm_events"), ("POST", "/2/dm_conversations/with/1/messages"), ("POST", "/2/media/upload"),
            ("POST", "/2/media/upload/initialize"), ("POST", "/2/media/upload/1/append"), ("POST", "/2/media/upload/1/finalize"),
            ("POST", "/2/media/metadata"), ("POST", "/2/tweets"), ("DELETE", "/2/tweets/1"), ("POST", "/2/users/1/following"),
            ("DELETE", "/2/users/1/following/2"), ("GET", "/2/users/1/followers"), ("GET", "/2/users/1/following"),
            ("GET", "/2/users/1/liked_tweets"), ("GET", "/2/users/1/muting"), ("POST", "/2/users/1/muting"),
            ("DELETE", "/2/users/1/muting/2"),
            ("GET", "/2/users/1/bookmarks"), ("POST", "/2/users/1/bookmarks"), ("DELETE", "/2/users/1/bookmarks/2"),
            ("POST", "/2/users/1/likes"), ("DELETE", "/2/users/1/likes/2"), ("POST", "/2/users/1/retweets"),
            ("DELETE", "/2/users/1/retweets/2"),
        ]
        for (method, path) in routes {
            let endpoint = Router.v2Endpoint(method: method, path: path)
            #expect(endpoint != nil, "\(method) \(path) is not served")
            if let key = endpoint?.limitKey { #expect(SimLimits.perWindow[key] != nil, "\(method) \(path): \(key) has no row") }
        }
    }
}

/// The simulator bills at the prices of docs/X-LIMITS.md.
@Suite struct SimPricesTableTests {
    @Test func theSimulatorsPricesAreTheDocumentedOnes() throws {
        let table = try LimitsDoc.prices()
        let p = World.prices
        #expect(table["Post read"] == p.post && table["User read"] == p.user && table["Owned read"] == p.owned)
        #expect(table["Post create"] == p.create && table["Post create with a URL"] == p.createWithURL)
        #expect(table["Interaction delete"] == p.delete && table["User interaction create (like, repost, follow)"] == p.interaction)
    }
}
