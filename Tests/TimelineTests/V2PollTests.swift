import Foundation
import LinnetCore
import LinnetTestSupport
import Testing
import Timeline
import TwitterAPI

/// Posts whole: a post with a poll arrives with its choices and votes, is drawn with them,
/// and keeps them in the cache.
@Suite(.serialized) struct V2PollTests {
    @Test func pollsComeWholeAndAreDrawnAndKept() async throws {
        let h = try await ClientHarness.start()
        defer { Task { await h.stop() } }
        let me = try await h.client.v2Me()
        let all = try await h.v2WholeHome(of: me.id)
        let withPoll = all.filter { $0.content.extras?.poll != nil }
        let post = try #require(withPoll.first, "no poll in home")
        let poll = try #require(post.content.extras?.poll)
        #expect((2...4).contains(poll.choices.count) && poll.endsAt != nil && poll.durationMinutes != nil)
        #expect(poll.choices.allSatisfy { !$0.label.isEmpty })
        // The same votes as the simulator's own answer for that post.
        let raw = try await h.client.call(
            "GET", "/2/tweets/\(post.content.id)", [("expansions", "attachments.poll_ids"), ("poll.fields", "options")])
        guard case .array(let polls)? = try JSONValue.parse(raw)["includes"]?["polls"], let first = polls.first,
            case .array(let options)? = first["options"]
        else {
            throw Failure("no poll in the lookup")
        }
        #expect(options.compactMap { $0["votes"]?.intValue }.map(Int.init) == poll.choices.map(\.votes))
        // Drawn: every choice, its share, and the footer.
        let now = Double(poll.endsAt ?? 0) - 3 * 3600
        let lines = TweetCard.lines(post, width: 100, theme: .fallback, now: now).map(\.text)
        let total = poll.totalVotes
        for c in poll.choices {
            let share = total > 0 ? "\(Int((Double(c.votes) / Double(total) * 100).rounded()))%" : ""
            #expect(lines.contains { $0.contains("▪ \(c.label)") && $0.contains(share) }, "\(c.label) in \(lines)")
        }
        let open = poll.isClosed ? "final results" : "3 h left"
        #expect(lines.contains { $0.hasPrefix("Poll · ") && $0.hasSuffix(open) }, "\(lines)")
        let going = Poll(choices: poll.choices, endsAt: 1_000_000 + 3 * 3600 + 30, isClosed: false)
        #expect(Words.pollFooter(going, now: 1_000_000) == "Poll · \(Format.count(total)) votes · 3 h left")
        #expect(Words.pollFooter(going, now: 1_000_000 + 3 * 3600) == "Poll · \(Format.count(total)) votes · under a minute left")
        let closed = TweetCard.lines(post, width: 100, theme: .fallback, now: Double(poll.endsAt ?? 0) + 60).map(\.text)
        #expect(closed.contains { $0.hasPrefix("Poll · ") && $0.hasSuffix("final results") })
        // Kept: the cache gives the poll back as it was.
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("linnet-poll-\(getpid())")
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = TimelineStore()
        await store.merge(page: withPoll, into: .home, request: PageRequest(count: 200))
        let cache = TimelineCache(directory: dir)
        try cache.save(await store.snapshot())
        guard case .loaded(let back) = cache.load() else { throw Failure("the cache did not load") }
        #expect(withPoll.allSatisfy { back.tweets[$0.id]?.content.extras?.poll == $0.content.extras?.poll })
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ d: String) { description = d }
    }
}
