import Foundation
import LinnetTestSupport
import Testing
import Timeline
import TwitterAPI

/// A v2 answer holding a post larger than X can send (a 10 MB note, thousands of media or
/// entities): that post is left out and said in words; the rest of the page is read.
@Suite struct HostileV2PostTests {
    static func answer(note: Int) -> String {
        let huge = String(repeating: "a", count: note)
        return """
            {"data":[{"id":"1","text":"short","author_id":"9"},
            {"id":"2","text":"cut…","author_id":"9","note_tweet":{"text":"\(huge)"}},
            {"id":"3","text":"quoting","author_id":"9","referenced_tweets":[{"type":"quoted","id":"4"}]}],
            "includes":{"users":[{"id":"9","name":"N","username":"n"}],
            "tweets":[{"id":"4","text":"q","author_id":"9","note_tweet":{"text":"\(huge)"}}]}}
            """
    }

    @Test func aTenMegabyteNoteIsLeftOutInWords() async throws {
        let body = Self.answer(note: 10 << 20)
        let server = try HostileServer { _ in HostileServer.answer(body: body) }
        defer { server.stop() }
        let before = Peak.kb()
        let client = TwitterClient(
            endpoints: .single(server.base), auth: .oauth2(accessToken: "t"), http: HTTPClient(), api: .v2)
        let page = try await client.v2Home(userID: UserID(9))
        print("hostile v2: a 10 MB note read, peak RSS grew \(Peak.kb() - before) KB")
        #expect(page.tweets.map(\.id) == [TweetID(1), TweetID(3)])
        #expect(page.tweets.last?.quotedStatus == nil, "the oversize quoted post is not joined")
        #expect(page.problems.count == 1)
        #expect(page.problems.first?.reason.contains("more than X sends") == true, "\(page.problems)")
        // X's own longest note passes.
        let fine = try V2Decoder().posts(from: Data(Self.answer(note: 25_000).utf8))
        #expect(fine.tweets.count == 3 && fine.problems.isEmpty)
    }

    @Test func thePaneSaysWhatWasLeftOut() async throws {
        let body = Self.answer(note: 1 << 20)
        let server = try HostileServer { _ in HostileServer.answer(body: body) }
        defer { server.stop() }
        let client = TwitterClient(endpoints: .single(server.base), auth: .oauth2(accessToken: "t"), http: HTTPClient(), api: .v2)
        let store = TimelineStore()
        let engine = SyncEngine(
            client: client, store: store, account: User(id: UserID(9), screenName: "n", name: "N"), options: SyncOptions())
        await engine.open(.home)
        var said: String?
        for _ in 0..<500 where said == nil {
            said = engine.board.status(.home).lastError
            if said == nil { try await Task.sleep(nanoseconds: 20_000_000) }
        }
        await engine.stop()
        #expect(
            said?.hasPrefix("1 post in the server's answer could not be read and was left out (its text is 1048576 bytes") == true,
            "\(said ?? "nil")")
        #expect(await store.snapshot().timelines[.home]?.ids.count == 2)
    }

    @Test func tooManyMediaOrEntitiesAreLeftOut() throws {
        let keys = (0..<100).map { "\"3_\($0)\"" }.joined(separator: ",")
        let urls = (0..<5000).map { _ in #"{"start":0,"end":1,"url":"https://t.co/a","expanded_url":"https://e.com"}"# }.joined(
            separator: ",")
        let body = """
            {"data":[{"id":"1","text":"a","attachments":{"media_keys":[\(keys)]}},
            {"id":"2","text":"b","entities":{"urls":[\(urls)]}},{"id":"3","text":"c"}]}
            """
        let page = try V2Decoder().posts(from: Data(body.utf8))
        #expect(page.tweets.map(\.id) == [TweetID(3)])
        #expect(page.problems.map(\.index) == [0, 1])
    }

    @Test func aV1TweetOverTheBoundIsAProblemToo() throws {
        let huge = String(repeating: "b", count: Tweet.maxTextBytes + 1)
        let body = """
            [{"id_str":"1","full_text":"\(huge)","user":{"id_str":"9","screen_name":"n","name":"N"}},
            {"id_str":"2","full_text":"ok","user":{"id_str":"9","screen_name":"n","name":"N"}}]
            """
        let page = try V1Decoder().timeline(from: Data(body.utf8))
        #expect(page.tweets.map(\.id) == [TweetID(2)])
        #expect(page.problems.first?.reason.contains("more than X sends") == true)
    }
}

enum Peak {
    static func kb() -> Int {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
        return Int(line.split(separator: " ").dropFirst().first ?? "0") ?? 0
    }
}
