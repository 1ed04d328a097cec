import Foundation
import LinnetCore
import Screen
import Timeline
import TweetText
import TwitterAPI
import TwitterSimulator

/// The fuzzing harnesses: each takes arbitrary bytes, runs one parser on them, and traps on a
/// broken invariant (libFuzzer counts a trap as a crash). `make fuzz` drives them with
/// libFuzzer; the test suite replays the corpus in `Tests/Fuzz` through them.
public enum Harness: String, CaseIterable, Sendable {
    case framer, json, text, toml, cache, oauth

    public func run(_ data: [UInt8]) {
        switch self {
        case .framer: Self.framer(data)
        case .json: Self.json(data)
        case .text: Self.text(data)
        case .toml: Self.toml(data)
        case .cache: Self.cache(data)
        case .oauth: Self.oauth(data)
        }
    }

    /// Both framings, the input cut into chunks whose sizes come from the input itself: the
    /// framer never holds more than its bound plus one chunk.
    static func framer(_ data: [UInt8]) {
        for framing in [StreamFramer.Framing.delimited, .lines] {
            let bound = 1 << 12
            var f = StreamFramer(framing: framing, maxMessageBytes: bound)
            var i = 0
            var step = 1
            while i < data.count {
                step = Int(data[i] % 64) + 1
                let chunk = data[i..<min(data.count, i + step)]
                for case .message(let m) in f.feed(chunk) {
                    precondition(m.count <= bound + 2, "a message of \(m.count) bytes passed a bound of \(bound)")
                }
                precondition(f.pendingByteCount <= bound + step + 16, "the framer holds \(f.pendingByteCount) bytes")
                i += step
            }
        }
    }

    /// The JSON tree reader and the v1.1 decoders on the same bytes.
    static func json(_ data: [UInt8]) {
        let d = Data(data)
        _ = try? JSONValue.parse(d)
        let decoder = V1Decoder()
        _ = try? decoder.streamMessage(bytes: data)
        _ = try? decoder.timeline(from: d)
        _ = try? decoder.search(from: d)
        _ = try? decoder.tweet(from: d)
        _ = try? decoder.user(from: d)
    }

    /// Scalars no sanitised text may hold: controls (ESC among them), C1, bidi overrides.
    static func forbidden(_ v: UInt32) -> Bool {
        (v < 0x20 && v != 0x0A) || (0x7F...0x9F).contains(v) || (0x202A...0x202E).contains(v) || (0x2066...0x2069).contains(v)
    }

    /// Length, extraction, width and both sanitisers on any text.
    static func text(_ data: [UInt8]) {
        let s = String(decoding: data, as: UTF8.self)
        let length = TweetLength(s)
        precondition(length.weightedLength >= 0 && length.validCodePointCount <= s.unicodeScalars.count)
        _ = Extractor.urls(in: s)
        _ = Extractor.mentions(in: s)
        _ = Extractor.hashtags(in: s)
        _ = DisplayWidth.of(s)
        let clean = Sanitizer.sanitize(s)
        for u in clean.unicodeScalars { precondition(!forbidden(u.value), "sanitised text holds U+\(String(u.value, radix: 16))") }
        let shown = Sanitizer.visible(s, keepNewlines: false)
        // A tab stays (it moves the cursor, nothing more); everything else unsafe is spelled out.
        for u in shown.unicodeScalars where u != "\t" {
            precondition(!Sanitizer.isUnsafe(u.value), "visible text holds U+\(String(u.value, radix: 16))")
        }
    }

    /// The settings readers: config.toml and a theme, from the same text.
    static func toml(_ data: [UInt8]) {
        let s = String(decoding: data, as: UTF8.self)
        if let c = try? Config.parse(s, file: "fuzz.toml") { _ = c.rendered }
        _ = try? Theme.parse(s, file: "fuzz.toml")
    }

    /// The cache file reader, which trusts nothing but its checksum.
    static func cache(_ data: [UInt8]) {
        _ = try? TimelineCache.decode(data)
        _ = try? TimelineCache.decode(data, head: 3)
    }

    /// The simulator's `Authorization` header parser.
    static func oauth(_ data: [UInt8]) {
        _ = SimParsers.authorizationHeader(String(decoding: data, as: UTF8.self))
    }
}
