import Foundation
import LinnetTestSupport
import Testing
import TwitterAPI

@testable import TwitterSimulator

/// Streams over real HTTP: framing, keep-alives, what each stream carries, and every fault.
@Suite(.serialized) struct SimStreamTests {
    /// Opens a signed stream.
    func open(_ sim: SimHarness, _ method: String, _ path: String, _ params: [(String, String)]) async throws -> RawHTTP.Stream {
        let query = method == "GET" ? "?" + PercentEncoding.formEncode(params) : ""
        let form = method == "GET" ? [] : params
        let auth = try OAuth1Signer().authorizationHeader(
            method: method, url: sim.base + path + query, formParameters: form, credentials: sim.credentials)
        var headers = [("Authorization", auth)]
        if method == "POST" { headers.append(("Content-Type", "application/x-www-form-urlencoded")) }
        let stream = try await RawHTTP.open(
            port: sim.port, method: method, target: path + query, headers: headers,
            body: Data(PercentEncoding.formEncode(form).utf8))
        // The server subscribes before it answers: once the headers are here, nothing is missed.
        _ = try await stream.read(until: { _ in true }, timeout: 5)
        return stream
    }

    /// Splits `<length>\r\n<json>\r\n` frames; keep-alive blank lines are counted apart.
    static func delimitedFrames(_ bytes: [UInt8]) -> (messages: [String], keepAlives: Int, rest: Int) {
        var i = 0
        var keepAlives = 0
        var out: [String] = []
        while i < bytes.count {
            guard let lineEnd = (i..<(bytes.count - 1)).first(where: { bytes[$0] == 13 && bytes[$0 + 1] == 10 }) else { break }
            let line = String(decoding: bytes[i..<lineEnd], as: UTF8.self)
            if line.isEmpty {
                keepAlives += 1
                i = lineEnd + 2
                continue
            }
            guard let n = Int(line), lineEnd + 2 + n <= bytes.count else { break }
            let body = Array(bytes[(lineEnd + 2)..<(lineEnd + 2 + n)])
            #expect(body.suffix(2) == [13, 10], "length must include the trailing CRLF")
            out.append(String(decoding: body.dropLast(2), as: UTF8.self))
            i = lineEnd + 2 + n
        }
        return (out, keepAlives, bytes.count - i)
    }

    @Test func filterStreamDelimitedFramingAndKeepAlives() async throws {
        let sim = try await SimHarness.start()
        defer { Task { await sim.stop() } }
        let stream = try await open(sim, "POST", "/1.1/statuses/filter.json", [("track", "zebra"), ("delimited", "length")])
        defer { stream.close() }
        _ = try await stream.read(until: { Self.delimitedFrames($0).keepAlives >= 2 }, timeout: 5)
        #expect(stream.status == 200)
        #expect(stream.headers["transfer-encoding"] == "chunked")
        _ = try await sim.control("POST", "/_sim/tweet", body: "author=ada&text=" + PercentEncoding.encode("a zebra & a lion 🦓"))
        _ = try await sim.control("POST", "/_sim/tweet", body: "author=ada&text=no+match+here")
        _ = try await sim.control("POST", "/_sim/tweet", body: "author=hanako&text=ZEBRA+crossing")
        let bytes = try await stream.read(until: { Self.delimitedFrames($0).messages.count >= 2 }, timeout: 5)
        let frames = Self.delimitedFrames(bytes)
        #expect(frames.keepAlives >= 2)
        let texts = try frames.messages.map { m -> String in
            guard case .tweet(let t) = try V1Decoder().streamMessage(from: Data(m.utf8)) else { return "" }
            return t.text
        }
        #expect(texts == ["a zebra &amp; a lion 🦓", "ZEBRA crossing"])
    }

