import CCurl
import COpenSSL
import Foundation
import Spawn
import Testing

@testable import TwitterAPI

/// libcurl is opened when the first transfer needs it, not bound before `main`.
@Suite struct CurlLoadingTests {
    static let binary = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../.build/debug/linnet").standardized.path

    static func probe(_ name: String) -> String? {
        var text = [CChar](repeating: 0, count: 512)
        return text.withUnsafeMutableBufferPointer { b in ccurl_probe(name, b.baseAddress, b.count).map { String(cString: $0) } }
    }

    @Test func aFileThatIsNotLibcurlIsSaidInWords() {
        #expect(Self.probe("libcurl.so.4") == nil)
        let missing = Self.probe("libcurl-none-such.so.4") ?? ""
        #expect(missing.hasPrefix("libcurl could not be loaded (libcurl-none-such.so.4: cannot open shared object file"))
        #expect(missing.hasSuffix("install libcurl4, then start Linnet again"))
        #expect(Self.probe("libc.so.6") == "libc.so.6 has no curl_global_init: libcurl 7.68.0 or later is needed")
    }

    @Test func withoutLibcurlEveryRequestEndsSayingWhy() async throws {
        let why = "libcurl could not be loaded (none here): install libcurl4, then start Linnet again"
        let client = HTTPClient(engine: CurlEngine(loading: { why }))
        for _ in 0..<2 {
            await #expect(throws: TransportError.noLibcurl(why)) {
                _ = try await client.send(HTTPRequest(method: "GET", url: "http://127.0.0.1:9/"))
            }
        }
        var lines = client.stream(HTTPRequest(method: "GET", url: "http://127.0.0.1:9/")).makeAsyncIterator()
        await #expect(throws: TransportError.noLibcurl(why)) { _ = try await lines.next() }
        #expect(TransportError.noLibcurl(why).description == why)
    }

    /// The dynamic loader's own account of what `linnet --version` opened.
    @Test func aCommandWithoutTheNetworkOpensNoLibcurlOrLibcrypto() async throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.binary), "\(Self.binary) is missing: build it first")
        let r = try await ChildProcess.output(
            Self.binary, ["--version"], environment: ["LD_DEBUG": "libs", "PATH": "/usr/bin:/bin"], stderr: .stdout)
        #expect(r.status == 0)
        #expect(r.text.contains("libncursesw.so.6"), "LD_DEBUG=libs said nothing: \(r.text.prefix(200))")
        #expect(!r.text.contains("libcurl"))
        #expect(!r.text.contains("libcrypto"))
    }

    /// libcrypto, opened when the first signature needs it, as libcurl is.
    @Test func aMissingLibcryptoIsSaidInWords() {
        func probe(_ name: String) -> String? {
            var text = [CChar](repeating: 0, count: 512)
            return text.withUnsafeMutableBufferPointer { b in copenssl_probe(name, b.baseAddress, b.count).map { String(cString: $0) } }
        }
        #expect(probe("libcrypto.so.3") == nil)
        let missing = probe("libcrypto-none-such.so.3") ?? ""
        #expect(missing.hasPrefix("libcrypto could not be loaded (libcrypto-none-such.so.3: cannot open shared object file"))
        #expect(missing.hasSuffix("install libssl3, then start Linnet again"))
        #expect(probe("libc.so.6") == "libc.so.6 has no HMAC: OpenSSL 3's libcrypto is needed")
        #expect(copenssl_load() == nil)
    }
}
