import Foundation
import Testing
import TwitterAPI

@testable import TwitterSimulator

/// `--state FILE`: the world survives a restart; a corrupt file is named in a clear error.
@Suite(.serialized) struct SimStateTests {
    func tempPath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("linnet-sim-\(UUID().uuidString).json").path
    }

    @Test func worldSurvivesARestart() async throws {
        let path = tempPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let first = try await SimHarness.start { $0.statePath = path }
        let posted = try first.json(try await first.call("POST", "/1.1/statuses/update.json", [("status", "remember me")]))
        let id = try #require(posted["id_str"]?.stringValue)
        await first.stop()
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)

        let second = try await SimHarness.start {
            $0.statePath = path
            $0.seed = 99
        }
        // Stopped before its file goes: a stop saves the world.
        defer {
            Task {
                await second.stop()
                try? FileManager.default.removeItem(atPath: path)
            }
        }
        #expect(second.server.credentials == first.server.credentials, "keys come from the state, not the seed")
        let shown = try await second.call("GET", "/1.1/statuses/show/\(id).json")
        #expect(shown.status == 200)
        #expect(try V1Decoder().tweet(from: shown.body).text == "remember me")
        let again = try await second.call("POST", "/1.1/statuses/update.json", [("status", "newer")])
        let newID = try #require(UInt64(try second.json(again)["id_str"]?.stringValue ?? ""))
        #expect(newID > UInt64(id) ?? 0)
    }

    @Test func corruptStateIsNamedNotCrashedOn() async throws {
        let path = tempPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data("{\"version\": 1, \"users\": [tr".utf8).write(to: URL(fileURLWithPath: path))
        var config = SimulatorConfiguration()
        config.statePath = path
        do {
            let server = try await SimulatorServer.start(config)
            await server.stop()
            Issue.record("a corrupt state file must be refused")
        } catch {
            #expect("\(error)".contains(path))
            #expect("\(error)".contains("not a Linnet simulator state"))
        }
    }

    @Test func sameSeedSameWorld() async throws {
        let a = try await SimHarness.start { $0.seed = 7 }
        let b = try await SimHarness.start { $0.seed = 7 }
        let c = try await SimHarness.start { $0.seed = 8 }
        defer {
            Task {
                await a.stop()
                await b.stop()
                await c.stop()
            }
        }
        #expect(a.server.credentials == b.server.credentials)
        #expect(try await a.truth("home") == (try await b.truth("home")))
        #expect(a.server.credentials != c.server.credentials)
    }
}

/// `linnet demo` and `linnet sim` date the backlog to lead up to now; the world is otherwise the
/// seed's own.
@Suite struct SimBacklogDateTests {
    /// A long post is forty words cut at 280 bytes, which is 280 characters only while the
    /// words are ASCII; the cut ends inside a word, never inside a character.
    @Test func longPostsAreCutAt280Characters() {
        #expect(WorldGenerator.words.allSatisfy { $0.utf8.allSatisfy { $0 < 0x80 } })
        var rng = SimRandom(seed: 3)
        let long = WorldGenerator.generate(config: .quiet, rng: &rng).tweets.filter { $0.text.hasPrefix("A long one: ") }
        #expect(!long.isEmpty)
        for t in long { #expect(t.text.count == t.text.utf8.count && t.text.count <= 280, "\(t.text)") }
        #expect(long.contains { $0.text.count == 280 })
    }

    @Test func theBacklogLeadsUpToTheGivenTimeAndKeepsItsShape() {
        var fixed = SimulatorConfiguration.quiet
        fixed.seed = 7
        var recent = fixed
        let end = 1_795_000_000.0  // 2026-11-18
        recent.backlogEndsAt = end
        var r1 = SimRandom(seed: 7)
        var r2 = SimRandom(seed: 7)
        let a = WorldGenerator.generate(config: fixed, rng: &r1)
        let b = WorldGenerator.generate(config: recent, rng: &r2)
        // The backlog, plus the older versions of its edited posts.
        #expect(a.tweets.count == b.tweets.count && a.tweets.filter { $0.supersededBy == nil }.count == fixed.backlogTweets)
        #expect(a.tweets.contains { $0.supersededBy != nil } && a.tweets.contains { $0.noteText != nil })
        #expect(a.tweets.map(\.userID) == b.tweets.map(\.userID))
        #expect(a.credentials == b.credentials)
        // Same gaps between tweets, moved so that the newest is exactly at `end`.
        let gapsA = zip(a.tweets.dropFirst(), a.tweets).map { $0.createdAtMs - $1.createdAtMs }
        let gapsB = zip(b.tweets.dropFirst(), b.tweets).map { $0.createdAtMs - $1.createdAtMs }
        #expect(gapsA == gapsB)
        #expect(b.tweets.map(\.createdAtMs).max() == UInt64(end * 1000))
        #expect(a.tweets.map(\.createdAtMs).min()! > WorldGenerator.fixedStart)
        // Ids still carry their time (snowflakes), so paging by id follows the dates.
        #expect(b.tweets.allSatisfy { ($0.id >> 22) + 1_288_834_974_657 == $0.createdAtMs })
    }
    /// The backlog is made once and moved to end on time: the same world as made from the
    /// start that ends it then, with the same numbers drawn after it.
    @Test(arguments: [1, 7, 4242] as [UInt64])
    func aMovedBacklogIsTheOneMadeThere(seed: UInt64) throws {
        let f = Double(WorldGenerator.fixedStart) / 1000
        // Now, a date in 2026, one so early the backlog cannot end then, one in 2039.
        for end in [Date().timeIntervalSince1970 - 60, 1_795_000_000, f + 60, 2_200_000_000] {
            var fixed = SimulatorConfiguration.quiet
            fixed.seed = seed
            var dated = fixed
            dated.backlogEndsAt = end
            var once = SimRandom(seed: seed)
            let moved = WorldGenerator.generate(config: dated, rng: &once)
            var probe = SimRandom(seed: seed)
            let first = WorldGenerator.backlog(config: fixed, start: WorldGenerator.fixedStart, rng: &probe).1
            let span = first.map(\.createdAtMs).max()! - WorldGenerator.fixedStart
            let endMs = UInt64(end * 1000)
            var there = SimRandom(seed: seed)
            let start = endMs > span + WorldGenerator.fixedStart ? endMs - span : WorldGenerator.fixedStart
            let backlog = WorldGenerator.backlog(config: fixed, start: start, rng: &there)
            let made = WorldGenerator.finish(users: backlog.0, tweets: backlog.1, credentials: WorldGenerator.credentials(seed: seed))
            let json = JSONEncoder()
            json.outputFormatting = .sortedKeys
            #expect(try json.encode(moved.users) == json.encode(made.users))
            #expect(try json.encode(moved.tweets) == json.encode(made.tweets))
            #expect(moved.credentials == made.credentials && moved.accessTokens.keys == made.accessTokens.keys)
            #expect(once.next() == there.next())
            // Quotes, replies and retweets point at tweets of the moved backlog.
            let ids = Set(moved.tweets.map(\.id))
            let pointers = moved.tweets.flatMap { [$0.quotedID, $0.retweetedID, $0.inReplyToStatusID].compactMap { $0 } }
            #expect(pointers.allSatisfy(ids.contains))
            #expect(moved.tweets.contains { $0.quotedID != nil } && moved.tweets.contains { $0.retweetedID != nil })
            #expect(moved.tweets.filter { $0.quotedID != nil }.allSatisfy { $0.links[0].expanded.hasSuffix("/status/\($0.quotedID!)") })
        }
    }
}