    @Test func newlineFramingFollowAndLongTweetsCarryExtendedTweet() async throws {
        let sim = try await SimHarness.start()
        defer { Task { await sim.stop() } }
        let adaID = try #require(
            try sim.json(try await sim.call("GET", "/1.1/users/show.json", [("screen_name", "ada")]))["id_str"]?.stringValue)
        let stream = try await open(sim, "GET", "/1.1/statuses/filter.json", [("follow", adaID)])
        defer { stream.close() }
        _ = try await stream.read(until: { $0.count >= 2 }, timeout: 3)
        let long = String(repeating: "long words ", count: 20)
        _ = try await sim.control("POST", "/_sim/tweet", body: "author=ada&text=" + PercentEncoding.encode(long))
        let bytes = try await stream.read(
            until: { String(decoding: $0, as: UTF8.self).contains("extended_tweet") && $0.last == 10 }, timeout: 5)
        let lines = String(decoding: bytes, as: UTF8.self).components(separatedBy: "\r\n").filter { !$0.isEmpty }
        #expect(lines.count == 1)
        let raw = try JSONValue.parse(Data(lines[0].utf8))
        #expect(raw["truncated"] == .bool(true))
        #expect(raw["extended_tweet"]?["full_text"]?.stringValue == long)
        guard case .tweet(let t) = try V1Decoder().streamMessage(from: Data(lines[0].utf8)) else {
            Issue.record("not a tweet")
            return
        }
        #expect(t.text == long && t.user.screenName == "ada")
    }

    @Test func userStreamSendsFriendsThenHomeAndMentionsAndDeletes() async throws {
        let sim = try await SimHarness.start()
        defer { Task { await sim.stop() } }
        let stream = try await open(sim, "GET", "/1.1/user.json", [("delimited", "length")])
        defer { stream.close() }
        _ = try await stream.read(until: { Self.delimitedFrames($0).messages.count >= 1 }, timeout: 3)
        let posted = try sim.json(try await sim.call("POST", "/1.1/statuses/update.json", [("status", "my own tweet")]))
        let id = try #require(posted["id_str"]?.stringValue)
        _ = try await sim.control("POST", "/_sim/tweet", body: "author=ada&text=hi+%40linnet_demo")
        _ = try await sim.call("POST", "/1.1/statuses/destroy/\(id).json")
        let bytes = try await stream.read(until: { Self.delimitedFrames($0).messages.count >= 4 }, timeout: 5)
        let messages = try Self.delimitedFrames(bytes).messages.map { try V1Decoder().streamMessage(from: Data($0.utf8)) }
        #expect(messages.count == 4)
        guard case .friends(let friends) = messages[0] else {
            Issue.record("first message must be friends")
            return
        }
        #expect(!friends.isEmpty)
        guard case .tweet(let mine) = messages[1], case .tweet(let mention) = messages[2],
            case .delete(let deleted, _) = messages[3]
        else {
            Issue.record("unexpected messages \(messages)")
            return
        }
        #expect(mine.text == "my own tweet" && mention.text == "hi @linnet_demo")
        #expect(deleted.description == id)
    }

    @Test func dropFaultClosesWithoutTheLastChunk() async throws {
        let sim = try await SimHarness.start()
        defer { Task { await sim.stop() } }
        try await sim.setFaults(#"{"dropStreamAfterMessages":2}"#)
        let stream = try await open(sim, "GET", "/1.1/statuses/sample.json", [("delimited", "length")])
        defer { stream.close() }
        for i in 0..<3 { _ = try await sim.control("POST", "/_sim/tweet", body: "author=ada&text=n\(i)") }
        let bytes = try await stream.read(until: { _ in false }, timeout: 3)
        #expect(stream.closed)
        #expect(!stream.finished, "a dropped stream must not end cleanly")
        #expect(Self.delimitedFrames(bytes).messages.count == 2)
    }

    @Test func stallFaultSendsNothingThenCarriesOn() async throws {
        let sim = try await SimHarness.start()
        defer { Task { await sim.stop() } }
        try await sim.setFaults(#"{"stallStreamSeconds":3,"stallAfterMessages":0}"#)
        let stream = try await open(sim, "GET", "/1.1/statuses/sample.json", [("delimited", "length"), ("stall_warnings", "true")])
        defer { stream.close() }
        let early = try await stream.read(until: { _ in false }, timeout: 1.0)
        let during = Self.delimitedFrames(early)
        #expect(during.keepAlives == 0, "no keep-alives during a stall")
        #expect(during.messages.count == 1 && during.messages[0].contains("FALLING_BEHIND"))
        _ = try await sim.control("POST", "/_sim/tweet", body: "author=ada&text=held+back")
        let later = try await stream.read(
            until: { Self.delimitedFrames($0).messages.count >= 2 && Self.delimitedFrames($0).keepAlives >= 1 }, timeout: 8)
        let after = Self.delimitedFrames(later)
        #expect(after.messages.count == 2 && after.messages[1].contains("held back"))
        #expect(after.keepAlives >= 1)
    }

    @Test func malformedAndTruncatedMessages() async throws {
        let sim = try await SimHarness.start()
        defer { Task { await sim.stop() } }
        try await sim.setFaults(#"{"truncatedMessages":1}"#)
        let stream = try await open(sim, "GET", "/1.1/statuses/sample.json", [("delimited", "length")])
        defer { stream.close() }
        _ = try await sim.control("POST", "/_sim/tweet", body: "author=ada&text=first")
        _ = try await sim.control("POST", "/_sim/tweet", body: "author=ada&text=second")
        let bytes = try await stream.read(until: { Self.delimitedFrames($0).messages.count >= 2 }, timeout: 4)
        let m = Self.delimitedFrames(bytes).messages
        #expect(throws: (any Error).self) { try V1Decoder().streamMessage(from: Data(m[0].utf8)) }
        guard case .tweet(let t) = try V1Decoder().streamMessage(from: Data(m[1].utf8)) else {
            Issue.record("second")
            return
        }
        #expect(t.text == "second")

        try await sim.setFaults(#"{"malformedFrames":1}"#)
        _ = try await sim.control("POST", "/_sim/tweet", body: "author=ada&text=third")
        let broken = try await stream.read(until: { String(decoding: $0, as: UTF8.self).contains("12x!") }, timeout: 4)
        #expect(String(decoding: broken, as: UTF8.self).contains("12x!\r\n"))
    }

    @Test func noticesAndStreamErrors() async throws {
        let sim = try await SimHarness.start()
        defer { Task { await sim.stop() } }
        let stream = try await open(sim, "GET", "/1.1/statuses/sample.json", [("delimited", "length")])
        defer { stream.close() }
        _ = try await stream.read(until: { $0.count >= 2 }, timeout: 2)
        for kind in ["limit&track=7", "warning", "disconnect&code=7"] {
            _ = try await sim.control("POST", "/_sim/notice", body: "kind=" + kind)
        }
        let bytes = try await stream.read(until: { Self.delimitedFrames($0).messages.count >= 3 }, timeout: 4)
        let messages = try Self.delimitedFrames(bytes).messages.map { try V1Decoder().streamMessage(from: Data($0.utf8)) }
        guard case .limit(let track) = messages[0], case .warning = messages[1], case .disconnect(let code, _, _) = messages[2] else {
            Issue.record("unexpected \(messages)")
            return
        }
        #expect(track == 7 && code == 7)

        let noParams = try await sim.call("POST", "/1.1/statuses/filter.json")
        #expect(noParams.status == 406)
        try await sim.setFaults(#"{"statusFaults":[{"path":"/1.1/statuses/filter.json","status":420,"count":1}]}"#)
        let calm = try await sim.call("POST", "/1.1/statuses/filter.json", [("track", "x")])
        #expect(calm.status == 420 && calm.text.contains("Enhance your calm"))
    }

    @Test func restFaultsStatusResetAndDelay() async throws {
        let sim = try await SimHarness.start()
        defer { Task { await sim.stop() } }
        try await sim.setFaults(#"{"statusFaults":[{"path":"/1.1/statuses/home_timeline.json","status":503,"count":2}]}"#)
        let a = try await sim.call("GET", "/1.1/statuses/home_timeline.json")
        let b = try await sim.call("GET", "/1.1/statuses/home_timeline.json")
        let c = try await sim.call("GET", "/1.1/statuses/home_timeline.json")
        #expect(a.status == 503 && sim.errorCode(a) == 130 && b.status == 503 && c.status == 200)
        for (status, code) in [(429, 88), (500, 131)] {
            try await sim.setFaults(#"{"statusFaults":[{"path":"/1.1/","status":\#(status),"count":1}]}"#)
            let r = try await sim.call("GET", "/1.1/statuses/mentions_timeline.json")
            #expect(r.status == status && sim.errorCode(r) == code)
        }

        try await sim.setFaults(#"{"resets":[{"path":"/1.1/statuses/home_timeline.json","status":0,"count":1}]}"#)
        let cut = try await sim.call("GET", "/1.1/statuses/home_timeline.json")
        #expect(cut.body.count < Int(cut.headers["content-length"] ?? "0") ?? 0)
        #expect(throws: (any Error).self) { try V1Decoder().timeline(from: cut.body) }

        try await sim.setFaults(#"{"delayMilliseconds":400}"#)
        let started = Date()
        #expect(try await sim.call("GET", "/1.1/account/verify_credentials.json").status == 200)
        #expect(Date().timeIntervalSince(started) >= 0.4)

        let log = try sim.json(try await sim.control("GET", "/_sim/requests"))
        guard case .array(let entries) = log else {
            Issue.record("log")
            return
        }
        #expect(entries.contains { $0["status"]?.intValue == 503 && $0["path"]?.stringValue == "/1.1/statuses/home_timeline.json" })
        #expect(entries.contains { $0["auth"]?.stringValue == "user" })
    }

    @Test func manyConcurrentStreamsStayFed() async throws {
        let sim = try await SimHarness.start()
        defer { Task { await sim.stop() } }
        var streams: [RawHTTP.Stream] = []
        for _ in 0..<20 { streams.append(try await open(sim, "GET", "/1.1/statuses/sample.json", [("delimited", "length")])) }
        defer { for s in streams { s.close() } }
        _ = try await sim.control("POST", "/_sim/tweet", body: "author=ada&text=to+everyone")
        for s in streams {
            let bytes = try await s.read(until: { Self.delimitedFrames($0).messages.count >= 1 }, timeout: 5)
            #expect(Self.delimitedFrames(bytes).messages.first?.contains("to everyone") == true)
        }
        #expect(try sim.json(try await sim.control("GET", "/_sim/streams"))["open"]?.intValue == 20)
    }
}
