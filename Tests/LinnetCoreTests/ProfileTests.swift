import Foundation
import LinnetCore
import LinnetTestSupport
import Screen
import Testing
import Timeline
import TwitterAPI

/// `p` opens the author's profile over the pane; follow, mute and block are asked first and
/// sent as people actions; followers and following open a picker that pages as it is scrolled.
@Suite struct ProfileTests {
    static let ann = User(
        id: UserID(2), screenName: "ann", name: "Ann Lee", userDescription: "Reads #swift and \u{1B}[31mwrites\u{1B}[0m",
        location: "Lisbon", url: "https://ann.example/", isVerified: true, followersCount: 1_234, friendsCount: 56,
        statusesCount: 7_890, createdAt: 1_262_304_000)

    static func opened(_ r: Relationship?) async -> (AppState, Context) {
        let c = Scene.context(await Scene.store().snapshot())
        var s = Scene.state(100, 30)
        _ = Reducer.reduce(&s, .storeChanged, c)
        _ = Reducer.reduce(&s, .profileLoaded(Profile(user: ann, relationship: r)), c)
        return (s, c)
    }

    @Test func pOnATweetAsksForItsAuthorAndShowsWhoTheyAre() async {
        let c = Scene.context(await Scene.store().snapshot())
        var s = Scene.state(100, 30)
        _ = Reducer.reduce(&s, .storeChanged, c)
        #expect(s.pane.selected == TweetID(110))
        let fx = Scene.run(&s, c, [Scene.keys("p")])
        #expect(fx == [.loadProfile("ann")])
        #expect(s.notice?.text == Words.loadingProfile("ann"))
        _ = Reducer.reduce(&s, .profileLoaded(Profile(user: Self.ann, relationship: .init(followedBy: true))), c)
        #expect(s.keyMode == .profile && s.notice == nil)
        let text = Views.render(s, c).text
        let shown = Views.render(s, c).mismatch(
            from: 9,
            [
                "    Profile",
                "   Ann Lee @ann · verified",
                "   Reads #swift and writes",
                "   Lisbon · joined January 2010",
                "   https://ann.example/",
                "   7.8K tweets · 56 following · 1.2K followers",
                "   follows you",
                "",
                "   f follow · m mute · B block · u tweets · F likes · b lists · d message · 1 followers · 2",
                "   following · esc close",
            ])
        #expect(shown == nil, "\(shown ?? "")")
        #expect(!text.contains("\u{1B}"), "the bio's escape reached the screen")
        // The bio's hashtag is marked as on a card, the words around it plain.
        let screen = Views.render(s, c)
        let rows = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if let y = rows.firstIndex(where: { $0.contains("Reads #swift") }), let r = rows[y].range(of: "#swift") {
            let x = Screen.width(of: rows[y][..<r.lowerBound])
            // Drawn over the overlay's background: the colour is the hashtag's.
            #expect(screen[x, y].style.fg == Theme.fallback[.hashtag].fg && screen[x - 2, y].style.fg != Theme.fallback[.hashtag].fg)
        } else {
            Issue.record("no bio line")
        }
        _ = Scene.run(&s, c, [.keys([.escape])])
        #expect(s.profile == nil && s.keyMode == .timeline)
    }

    @Test func followMuteAndBlockAreAskedFirst() async {
        var (s, c) = await Self.opened(.init(following: true, muting: false))
        #expect(Views.render(s, c).text.contains(Words.youFollow))
        var fx = Scene.run(&s, c, [Scene.keys("f")])
        #expect(fx.isEmpty && s.question == .people(.follow(Self.ann, false)))
        #expect(Views.render(s, c).text.contains("Unfollow @ann?"))
        fx = Scene.run(&s, c, [Scene.keys("n")])
        #expect(fx.isEmpty && s.question == nil && s.profile != nil, "no leaves the profile open, nothing sent")
        fx = Scene.run(&s, c, [Scene.keys("m"), Scene.keys("y")])
        #expect(fx == [.people(.mute(Self.ann, true))])
        // The answer: the profile as it now stands, and a notice saying what was done.
        let now = Profile(user: Self.ann, relationship: .init(following: true, muting: true))
        _ = Reducer.reduce(&s, .peopleFinished(.mute(Self.ann, true), .success(now)), c)
        #expect(s.profile == now && s.notice?.text == Words.peopleDone(.mute(Self.ann, true)))
        #expect(Views.render(s, c).text.contains(Words.mutedMark))
        fx = Scene.run(&s, c, [Scene.keys("B"), Scene.keys("y")])
        #expect(fx == [.people(.block(Self.ann, true))])
        // A refusal is said in the server's words and leaves the profile as it was.
        _ = Reducer.reduce(
            &s, .peopleFinished(.block(Self.ann, true), .failure(SyncError(.failed("no."), doing: .people(.block(Self.ann, true))))), c)
        #expect(s.notice?.isError == true && s.notice?.text == "Could not block @ann: no." && s.profile == now)
    }

