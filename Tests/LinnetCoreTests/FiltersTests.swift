import Foundation
import LinnetCore
import LinnetTestSupport
import Screen
import Testing
import Timeline
import TwitterAPI

/// `[filters]`: what they hide, how a pane shows it (a count on the tab, a key that reveals
/// them for a while), and that nothing leaves the store.
@Suite struct FiltersTests {
    static func filters(
        words: [String] = [], phrases: [String] = [], hashtags: [String] = [], users: [String] = [], patterns: [String] = []
    ) -> Filters {
        var f = Filters()
        f.words = words
        f.phrases = phrases
        f.hashtags = hashtags
        f.users = users
        f.patterns = patterns
        return f
    }

    static let tagged = Tweet(
        id: TweetID(120), createdAt: Int64(Scene.now), user: Scene.kenji, text: "New &amp; shiny #SwiftLang release: https://t.co/x",
        entities: Entities(
            urls: [.init(target: "https://spoilers.example/finale", display: "spoilers.example/…", range: 36..<50)],
            hashtags: [.init(text: "SwiftLang", range: 16..<26)]))

    @Test func whatEachKindHides() {
        let home = Scene.homeTweets
        let plain = home[5]  // "Plain old tweet number five." by ann
        let retweet = home[3]  // ann retweets noor
        let quoting = home[2]  // kenji quotes ann's "The original thought, quoted."
        // Words are whole words in any case; "old" is not in "golden".
        #expect(Self.filters(words: ["OLD"]).hides(plain))
        #expect(!Self.filters(words: ["ol"]).hides(plain))
        #expect(!Self.filters(words: ["old"]).hides(Scene.tweet(1, Scene.ann, "golden hour", age: 0)))
        #expect(Self.filters(words: ["混ざった"]).hides(home[4]), "a word in a script without spaces is found as text")
        // Phrases anywhere, HTML entities decoded first.
        #expect(Self.filters(phrases: ["new & SHINY"]).hides(Self.tagged))
        // Hashtags from the entities, with or without '#'.
        #expect(Self.filters(hashtags: ["#swiftlang"]).hides(Self.tagged))
        #expect(Self.filters(hashtags: ["SwiftLang"]).hides(Self.tagged))
        #expect(!Self.filters(hashtags: ["swift"]).hides(Self.tagged))
        // Where a link really goes counts, not the t.co address.
        #expect(Self.filters(phrases: ["spoilers.example/finale"]).hides(Self.tagged))
        // Users: their tweets and retweets of them, and their retweets of others.
        #expect(Self.filters(users: ["@Noor"]).hides(retweet))
        #expect(Self.filters(users: ["ann"]).hides(retweet))
        #expect(!Self.filters(users: ["kenji"]).hides(retweet))
        // A retweet's text is the original's; a quote's quoted text counts too.
        #expect(Self.filters(phrases: ["hello world"]).hides(retweet))
        #expect(Self.filters(phrases: ["original thought"]).hides(quoting))
        // Regular expressions, as written.
        #expect(Self.filters(patterns: ["number (four|five)"]).hides(plain))
        #expect(!Self.filters(patterns: ["^number"]).hides(plain))
        // A muted user id from the server.
        #expect(Filters().hides(plain, mutedUsers: [Scene.ann.id]))
        #expect(!Filters().hides(plain, mutedUsers: [Scene.kenji.id]))
    }

    @Test func configReadsThemAndRefusesWhatCannotWork() throws {
        let c = try Config.parse(
            """
            [filters]
            words = ["spoiler"]
            phrases = ["season finale"]
            hashtags = ["#crypto"]
            users = ["@loud"]
            regex = ["(?i)giveaway\\\\b"]
            """, file: "config.toml")
        #expect(c.filters.words == ["spoiler"] && c.filters.phrases == ["season finale"] && c.filters.hashtags == ["#crypto"])
        #expect(c.filters.users == ["@loud"] && c.filters.patterns == ["(?i)giveaway\\b"])
        #expect(c.filters.hides(Scene.tweet(1, Scene.ann, "A GIVEAWAY!", age: 0)))
        // What `linnet config` prints reads back the same.
        let back = try Config.parse(c.rendered, file: "x")
        #expect(back.filters == c.filters, "\(c.rendered)")
        for (bad, says) in [
            ("regex = [\"(unclosed\"]", "\"(unclosed\" is not a regular expression"),
            ("colours = [\"red\"]", "[filters] takes words, phrases, hashtags, users and regex"),
            ("words = \"spoiler\"", "words must be a list of non-empty strings"),
            ("words = [\"\"]", "words must be a list of non-empty strings"),
            ("users = [1]", "users must be a list of non-empty strings"),
        ] {
            #expect(throws: Config.Problem.self) { try Config.parse("[filters]\n" + bad, file: "config.toml") }
            do {
                _ = try Config.parse("[filters]\n" + bad, file: "config.toml")
            } catch {
                #expect(error.description.contains(says), "\(error.description)")
            }
        }
    }

