import Foundation
import LinnetCore
import Pictures
import Screen
import Testing
import Timeline
import TwitterAPI

/// `v`: a post's photos over the pane, the picture from the shelf in its room, keys between
/// photos, the original opened by the link rules, and what leaves the screen with it.
@MainActor @Suite struct ViewerTests {
    static let photos: Tweet = {
        var e = Entities()
        e.media = [
            Entities.Media(
                type: "photo", target: "https://x.com/ann/status/140/photo/1", display: "pic.x.com/abc",
                mediaURL: "https://pbs.twimg.com/media/abc.jpg", range: 6..<29, width: 1200, height: 800,
                altText: "A \u{1B}[31mred\u{1B}[0m disc"),
            Entities.Media(
                type: "video", target: "https://x.com/ann/status/140/video/2", display: "pic.x.com/abc",
                mediaURL: "https://pbs.twimg.com/ext_tw_video_thumb/1/pu/img/v.jpg", range: 6..<29, width: 1280, height: 720,
                durationMs: 83_999),
        ]
        return Tweet(id: TweetID(140), createdAt: Int64(Scene.now - 5), user: Scene.ann, text: "Look: https://t.co/aaaaaaaaa", entities: e)
    }()

    /// The scene with the photo post on top and selected, pictures drawn with symbols.
    static func withPhotos(height: Int) async -> (AppState, Context) {
        let store = await Scene.store()
        await store.add(photos, to: [.home])
        var c = Scene.context(await store.snapshot())
        c.pictureMode = .symbols
        var s = Scene.state(100, height)
        _ = Reducer.reduce(&s, .storeChanged, c)
        return (s, c)
    }

    func opened() async -> (AppState, Context) {
        var (s, c) = await Self.withPhotos(height: 30)
        _ = Scene.run(&s, c, [Scene.keys("v")])
        return (s, c)
    }

    func picture(_ mode: PictureMode, columns: Int, rows: Int) throws -> RenderedPicture {
        let b = Bitmap(width: 4, height: 2, rgba: (0..<32).map { UInt8($0 % 4 == 0 ? 230 : $0 % 4 == 3 ? 255 : 20) })
        return try PictureRenderer.render(b, columns: columns, rows: rows, mode: mode, colors: .truecolor, cell: (10, 20))
    }

    @Test func vOpensThePhotoAndAsksForItsRoom() async throws {
        var (s, c) = await opened()
        #expect(s.keyMode == .viewer && s.viewer == Viewer(tweet: TweetID(140)))
        let asks = Views.pictureAsks(s, c)
        let ask = try #require(asks.first)
        // The pane's rows less the title and the alt text's line; two columns of margin.
        #expect(asks.count == 1 && ask.url == "https://pbs.twimg.com/media/abc.jpg" && ask.columns == 98 && ask.rows == 26)
        var screen = Views.render(s, c)
        #expect(screen.text.contains("▣ photo 1/2 · 1200×800 · ←/→ more"))
        #expect(screen.text.contains(Words.pictureLoading))
        // The alt text is shown cleaned: no escape reaches the screen.
        let alt = try #require(screen.text.split(separator: "\n").first { $0.contains("alt: ") })
        // Cleaned before it is drawn: the sequence's text is not shown either.
        #expect(!alt.contains("[31m") && alt.contains("red") && alt.contains("disc"), "\(alt)")
        // Made: its cells, in the photo's colour, centred in the room, and a placement.
        c.pictures.put(ask, .success(try picture(.symbols, columns: 40, rows: 20)))
        screen = Views.render(s, c)
        let placement = try #require(screen.pictures.first)
        #expect(placement.rect == Rect(x: 1 + 29, y: 2 + 3, width: 40, height: 20) && !placement.isGraphic)
        #expect(screen[50, 15].style.bg == .rgb(230, 20, 20) || screen[50, 15].style.fg == .rgb(230, 20, 20))
        // The help over it takes the picture away.
        _ = Scene.run(&s, c, [Scene.keys("?")])
        #expect(Views.pictureAsks(s, c).isEmpty && Views.render(s, c).pictures.isEmpty)
    }

