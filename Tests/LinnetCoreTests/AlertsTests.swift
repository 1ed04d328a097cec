import Foundation
import LinnetCore
import Testing
import Timeline
import TwitterAPI

/// Bells and desktop notices: nothing old rings at a start, bells are coalesced, and messages
/// notify once per conversation in the form mentions do.
@Suite struct AlertsTests {
    static func mention(_ id: UInt64, from name: String = "ann") -> Tweet {
        Tweet(id: TweetID(id), createdAt: 0, user: User(id: UserID(id + 1000), screenName: name, name: name), text: "@me hi \(id)")
    }

    @Test func onlyMentionsNewerThanAnySeenRingAndBellsAreCoalesced() {
        var a = Alerts()
        let all = Dictionary(uniqueKeysWithValues: (1...9).map { (TweetID($0), Self.mention(UInt64($0))) })
        func run(_ ids: [UInt64], at now: Double, bell: Bool = true) -> [Alerts.Alert] {
            a.update(
                mentions: ids.map(TweetID.init), tweet: { all[$0] }, mailbox: Mailbox(), now: now, bellOnMention: bell,
                bellOnMessage: false,
                desktop: true)
        }
        // The first mentions seen (the cache, or the first page: a 14-minute-old one) ring nothing.
        #expect(run([5, 4], at: 1000).isEmpty)
        #expect(run([5, 4], at: 1001).isEmpty)
        // Two new ones: one bell, one notice for the newest.
        #expect(run([7, 6, 5, 4], at: 1002) == [.bell, .notify(title: "Linnet: @ann mentioned you", body: "@me hi 7 (and 1 more)")])
        // Within 30 s another: the notice, no second bell.
        #expect(run([8, 7, 6], at: 1020) == [.notify(title: "Linnet: @ann mentioned you", body: "@me hi 8")])
        #expect(run([9, 8], at: 1033).first == .bell)
        // An account with no mentions at all: the first that comes rings.
        var empty = Alerts()
        #expect(
            empty.update(
                mentions: [], tweet: { all[$0] }, mailbox: Mailbox(), now: 0, bellOnMention: true, bellOnMessage: false, desktop: false,
                mentionsLoaded: true
            ).isEmpty)
        #expect(
            empty.update(
                mentions: [TweetID(3)], tweet: { all[$0] }, mailbox: Mailbox(), now: 1, bellOnMention: true, bellOnMessage: false,
                desktop: false, mentionsLoaded: true) == [.bell])
        // With the bell off, notices only.
        var quiet = Alerts()
        _ = quiet.update(
            mentions: [TweetID(1)], tweet: { all[$0] }, mailbox: Mailbox(), now: 0, bellOnMention: false, bellOnMessage: true,
            desktop: false)
        #expect(
            quiet.update(
                mentions: [TweetID(2)], tweet: { all[$0] }, mailbox: Mailbox(), now: 1, bellOnMention: false, bellOnMessage: true,
                desktop: false
            ).isEmpty)
    }

    @Test func messagesNotifyOncePerConversationLikeMentions() {
        let me = UserID(1)
        func dm(_ id: UInt64, from: UInt64) -> DirectMessage {
            DirectMessage(id: id, senderID: UserID(from), recipientID: me, text: "m\(id)", createdAtMs: Int64(id))
        }
        var box = Mailbox(me: me)
        box.loaded = true
        box.merge(
            [dm(10, from: 2)],
            users: [User(id: UserID(2), screenName: "bo", name: "Bo"), User(id: UserID(3), screenName: "cy", name: "Cy")])
        var a = Alerts()
        func run(_ bell: Bool) -> [Alerts.Alert] {
            a.update(mentions: [], tweet: { _ in nil }, mailbox: box, now: 100, bellOnMention: false, bellOnMessage: bell, desktop: true)
        }
        #expect(run(true).isEmpty, "what was there at the start rings nothing")
        // Four new messages in two conversations: two notices, one bell.
        box.merge([dm(11, from: 2), dm(12, from: 2), dm(13, from: 3), dm(14, from: 3)], users: [])
        let got = run(true)
        #expect(got.first == .bell && got.count == 3, "\(got)")
        #expect(got.contains(.notify(title: "Linnet: @bo sent you a message", body: "m12 (and 1 more)")))
        #expect(got.contains(.notify(title: "Linnet: @cy sent you a message", body: "m14 (and 1 more)")))
        // bell_on_mention does not govern messages.
        box.merge([dm(15, from: 2)], users: [])
        #expect(!run(false).contains(.bell))
    }
}

/// Sentences a new user read and stumbled on, as they read now.
@Suite struct WordingTests {
    @Test func oneFormForWaitsAndPlainWordsForLoading() {
        #expect(Format.wait(12) == "12 s")
        #expect(Format.wait(118) == "1 min 58 s")
        #expect(Format.wait(120) == "2 min")
        #expect(Format.wait(3900) == "1 h 5 min")
        #expect(Words.loadingPeople("zoe", followers: true) == "Loading who follows @zoe…")
        #expect(Words.messagesTitle(closeKeys: ["esc"]).hasPrefix(" Notices, newest first"))
        #expect(Words.newer(3, unread: 3, topKey: "g g") == "▲ 3 new · g g for the newest")
        #expect(Words.newer(3, unread: 1, topKey: "g g") == "▲ 3 newer (1 new) · g g for the newest")
    }

    @Test func theBudgetSaysWhereItWasSet() {
        let flag = SyncEngine.budgetSpentWords(budget: 0.5, spent: 0.6, source: "--budget-per-day")
        #expect(flag.contains("Raise --budget-per-day to read more today") && !flag.contains("config.toml"))
        let ledger = UsageLedger(fileURL: nil, budgetPerDay: 0.01, budgetSource: "--budget-per-day")
        var page = Billable()
        page.posts = Array(repeating: 0, count: 10)
        #expect(ledger.admit(page)?.hasSuffix("or raise --budget-per-day.") == true)
    }
}