    /// A pane with muted tweets: they are not drawn, the tab says how many, `M` shows them for
    /// 30 s (or until pressed again), and the store still holds them all.
    @Test func aPaneHidesCountsAndReveals() async {
        let store = await Scene.store()
        let snapshot = await store.snapshot()
        var memo: [TweetID: (ObjectIdentifier, Bool)] = [:]
        let f = Self.filters(words: ["plain"], users: ["kenji"])
        var c = Scene.context(snapshot)
        c.filtered = FilteredView.make(snapshot, panes: [.home, .mentions, .user("kenji")], filters: f, mutedUsers: [], memo: &memo)
        #expect(c.hidden(.home).count == 3, "kenji's two and the plain one")
        #expect(c.filtered[.user("kenji")] == nil, "a person's own timeline is not filtered")
        #expect(c.filtered[.mentions]?.hidden == 0)
        #expect(snapshot.timelines[.home]?.ids.count == 7, "the store holds them all")
        var s = Scene.state(100, 40)
        _ = Reducer.reduce(&s, .storeChanged, c)
        var text = Views.render(s, c).text
        #expect(!text.contains("Plain old tweet") && !text.contains("漢字") && text.contains("Reading #swift tips"), "\(text)")
        #expect(text.contains("1 Home · 3 muted"), "\(text)")
        #expect(c.ids(s.pane).count == 4)
        // The memo decided each tweet once: a second pass gives the same.
        #expect(memo.count == 7)
        let again = FilteredView.make(snapshot, panes: [.home], filters: f, mutedUsers: [], memo: &memo)
        #expect(again[.home]?.view.ids == c.filtered[.home]?.view.ids)

        // M: the notice says for how long; the app shows the whole timeline meanwhile.
        _ = Scene.run(&s, c, [.keys([.char("M")])])
        #expect(s.revealMutedUntil == Scene.now + 30)
        #expect(s.notice?.text == "Showing 3 muted tweets for 30 s (M hides them again).")
        var shown = c
        shown.filtered[.home] = c.filtered[.home]!.revealed(in: snapshot, .home, filters: f)
        text = Views.render(s, shown).text
        #expect(text.contains("Plain old tweet") && text.contains("1 Home · 3 muted, shown"), "\(text)")
        // Each post shown only by M says which filter hides it, on the line below it.
        #expect(text.contains("⊘ hidden by the word “plain”; shown while revealed"), "\(text)")
        #expect(text.contains("⊘ hidden by the filter on @kenji; shown while revealed"), "\(text)")
        #expect(shown.filtered[.home]?.reasons.count == 3)
        #expect(Self.filters(hashtags: ["SwiftLang"]).reason(Self.tagged) == "⊘ hidden by the filter on #SwiftLang; shown while revealed")
        #expect(Self.filters(patterns: ["shin+y"]).reason(Self.tagged) == "⊘ hidden by the pattern /shin+y/; shown while revealed")
        #expect(
            Self.filters().reason(Self.tagged, mutedUsers: [Self.tagged.user.id]) == "⊘ hidden: @kenji is muted on X; shown while revealed")
        // Its time runs out on the clock.
        _ = Reducer.reduce(&s, .tick(now: Scene.now + 29), shown)
        #expect(s.revealMutedUntil != nil)
        _ = Reducer.reduce(&s, .tick(now: Scene.now + 30), shown)
        #expect(s.revealMutedUntil == nil)
        // Or M again hides them; on a pane with nothing muted it says so.
        _ = Scene.run(&s, c, [.keys([.char("M")]), .keys([.char("M")])])
        #expect(s.revealMutedUntil == nil)
        _ = Scene.run(&s, c, [.keys([.char("2")]), .keys([.char("M")])])
        #expect(s.revealMutedUntil == nil && s.notice?.text == "Nothing is muted in this pane.")
    }
}

/// The app loop applies config's filters to what it draws and to what rings for a mention,
/// and the reveal key shows them in the same frame.
@MainActor @Suite struct FiltersAppTests {
    @Test func theLoopDrawsWithoutTheMuted() async throws {
        let dir = AppLoopTests.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let terminal = MemoryTerminal(width: 100, height: 40, script: [[], [.char("M")], [.char("M")], []])
        var f = Filters()
        f.phrases = ["plain old"]
        let (app, _) = try await AppLoopTests.app(terminal, cacheDir: dir) { $0.filters = f }
        await app.run()
        let frames = terminal.frames.map(\.text)
        #expect(
            frames.first?.contains("Plain old tweet") == false && frames.first?.contains("1 Home · 1 muted") == true,
            "\(frames.first ?? "")")
        #expect(frames.contains { $0.contains("Plain old tweet") && $0.contains("1 muted, shown") }, "M did not show it")
        #expect(frames.last?.contains("Plain old tweet") == false, "M again did not hide it")
    }

    /// Mutes read from the server hide that account's tweets too, with config's filters.
    @Test func theServersMutesHideToo() async throws {
        let dir = AppLoopTests.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let terminal = MemoryTerminal(width: 100, height: 40, script: [[], []])
        let (app, store) = try await AppLoopTests.app(terminal, cacheDir: dir)
        await store.setMutedUsers([Scene.kenji.id])
        await app.run()
        let text = terminal.lastText
        #expect(!text.contains("漢字") && !text.contains("これは引用") && text.contains("Plain old tweet"), "\(text)")
        #expect(text.contains("1 Home · 2 muted"), "\(text)")
    }
}

