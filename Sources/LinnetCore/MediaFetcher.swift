import Bedrock
import FoundationEssentials
import Pictures
import TwitterAPI

/// Where a picture is fetched from, at the size it is drawn: only X's media hosts (a post
/// cannot make the reader fetch from anywhere it likes), photos in X's `name=` sizes.
public enum MediaAddress {
    /// Hosts pictures are fetched from.
    public static let hosts: Set<String> = ["pbs.twimg.com", "abs.twimg.com"]
    /// The simulator's stand-in for pbs.twimg.com (`.invalid` never resolves: RFC 2606); its
    /// files are fetched from the API's own server.
    public static let simulatedHost = "pbs.twimg.invalid"

    /// X's photo sizes by their longest side, smallest first.
    static let sizes: [(name: String, pixels: Int)] = [("small", 680), ("medium", 1200), ("large", 2048)]

    /// The address to fetch for a media URL drawn `pixels` wide at most, or why none.
    public static func fetchURL(_ url: String, pixels: Int, apiBase: String?) -> Result<String, PictureFailure> {
        guard url.hasPrefix("https://") else { return .failure(PictureFailure(Words.pictureNotHTTPS)) }
        let rest = url.dropFirst("https://".count)
        let host = String(rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" && $0 != ":" }).lowercased()
        var path = String(rest.dropFirst(host.count).prefix { $0 != "?" && $0 != "#" })
        guard path.hasPrefix("/"), !path.contains(".."), path.unicodeScalars.allSatisfy({ $0.isASCII && $0.value > 0x20 && $0 != "\\" })
        else { return .failure(PictureFailure(Words.pictureBadAddress)) }
        let origin: String
        if hosts.contains(host) {
            origin = "https://" + host
        } else if host == simulatedHost, let apiBase {
            origin = apiBase.hasSuffix("/") ? String(apiBase.dropLast()) : apiBase
        } else {
            return .failure(PictureFailure(Words.pictureHostRefused(host)))
        }
        // `/media/KEY.jpg` is served at any of X's sizes as `/media/KEY?format=jpg&name=SIZE`.
        if path.hasPrefix("/media/"), let dot = path.lastIndex(of: "."), path[dot...].count <= 5 {
            let format = path[path.index(after: dot)...]
            path = String(path[..<dot])
            let name = sizes.first { $0.pixels >= pixels }?.name ?? "orig"
            return .success(origin + path + "?format=" + format + "&name=" + name)
        }
        // A person's picture: `_normal` (48 px) is X's default; larger ones by name.
        if path.hasPrefix("/profile_images/"), let dot = path.lastIndex(of: "."), path[..<dot].hasSuffix("_normal") {
            let size = pixels > 200 ? "_400x400" : pixels > 73 ? "_200x200" : "_normal"
            path = path[..<dot].dropLast("_normal".count) + size + path[dot...]
        }
        return .success(origin + path)
    }
}

/// Picture files by their media URL: from the cache on disk, else over the network (and kept).
/// Not API calls: nothing here is billed or counted against a rate limit.
public struct MediaFetcher: Sendable {
    public let http: HTTPClient
    public let cache: MediaCache?
    public let apiBase: String?
    /// Seconds without a byte before a slow server is given up on.
    public var idleSeconds = 10.0

    public init(http: HTTPClient, cache: MediaCache?, apiBase: String?) {
        self.http = http
        self.cache = cache
        self.apiBase = apiBase
    }

    /// An HTTP client for media: 16 MiB at most, 20 seconds at most.
    public static func client(caFile: String? = nil) -> HTTPClient {
        var o = HTTPClient.Options(caFile: caFile, requestTimeout: 20)
        o.maxBodyBytes = PictureDecoder.maxFileBytes
        return HTTPClient(options: o)
    }

    public func bytes(_ url: String, pixels: Int) async -> Result<[UInt8], PictureFailure> {
        let address: String
        switch MediaAddress.fetchURL(url, pixels: pixels, apiBase: apiBase) {
        case .success(let a): address = a
        case .failure(let f): return .failure(f)
        }
        if let kept = cache?.read(address) { return .success(kept) }
        var request = HTTPRequest(method: "GET", url: address)
        request.idleTimeout = idleSeconds
        let response: HTTPResponse
        do {
            response = try await http.send(request)
        } catch let e as TransportError {
            return .failure(PictureFailure(Words.pictureNotFetched(e.description)))
        } catch {
            return .failure(PictureFailure(Words.pictureNotFetched("\(error)")))
        }
        guard response.status == 200 else { return .failure(PictureFailure(Words.pictureStatus(response.status))) }
        let bytes = [UInt8](response.body)
        // Only a picture is kept: a page of HTML served as image/jpeg is said, not stored.
        do {
            _ = try PictureDecoder.probe(bytes)
        } catch {
            return .failure(error)
        }
        try? cache?.store(address, bytes)
        return .success(bytes)
    }
}
