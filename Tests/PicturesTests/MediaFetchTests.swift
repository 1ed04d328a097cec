import Foundation
import LinnetCore
import LinnetTestSupport
import Pictures
import Testing
import TwitterAPI
import TwitterSimulator

@Suite struct MediaAddressTests {
    @Test func photosAreFetchedAtXsNamedSizes() throws {
        let u = "https://pbs.twimg.com/media/FxAbC123.jpg"
        #expect(
            try MediaAddress.fetchURL(u, pixels: 500, apiBase: nil).get() == "https://pbs.twimg.com/media/FxAbC123?format=jpg&name=small")
        #expect(try MediaAddress.fetchURL(u, pixels: 1000, apiBase: nil).get().hasSuffix("name=medium"))
        #expect(try MediaAddress.fetchURL(u, pixels: 2000, apiBase: nil).get().hasSuffix("name=large"))
        #expect(try MediaAddress.fetchURL(u, pixels: 5000, apiBase: nil).get().hasSuffix("name=orig"))
        #expect(
            try MediaAddress.fetchURL("https://pbs.twimg.com/ext_tw_video_thumb/1/pu/img/x.jpg", pixels: 500, apiBase: nil).get()
                == "https://pbs.twimg.com/ext_tw_video_thumb/1/pu/img/x.jpg")
        // A person's picture: X's `_normal` (48 px), or a larger size by name.
        let avatar = "https://pbs.twimg.com/profile_images/12/ann_normal.jpg"
        #expect(try MediaAddress.fetchURL(avatar, pixels: 40, apiBase: nil).get() == avatar)
        #expect(try MediaAddress.fetchURL(avatar, pixels: 80, apiBase: nil).get().hasSuffix("/ann_200x200.jpg"))
        #expect(try MediaAddress.fetchURL(avatar, pixels: 300, apiBase: nil).get().hasSuffix("/ann_400x400.jpg"))
        // The simulator's stand-in host is served by the API's own server.
        #expect(
            try MediaAddress.fetchURL("https://pbs.twimg.invalid/media/3_1.png", pixels: 100, apiBase: "http://127.0.0.1:9")
                .get() == "http://127.0.0.1:9/media/3_1?format=png&name=small")
    }

    @Test func otherAddressesAreNotFetched() {
        for bad in [
            "http://pbs.twimg.com/media/a.jpg", "https://tracker.example/pixel.gif", "https://pbs.twimg.com.evil.example/media/a.jpg",
            "https://pbs.twimg.com/../etc/passwd", "https://pbs.twimg.com/media/a b.jpg", "javascript:alert(1)",
            "https://pbs.twimg.invalid/media/a.jpg",
        ] {
            if case .success(let url) = MediaAddress.fetchURL(bad, pixels: 100, apiBase: nil) { Issue.record("\(bad) → \(url)") }
        }
    }
}

@Suite struct MediaCacheTests {
    @Test func filesArePrivateAndTheOldestGoFirst() throws {
        try withFolder { dir in
            let cache = MediaCache(folder: dir.appendingPathComponent("media"), limitBytes: 250)
            try cache.store("a", [UInt8](repeating: 1, count: 100))
            try cache.store("b", [UInt8](repeating: 2, count: 100))
            var st = stat()
            for name in try FileManager.default.contentsOfDirectory(atPath: cache.folder.path) {
                #expect(stat(cache.folder.appendingPathComponent(name).path, &st) == 0 && st.st_mode & 0o777 == 0o600)
            }
            // Read "a" later than "b" was written: "b" is now the least recently used.
            usleep(20_000)
            #expect(cache.read("a") == [UInt8](repeating: 1, count: 100))
            try cache.store("c", [UInt8](repeating: 3, count: 100))
            #expect(cache.read("b") == nil)
            #expect(cache.read("a") != nil && cache.read("c") != nil)
            #expect(cache.bytesHeld <= 250)
        }
    }
}

@Suite(.serialized) struct MediaFetcherTests {
    /// `idle`: a second for the stalling server; the simulator's photos are made in a debug
    /// build on a busy machine, which takes longer.
    func fetcher(_ base: String, cache: MediaCache? = nil, idle: Double = 1) -> MediaFetcher {
        var f = MediaFetcher(http: MediaFetcher.client(), cache: cache, apiBase: base)
        f.idleSeconds = idle
        return f
    }