/// A card's link carries the address it expands to in its cells' style (OSC 8 where the
/// terminal takes it); mentions and hashtags carry none.
@Suite struct CardLinkTests {
    @Test func theLinkCellsLeadWhereTheLinkGoes() async {
        let store = TimelineStore()
        await store.merge(page: [FiltersTests.tagged], into: .home, request: PageRequest(count: 200))
        let c = Scene.context(await store.snapshot())
        var s = Scene.state(100, 20)
        _ = Reducer.reduce(&s, .storeChanged, c)
        let screen = Views.render(s, c)
        let text = screen.text
        let row = text.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains("spoilers.example/…") }
        let y = try! #require(row, "\(text)")
        var linked: Set<UInt16> = []
        for x in 0..<screen.width where screen[x, y].style.link != 0 { linked.insert(screen[x, y].style.link) }
        #expect(linked.count == 1)
        #expect(linked.first.flatMap(Hyperlinks.target(of:)) == "https://spoilers.example/finale")
        // The hashtag's cells lead nowhere.
        let tagRow = text.split(separator: "\n", omittingEmptySubsequences: false)[y]
        let tagStart = tagRow.distance(from: tagRow.startIndex, to: tagRow.range(of: "#SwiftLang")!.lowerBound)
        #expect(screen[tagStart, y].style.link == 0)
    }
}

/// The likes pane: named in config.toml, opened on the author with F, titled with a heart.
@MainActor @Suite struct LikesPaneTests {
    @Test func namedOpenedAndTitled() async throws {
        let c = try Config.parse("panes = [\"home\", \"likes:ann\"]", file: "c")
        #expect(c.panes.compactMap(Config.pane) == [.home, .likes("ann")])
        #expect(Config.paneName(.likes("ann")) == "likes:ann")
        let store = await Scene.store()
        let ctx = Scene.context(await store.snapshot())
        var s = Scene.state(100, 30)
        _ = Reducer.reduce(&s, .storeChanged, ctx)
        let fx = Scene.run(&s, ctx, [.keys([.char("F")])])
        #expect(s.pane.id == .likes("ann") && fx.contains(.open(.likes("ann"))))
        #expect(Views.render(s, ctx).text.contains("♥ @ann"))
        #expect(FilteredView.applies(to: .likes("ann")) == false)
        // Kept in the cache like any pane.
        await store.merge(page: [Scene.homeTweets[5]], into: .likes("ann"), request: PageRequest(count: 20))
        let dir = AppLoopTests.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        try TimelineCache(directory: dir).save(await store.snapshot())
        guard case .loaded(let back) = TimelineCache(directory: dir).load() else {
            Issue.record("the cache did not load")
            return
        }
        #expect(back.timelines[.likes("ann")]?.ids == [TweetID(105)])
    }
}

/// `b`: the account's lists in a picker (asked of the engine), Enter opens one as a pane.
@Suite struct ListPickerTests {
    @Test func pickAListAndReadIt() async throws {
        let store = await Scene.store()
        let c = Scene.context(await store.snapshot())
        var s = Scene.state(100, 30)
        _ = Reducer.reduce(&s, .storeChanged, c)
        var fx = Scene.run(&s, c, [.keys([.char("b")])])
        #expect(fx.contains(.loadLists()) && s.notice?.text == "Asking for your lists…")
        _ = Reducer.reduce(&s, .listsLoaded([]), c)
        #expect(s.links == nil && s.notice?.text == "You have no lists and follow none.")
        let lists = [
            ListInfo(
                id: "1", name: "Friends", slug: "friends", owner: "linnet_demo", description: "People I read first", memberCount: 3),
            ListInfo(id: "3", name: "Reading", slug: "reading", owner: "ann", description: "", memberCount: 1),
        ]
        _ = Reducer.reduce(&s, .listsLoaded(lists), c)
        let text = Views.render(s, c).text
        #expect(
            text.contains("Lists: enter opens one") && text.contains("Friends · 3 members · People I read first")
                && text.contains("ann/reading"), "\(text)")
        // y copies nothing here; j and Enter open the second.
        fx = Scene.run(&s, c, [.keys([.char("y")])])
        #expect(fx.isEmpty && s.links != nil)
        fx = Scene.run(&s, c, [.keys([.char("j")]), .keys([.enter])])
        #expect(s.pane.id == .list("ann/reading") && fx.contains(.open(.list("ann/reading"))) && s.links == nil)
        #expect(Views.render(s, c).text.contains("≡ ann/reading"))
        #expect(try Config.parse("panes = [\"list:ann/reading\"]", file: "c").panes.compactMap(Config.pane) == [.list("ann/reading")])
        #expect(throws: Config.Problem.self) { try Config.parse("panes = [\"list:reading\"]", file: "c") }
    }
}