    @Test func oneselfAndAnAppOnlyReaderAreNotAsked() async {
        var (s, c) = await Self.opened(nil)
        var fx = Scene.run(&s, c, [Scene.keys("f")])
        #expect(fx.isEmpty && s.question == nil && s.notice?.text == Words.thatIsYou)
        (s, c) = await Self.opened(.init())
        #expect(Views.render(s, c).text.contains(Words.notFollowing))
        s.readOnly = true
        fx = Scene.run(&s, c, [Scene.keys("B")])
        #expect(fx.isEmpty && s.question == nil && s.notice?.text == SyncEngine.appOnlyWrites)
    }

    @Test func theirTweetsAndLikesOpenPanes() async {
        var (s, c) = await Self.opened(.init())
        var fx = Scene.run(&s, c, [Scene.keys("u")])
        #expect(s.profile == nil && s.pane.id == .user("ann") && fx.contains(.open(.user("ann"))), "\(fx)")
        (s, c) = await Self.opened(.init())
        fx = Scene.run(&s, c, [Scene.keys("F")])
        #expect(s.profile == nil && s.pane.id == .likes("ann") && fx.contains(.open(.likes("ann"))), "\(fx)")
    }

    @Test func theirListsOpenOverTheProfile() async {
        var (s, c) = await Self.opened(.init())
        var fx = Scene.run(&s, c, [Scene.keys("b")])
        #expect(fx == [.loadLists(of: Self.ann)] && s.notice?.text == Words.loadingListsOf("ann"))
        _ = Reducer.reduce(&s, .listsLoaded([], of: Self.ann), c)
        #expect(s.links == nil && s.notice?.text == "@ann has no lists and follows none.")
        let reading = ListInfo(id: "3", name: "Reading", slug: "reading", owner: "ann", description: "", memberCount: 1)
        _ = Reducer.reduce(&s, .listsLoaded([reading], of: Self.ann), c)
        #expect(s.keyMode == .picker && s.profile != nil)
        // esc goes back to the profile; enter on a list opens it as a pane and closes the profile.
        _ = Scene.run(&s, c, [.keys([.escape])])
        #expect(s.keyMode == .profile)
        _ = Reducer.reduce(&s, .listsLoaded([reading], of: Self.ann), c)
        fx = Scene.run(&s, c, [.keys([.enter])])
        #expect(s.profile == nil && s.pane.id == .list("ann/reading") && fx.contains(.open(.list("ann/reading"))), "\(fx)")
    }