    func failure(_ r: Result<[UInt8], PictureFailure>) -> String {
        switch r {
        case .success: return "fetched"
        case .failure(let f): return f.description
        }
    }

    /// What a hostile or broken media server sends: each said, nothing kept.
    @Test func badAnswersAreSaidAndNotKept() async throws {
        let html = "<!DOCTYPE html><html>Sign in</html>"
        let server = try HostileServer { head in
            if head.contains("/media/html") { return HostileServer.answer(headers: ["Content-Type: image/jpeg"], body: html) }
            if head.contains("/media/empty") { return HostileServer.answer(headers: ["Content-Type: image/jpeg"], body: "") }
            if head.contains("/media/loop") { return HostileServer.answer(status: 302, headers: ["Location: /media/loop.jpg"], body: "") }
            if head.contains("/media/slow") { return [.text("HTTP/1.1 200 OK\r\nContent-Length: 5000\r\n\r\n\u{FF}\u{D8}"), .pause(5)] }
            return HostileServer.answer(status: 404, body: "no")
        }
        defer { server.stop() }
        try await withFolderAsync { dir in
            let cache = MediaCache(folder: dir)
            let f = fetcher(server.base, cache: cache)
            let url = { (name: String) in "https://pbs.twimg.invalid/media/\(name).jpg" }
            #expect(failure(await f.bytes(url("html"), pixels: 100)).hasPrefix("not a picture"))
            #expect(failure(await f.bytes(url("empty"), pixels: 100)) == "the server sent an empty file")
            #expect(failure(await f.bytes(url("loop"), pixels: 100)) == "the media server answered 302, not the picture")
            #expect(failure(await f.bytes(url("slow"), pixels: 100)).hasPrefix("the picture could not be fetched: no data from the server"))
            #expect(failure(await f.bytes(url("gone"), pixels: 100)) == "the media server answered 404, not the picture")
            #expect(cache.bytesHeld == 0)
        }
    }

    /// The simulator's photos: X's sizes, fetched once, then read from the cache.
    @Test func simulatorPhotosAtXsSizesFetchedOnce() async throws {
        let server = try await SimulatorServer.start()
        defer { Task { await server.stop() } }
        let key = try await firstPhotoKey(server.baseURL)
        try await withFolderAsync { dir in
            let f = fetcher(server.baseURL, cache: MediaCache(folder: dir), idle: 30)
            let small = try await f.bytes("https://pbs.twimg.invalid/media/\(key).jpg", pixels: 600).get()
            let header = try PictureDecoder.probe(small)
            #expect(header.format == .jpeg && max(header.width, header.height) == 680)
            let b = try PictureDecoder.decode(small)
            #expect(near(pixel(b, b.width / 2, b.height / 2), [230, 20, 20], 30))
            let before = try await requests(server.baseURL, to: "/media/")
            _ = try await f.bytes("https://pbs.twimg.invalid/media/\(key).jpg", pixels: 600).get()
            #expect(try await requests(server.baseURL, to: "/media/") == before)
        }
    }

    func firstPhotoKey(_ base: String) async throws -> String {
        let r = try await HTTPClient().send(HTTPRequest(method: "GET", url: base + "/_sim/media"))
        guard case .array(let files) = try JSONValue.parse(r.body) else { throw PictureFailure("no list of media") }
        let photo = try #require(files.first { $0["kind"]?.stringValue == "photo" && $0["width"]?.intValue == 1200 })
        return try #require(photo["key"]?.stringValue)
    }

    func requests(_ base: String, to prefix: String) async throws -> Int {
        let r = try await HTTPClient().send(HTTPRequest(method: "GET", url: base + "/_sim/requests"))
        return String(decoding: r.body, as: UTF8.self).components(separatedBy: "\"\(prefix)").count - 1
    }
}

func withFolderAsync(_ body: (URL) async throws -> Void) async throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("linnet-pictures-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    try await body(dir)
}