    @Test func aGraphicIsAPlacementOverBlankCells() async throws {
        let (s, c0) = await opened()
        var c = c0
        c.pictureMode = .kitty
        let ask = try #require(Views.pictureAsks(s, c).first)
        c.pictures.put(ask, .success(try picture(.kitty, columns: 30, rows: 20)))
        let screen = Views.render(s, c)
        let p = try #require(screen.pictures.first)
        #expect(p.isGraphic && p.bytes.starts(with: Array("\u{1B}_G".utf8)))
        for y in p.rect.y..<p.rect.maxY { #expect(screen.line(y).dropFirst(p.rect.x).prefix(p.rect.width).allSatisfy { $0 == " " }) }
    }

    @Test func keysMoveBetweenFilesOpenTheOriginalAndClose() async {
        var (s, c) = await opened()
        _ = Scene.run(&s, c, [Scene.keys("l")])
        #expect(s.viewer?.index == 1)
        #expect(Views.render(s, c).text.contains("▶ video 2/2"))
        // A video's poster, its length under it (as players show it, seconds rounded down).
        #expect(Views.render(s, c).text.contains("▶ video 1:23: its poster"))
        #expect(Views.pictureAsks(s, c).first?.url == "https://pbs.twimg.com/ext_tw_video_thumb/1/pu/img/v.jpg")
        _ = Scene.run(&s, c, [Scene.keys("l")])
        #expect(s.viewer?.index == 0)
        let fx = Scene.run(&s, c, [Scene.keys("o")])
        #expect(fx == [.openLink("https://pbs.twimg.com/media/abc?format=jpg&name=orig")])
        // A picture that could not be made is said once.
        let ask = Views.pictureAsks(s, c)[0]
        _ = Reducer.reduce(&s, .pictureLoaded(ask, .failure(PictureFailure("the server sent an empty file"))), c)
        #expect(s.notice?.text == "Picture not shown: the server sent an empty file.")
        c.pictures.put(ask, .failure(PictureFailure("the server sent an empty file")))
        #expect(Views.render(s, c).text.contains("Picture not shown: the server sent an empty file."))
        _ = Scene.run(&s, c, [.keys([.escape])])
        #expect(s.viewer == nil && s.keyMode == .timeline)
    }

    @Test func aPostWithoutMediaSaysSo() async {
        let store = await Scene.store()
        var s = Scene.state(100, 30)
        let c = Scene.context(await store.snapshot())
        _ = Reducer.reduce(&s, .storeChanged, c)
        _ = Scene.run(&s, c, [Scene.keys("v")])
        #expect(s.viewer == nil && s.notice?.text == Words.noMedia)
    }

    @Test func theProfileShowsTheAvatar() async throws {
        let store = await Scene.store()
        var c = Scene.context(await store.snapshot())
        c.pictureMode = .symbols
        var s = Scene.state(100, 30)
        _ = Reducer.reduce(&s, .storeChanged, c)
        _ = Reducer.reduce(
            &s,
            .profileLoaded(Profile(user: Scene.ann, relationship: nil, imageURL: "https://pbs.twimg.com/profile_images/2/ann_normal.jpg")),
            c)
        let ask = try #require(Views.pictureAsks(s, c).first)
        #expect(ask == PictureAsk(url: "https://pbs.twimg.com/profile_images/2/ann_normal.jpg", columns: 10, rows: 5))
        c.pictures.put(ask, .success(try picture(.symbols, columns: 10, rows: 5)))
        let screen = Views.render(s, c)
        let p = try #require(screen.pictures.first)
        #expect(p.rect.width == 10 && p.rect.height == 5 && p.rect.maxX == 100 - 3)
        #expect(screen.text.contains("Ann Lee"))
    }
}

/// `thumbnails = true`: rows kept under cards with photos, pictures asked for the cards on
/// screen, and nothing below moves when they come.
@MainActor @Suite struct ThumbnailTests {
    @Test func roomsAreKeptAndNothingMovesWhenPicturesCome() async throws {
        var (s, c) = await ViewerTests.withPhotos(height: 40)
        let plain = Views.render(s, c)
        c.thumbnails = true
        let waiting = Views.render(s, c)
        let asks = Views.pictureAsks(s, c)
        #expect(asks.map(\.url) == ["https://pbs.twimg.com/media/abc.jpg", "https://pbs.twimg.com/ext_tw_video_thumb/1/pu/img/v.jpg"])
        #expect(asks.allSatisfy { $0.columns == 24 && $0.rows == 6 })
        // The next card is 6 rows lower than without thumbnails, and stays there.
        func row(_ screen: Screen, _ text: String) -> Int? { (0..<screen.height).first { screen.line($0).contains(text) } }
        let next = try #require(row(plain, "Reading #swift tips"))
        #expect(row(waiting, "Reading #swift tips") == next + 6)
        for ask in asks {
            c.pictures.put(
                ask,
                .success(
                    try PictureRenderer.render(
                        Bitmap(width: 3, height: 2, rgba: (0..<24).map { UInt8($0 % 4 == 0 ? 230 : $0 % 4 == 3 ? 255 : 20) }),
                        columns: 9, rows: 6, mode: .symbols, colors: .truecolor, cell: (10, 20))))
        }
        let shown = Views.render(s, c)
        #expect(row(shown, "Reading #swift tips") == next + 6)
        #expect(shown.pictures.count == 2)
        #expect(shown.pictures.allSatisfy { $0.rect.height == 6 && $0.rect.width == 9 })
    }
}