    @Test func followersPageAsTheListIsScrolled() async {
        var (s, c) = await Self.opened(.init())
        var fx = Scene.run(&s, c, [Scene.keys("1")])
        #expect(fx == [.loadPeople(Self.ann, followers: true, next: nil)])
        let first = (0..<3).map { User(id: UserID(UInt64(100 + $0)), screenName: "f\($0)", name: "Follower \($0)") }
        _ = Reducer.reduce(&s, .peopleLoaded(Self.ann, followers: true, .init(users: first, next: "c2"), appending: false), c)
        #expect(s.keyMode == .picker && s.links?.items.map(\.url) == ["f0", "f1", "f2"])
        let text = Views.render(s, c).text
        let title = Words.peopleTitle("ann", followers: true).trimmingCharacters(in: .whitespaces)
        #expect(text.contains(title) && text.contains("Follower 1 @f1"), "\(text)")
        // No bare handle after the row, drawn as a link to nowhere.
        #expect(!text.contains("@f1  f1"), "\(text)")
        // Down to the last, then once more: the next page is asked for, once.
        fx = Scene.run(&s, c, [Scene.keys("jj")])
        #expect(fx.isEmpty && s.links?.selected == 2)
        fx = Scene.run(&s, c, [Scene.keys("j")])
        #expect(fx == [.loadPeople(Self.ann, followers: true, next: "c2")])
        fx = Scene.run(&s, c, [Scene.keys("j")])
        #expect(fx.isEmpty, "asked twice for one page")
        let second = [User(id: UserID(200), screenName: "f3", name: "Follower 3")]
        _ = Reducer.reduce(&s, .peopleLoaded(Self.ann, followers: true, .init(users: second, next: nil), appending: true), c)
        #expect(s.links?.items.map(\.url) == ["f0", "f1", "f2", "f3"])
        fx = Scene.run(&s, c, [Scene.keys("j"), .keys([.enter])])
        #expect(fx == [.loadProfile("f3")] && s.links == nil)
        // Nobody at all is said, not shown as an empty picker.
        _ = Reducer.reduce(&s, .peopleLoaded(Self.ann, followers: false, .init(users: [], next: nil), appending: false), c)
        #expect(s.links == nil && s.notice?.text == Words.nobody)
    }
}

/// The profile offers what can be done to this person from here: unfollow where followed,
/// nothing of follow, mute or block on oneself, no block where the account cannot block.
@Suite struct ProfileHintTests {
    static func hints(_ s: AppState, _ c: Context) -> String { Views.render(s, c).text }

    @Test func hintsFollowTheRelationshipAndWhatTheAccountCanDo() async {
        var (s, c) = await ProfileTests.opened(.init(following: true))
        var text = Self.hints(s, c)
        #expect(text.contains("f unfollow") && !text.contains("f follow ") && text.contains("B block"), "\(text)")
        // Oneself: no follow, mute, block or message.
        (s, c) = await ProfileTests.opened(nil)
        text = Self.hints(s, c)
        #expect(!text.contains("f follow") && !text.contains("m mute") && !text.contains("B block") && !text.contains("d message"))
        #expect(text.contains("u tweets"))
        // v2 cannot block: not offered, and B says why without asking.
        (s, c) = await ProfileTests.opened(.init())
        s.cannot[.block] = TwitterClient.noBlockOnV2
        text = Self.hints(s, c)
        #expect(!text.contains("B block") && text.contains("f follow"), "\(text)")
        _ = Scene.run(&s, c, [Scene.keys("B")])
        #expect(s.question == nil && s.notice?.text == TwitterClient.noBlockOnV2)
        #expect(Words.counts(tweets: "1", following: "2", followers: "1") == "1 tweet · 2 following · 1 follower")
        // Self-serve: no follow offered or asked; like and quote said at once, nothing sent.
        (s, c) = await ProfileTests.opened(.init())
        s.cannot[.follow] = SyncEngine.notOnSelfServe
        s.cannot[.like] = SyncEngine.notOnSelfServe
        s.cannot[.quote] = SyncEngine.notOnSelfServe
        text = Self.hints(s, c)
        #expect(!text.contains("f follow") && text.contains("m mute"), "\(text)")
        var fx = Scene.run(&s, c, [Scene.keys("f")])
        #expect(fx.isEmpty && s.question == nil && s.notice?.text == SyncEngine.notOnSelfServe)
        _ = Scene.run(&s, c, [.keys([.escape])])
        fx = Scene.run(&s, c, [Scene.keys("f")])
        #expect(fx.isEmpty && s.notice?.text == SyncEngine.notOnSelfServe)
        fx = Scene.run(&s, c, [Scene.keys("Q")])
        #expect(fx.isEmpty && s.compose == nil && s.notice?.text == SyncEngine.notOnSelfServe)
        // App-only: no write offered at all.
        (s, c) = await ProfileTests.opened(.init())
        s.readOnly = true
        text = Self.hints(s, c)
        #expect(
            !text.contains("f follow") && !text.contains("m mute") && !text.contains("d message") && text.contains("u tweets"), "\(text)")
    }
}
