import Foundation
import LinnetCore
import LinnetTestSupport
import Locking
import Testing
import Timeline
import TwitterAPI
import TwitterSimulator

/// Posting with files: each uploaded (in segments when large) with its alt text before the
/// post is created, through v2's media endpoints or v1.1's chunked upload; nothing is posted
/// when an upload fails.
@Suite(.serialized) final class MediaPostTests {
    /// This test's files, removed when it ends.
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("linnet-media-\(UUID().uuidString)")
    deinit { try? FileManager.default.removeItem(at: dir) }

    /// A PNG signature and `size` bytes after it: what the sniffer and the server see as a photo.
    func file(_ name: String, size: Int, header: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) throws -> MediaFile {
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let url = dir.appendingPathComponent(name)
        var data = Data(header)
        data.append(Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31) }))
        try data.write(to: url)
        guard case .success(let f) = MediaFile.inspect(path: url.path) else { throw MediaError("not a photo") }
        return f
    }

    static func engine(_ sim: ClientHarness, api: TwitterClient.API) async throws -> (SyncEngine, TwitterClient) {
        let client =
            api == .v2
            ? V2SyncTests.v2Client(sim)
            : TwitterClient(endpoints: .single(sim.server.baseURL), auth: V2SyncTests.v2Client(sim).auth, http: sim.client.http)
        let me = try await client.me()
        var o = SyncOptions()
        o.clock = ScaledClock(scale: 0.005)
        return (SyncEngine(client: client, store: TimelineStore(), account: me, options: o), client)
    }

    /// The post as X v2 shows it: its media keys and each file's alt text.
    static func attachments(_ sim: ClientHarness, _ id: TweetID) async throws -> (keys: Int, alt: [String]) {
        let v2 = V2SyncTests.v2Client(sim)
        let raw = try JSONValue.parse(
            try await v2.call(
                "GET", "/2/tweets/\(id)",
                [("expansions", "attachments.media_keys"), ("tweet.fields", "attachments"), ("media.fields", "alt_text,type")]))
        guard case .array(let keys)? = raw["data"]?["attachments"]?["media_keys"],
            case .array(let media)? = raw["includes"]?["media"]
        else { return (0, []) }
        return (keys.count, media.compactMap { $0["alt_text"]?.stringValue })
    }

    @Test(arguments: [TwitterClient.API.v2, .v1])
    func photosWithAltTextArePostedAfterTheirUpload(_ api: TwitterClient.API) async throws {
        let sim = try await ClientHarness.start()
        defer { Task { await sim.stop() } }
        let (engine, _) = try await Self.engine(sim, api: api)
        var small = try file("small-\(api.rawValue).png", size: 1_000)
        small.altText = "a linnet on a wire"
        // Larger than a segment: sent in parts, with progress.
        var large = try file("large-\(api.rawValue).png", size: TwitterClient.mediaSegmentBytes + 200_000)
        large.altText = "the same wire, wider"
        let record = Locked<[UploadStatus]>([])
        engine.board.watch { if let u = engine.board.upload { record.withLock { if $0.last != u { $0.append(u) } } } }
        guard
            case .success(let posted) = await engine.perform(
                .post("two photos via \(api.rawValue)", inReplyTo: nil, media: [small, large]))
        else {
            Issue.record("the post with photos failed")
            return
        }
        let (keys, alt) = try await Self.attachments(sim, posted.id)
        #expect(keys == 2)
        #expect(alt.sorted() == ["a linnet on a wire", "the same wire, wider"])
        #expect(engine.board.upload == nil, "the upload status is cleared when done")
        let seen = record.withLock { $0 }
        #expect(seen.contains { $0.file == 2 && $0.of == 2 && $0.percent == 100 }, "\(seen)")
        #expect(seen.contains { $0.file == 2 && $0.percent > 0 && $0.percent < 100 }, "a large file shows progress part way: \(seen)")
    }

    @Test func aFailedUploadPostsNothing() async throws {
        let sim = try await ClientHarness.start()
        defer { Task { await sim.stop() } }
        let (engine, _) = try await Self.engine(sim, api: .v2)
        let small = try file("ok.png", size: 500)
        let large = try file("fails.png", size: TwitterClient.mediaSegmentBytes + 10)
        let plan = #"{"statusFaults":[{"path":"/2/media/upload/","status":503,"count":5}]}"#
        _ = try await sim.control("POST", "/_sim/faults", body: plan, json: true)
        let before = try await sim.truth("home").first
        guard case .failure(let e) = await engine.perform(.post("never posted", inReplyTo: nil, media: [small, large])) else {
            Issue.record("a post went out though an upload failed")
            return
        }
        #expect(e.message.contains("Could not upload fails.png") && e.message.contains("Nothing was posted"), "\(e.message)")
        guard case .array(let log) = try JSONValue.parse(try await sim.control("GET", "/_sim/requests").body) else { return }
        #expect(!log.contains { $0["method"]?.stringValue == "POST" && $0["path"]?.stringValue == "/2/tweets" })
        #expect(try await sim.truth("home").first == before)
    }

    @Test func v1UploadIsOpenOnEveryAccessLevel() async throws {
        let sim = try await ClientHarness.start { $0.tier = .selfServe }
        defer { Task { await sim.stop() } }
        let client = TwitterClient(endpoints: .single(sim.server.baseURL), auth: V2SyncTests.v2Client(sim).auth, http: sim.client.http)
        let id = try await client.uploadMedia(
            Data([0x89, 0x50, 0x4E, 0x47] + Array(repeating: 7, count: 100)), mimeType: "image/png", altText: "alt")
        #expect(!id.isEmpty)
        // Everything else of v1.1 is still refused there.
        await #expect(throws: APIError.self) { _ = try await client.homeTimeline() }
    }

    @Test func filesAreKnownByTheirBytesAndKeptWithinXsRules() throws {
        #expect(MediaFile.sniff(Data([0xFF, 0xD8, 0xFF, 0xE0]))?.1 == "image/jpeg")
        #expect(MediaFile.sniff(Data("GIF89a".utf8))?.0 == .gif)
        #expect(MediaFile.sniff(Data([0, 0, 0, 0x18] + Array("ftypmp42".utf8)))?.0 == .video)
        #expect(MediaFile.sniff(Data("RIFF\0\0\0\0WEBP".utf8))?.1 == "image/webp")
        #expect(MediaFile.sniff(Data("hello, world".utf8)) == nil)
        let photo = try file("p.png", size: 10)
        let gif = try file("g.gif", size: 10, header: Array("GIF89a".utf8))
        #expect(MediaFile.refusal(adding: photo, to: [photo, photo, photo]) == nil)
        #expect(MediaFile.refusal(adding: photo, to: [photo, photo, photo, photo]) == "A post carries at most four photos.")
        #expect(MediaFile.refusal(adding: gif, to: [photo])?.contains("or one GIF") == true)
        #expect(MediaFile.refusal(adding: photo, to: [gif]) != nil)
        let text = dir.appendingPathComponent("not-media.txt")
        try Data("just words".utf8).write(to: text)
        guard case .failure(let why) = MediaFile.inspect(path: text.path) else {
            Issue.record("a text file was taken for media")
            return
        }
        #expect(why.description.contains("is not a photo (JPEG, PNG, WebP), a GIF or an MP4 video"))
        guard case .failure(let missing) = MediaFile.inspect(path: "/nonexistent/x.png") else {
            Issue.record("a missing file was taken for media")
            return
        }
        #expect(missing.description == "/nonexistent/x.png: no such file")
    }
}

