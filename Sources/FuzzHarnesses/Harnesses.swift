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
    case framer, json, text, toml, cache, oauth, keys, listener, v2join, address, secret

    public func run(_ data: [UInt8]) {
        switch self {
        case .framer: Self.framer(data)
        case .json: Self.json(data)
        case .text: Self.text(data)
        case .toml: Self.toml(data)
        case .cache: Self.cache(data)
        case .oauth: Self.oauth(data)
        case .keys: Self.keys(data)
        case .listener: Self.listener(data)
        case .v2join: Self.v2join(data)
        case .address: Self.address(data)
        case .secret: Self.secret(data)
        }
    }

    /// Both framings, the input cut into chunks whose sizes come from the input itself: the
    /// framer never holds more than its bound plus one chunk, and chunks handed over as arrays
    /// (framed in place) give the same events as slices of the same bytes.
    static func framer(_ data: [UInt8]) {
        for framing in [StreamFramer.Framing.delimited, .lines] {
            let bound = 1 << 12
            var f = StreamFramer(framing: framing, maxMessageBytes: bound)
            var inPlace = StreamFramer(framing: framing, maxMessageBytes: bound)
            var i = 0
            var step = 1
            while i < data.count {
                step = Int(data[i] % 64) + 1
                let chunk = data[i..<min(data.count, i + step)]
                let events = f.feed(chunk)
                precondition(inPlace.feed(Array(chunk)) == events, "an array chunk framed otherwise than its slice")
                for case .message(let m) in events {
                    precondition(m.count <= bound + 2, "a message of \(m.count) bytes passed a bound of \(bound)")
                }
                precondition(inPlace.pendingByteCount == f.pendingByteCount, "the two framers hold different bytes")
                precondition(f.pendingByteCount <= bound + step + 16, "the framer holds \(f.pendingByteCount) bytes")
                i += step
            }
        }
    }

    /// The JSON tree reader, the v1.1 decoders and the v2 decoder on the same bytes.
    static func json(_ data: [UInt8]) {
        let d = Data(data)
        _ = try? JSONValue.parse(d)
        let decoder = V1Decoder()
        _ = try? decoder.streamMessage(bytes: data)
        _ = try? decoder.timeline(from: d)
        _ = try? decoder.search(from: d)
        _ = try? decoder.tweet(from: d)
        _ = try? decoder.user(from: d)
        let v2 = V2Decoder()
        if let page = try? v2.posts(from: d) {
            for t in page.tweets {
                // Every entity range the join kept lies inside the text.
                let n = t.text.unicodeScalars.count
                for r in t.entities.urls.map(\.range) + t.entities.mentions.map(\.range) + t.entities.hashtags.map(\.range) {
                    precondition(r.lowerBound >= 0 && r.upperBound <= n, "an entity at \(r) in \(n) code points")
                }
            }
        }
        _ = try? v2.users(from: d)
        _ = try? v2.streamMessage(bytes: data)
        _ = try? v2.problems(from: d)
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

    /// The settings readers: config.toml, a theme and accounts.toml, from the same text.
    static func toml(_ data: [UInt8]) {
        let s = String(decoding: data, as: UTF8.self)
        if let c = try? Config.parse(s, file: "fuzz.toml") { _ = c.rendered }
        _ = try? Theme.parse(s, file: "fuzz.toml")
        _ = try? AccountStore.parse(s, file: "fuzz.toml")
    }

    /// The cache file reader, which trusts nothing but its checksums: as given, and with the
    /// checksums mended so the input reaches what they guard.
    static func cache(_ data: [UInt8]) {
        for bytes in [data, TimelineCache.mendingChecksums(data)] {
            _ = try? TimelineCache.decode(bytes)
            _ = try? TimelineCache.decode(bytes, headOnly: true)
        }
    }

    /// The simulator's `Authorization` header parser.
    static func oauth(_ data: [UInt8]) {
        _ = SimParsers.authorizationHeader(String(decoding: data, as: UTF8.self))
    }

    /// Terminal reads (function-key codes, characters, and values that are no scalar at all)
    /// through the key decoder, the reducer and the views, at a terminal size the input picks:
    /// no frame may hold a control character or a bidi override, whatever was typed or pasted.
    static func keys(_ data: [UInt8]) {
        guard data.count >= 2 else { return }
        let width = Int(data[0]) % 250 + 1
        let height = Int(data[1]) % 80 + 1
        var inputs: [TerminalInput] = []
        var i = 2
        while i < data.count {
            let b = data[i]
            i += 1
            switch b {
            case 0xF0...0xF7 where i < data.count:
                inputs.append(.code(Int32(data[i] % 24)))
                i += 1
            case 0xF8...0xFF where i + 2 < data.count:
                inputs.append(.char(UInt32(data[i]) << 16 | UInt32(data[i + 1]) << 8 | UInt32(data[i + 2])))
                i += 3
            default:
                inputs.append(.char(UInt32(b)))
            }
        }
        let specials: [Key] = [.up, .down, .left, .right, .home, .end, .pageUp, .pageDown, .backspace, .delete, .insert, .enter, .backTab]
        let keys = KeyDecoder.decode(inputs) { code in
            code < specials.count ? specials[Int(code)] : code == 23 ? .resize : .function(Int(code) - specials.count + 1)
        }
        var state = AppState(account: "linnet_demo", width: width, height: height, now: FuzzScene.now)
        let context = Context(snapshot: FuzzScene.snapshot)
        _ = Reducer.reduce(&state, .storeChanged, context)
        var start = 0
        while start < keys.count {
            let batch = Array(keys[start..<min(keys.count, start + 16)])
            start += 16
            _ = Reducer.reduce(&state, .keys(batch), context)
            let screen = Views.render(state, context)
            precondition(
                screen.width == width && screen.height == height, "a \(screen.width)x\(screen.height) frame for \(width)x\(height)")
            for cell in screen.cells {
                for u in screen.grapheme(of: cell).unicodeScalars {
                    precondition(!forbidden(u.value) && u != "\n", "a frame holds U+\(String(u.value, radix: 16))")
                }
            }
        }
    }
}

/// A small store picture for the key harness: a tweet to select, reply to and open.
enum FuzzScene {
    static let now = 1_800_000_000.0
    static let snapshot: TimelineSnapshot = {
        let me = User(id: UserID(1), screenName: "linnet_demo", name: "Linnet")
        let ann = User(id: UserID(2), screenName: "ann", name: "Ann \u{1B}[31m")
        let tweets = [
            Tweet(id: TweetID(12), createdAt: Int64(now) - 60, user: ann, text: "hello @linnet_demo https://example.com #tag"),
            Tweet(id: TweetID(11), createdAt: Int64(now) - 3600, user: me, text: "mine, to delete 👨‍👩‍👧 नमस्ते"),
        ]
        var table = TweetTable()
        for t in tweets { table[t.id] = t }
        var home = TimelineView()
        home.ids = tweets.map(\.id)
        var mentions = TimelineView()
        mentions.ids = [TweetID(12)]
        return TimelineSnapshot(version: 1, tweets: table, timelines: [.home: home, .mentions: mentions])
    }()

}