/// An uploaded picture is described as it is: its size from its own header, its media URL
/// with its own format, on both faces.
@Suite struct UploadedMediaTests {
    /// A real 8x8 PNG header (signature, IHDR with width 8 and height 8), then filler.
    static let png8: Data = Data(
        [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8) + [0, 0, 0, 8, 0, 0, 0, 8, 8, 6, 0, 0, 0]
            + Array(repeating: 0, count: 64))

    @Test(arguments: TwitterClient.API.allCases) func anUploadKeepsItsOwnSizeAndFormat(api: TwitterClient.API) async throws {
        let sim = try await ClientHarness.start()
        defer { Task { await sim.stop() } }
        let client = TwitterClient(
            endpoints: .single(sim.server.baseURL), auth: V2SyncTests.v2Client(sim).auth, http: sim.client.http, api: api)
        let media = try await client.uploadMedia(Self.png8, mimeType: "image/png", altText: "a tiny square")
        let posted: Tweet
        if api == .v2 {
            let id = try await client.v2Create(text: "tiny \(api)", mediaIDs: [media])
            posted = try #require(try await client.v2Lookup([id]).tweets.first)
        } else {
            posted = try await client.update("tiny \(api)", mediaIDs: [media])
        }
        let m = try #require(posted.entities.media.first)
        #expect(m.width == 8 && m.height == 8, "\(m.width)x\(m.height)")
        #expect(m.mediaURL?.hasSuffix(".png") == true, "\(m.mediaURL ?? "nil")")
    }
}
