import Foundation
import LinnetCore
import TweetText
import TwitterAPI

/// The harnesses for what arrives from outside the terminal: the sign-in listener, v2 answers,
/// addresses and secret commands' output.
extension Harness {
    /// The sign-in listener's request reader and query reader, the redirect's decision, and a
    /// pasted-back address (headless sign-in): none traps, and only our state ends a wait.
    static func listener(_ data: [UInt8]) {
        switch CallbackRequest.parse(data) {
        case .target(let t):
            precondition(t.hasPrefix("/") && !t.unicodeScalars.contains { $0.value < 0x21 || $0.value >= 0x7F }, "a target with controls")
            if let params = CallbackRequest.callbackQuery(t) {
                let decision = CallbackListener.decide(params, state: "our-state")
                if params["state"] != "our-state" { precondition(decision == .ignore, "another state ended the wait") }
                if case .fail(let e) = decision {
                    precondition(!e.description.unicodeScalars.contains { forbidden($0.value) && $0 != "\t" }, "an unsanitised error")
                }
            }
        case .incomplete: precondition(!data.contains(10) && data.count <= CallbackListener.headLimit, "a whole line left unread")
        case .bad: break
        }
        let text = String(decoding: data, as: UTF8.self)
        do {
            _ = try OAuth2Flow.code(fromPasted: text, state: "our-state")
        } catch let e as AuthFlowError {
            precondition(!e.description.unicodeScalars.contains { forbidden($0.value) && $0 != "\t" }, "an unsanitised error")
        } catch {}
    }

    /// A v2 answer built from the bytes: posts whose ids, references (retweets, quotes, replies,
    /// cycles among them and to themselves), media keys and entity ranges the input chooses,
    /// spread over `data` and `includes`. The join ends, and keeps only ranges inside the text.
    static func v2join(_ data: [UInt8]) {
        var i = 0
        func next() -> UInt8 {
            defer { i += 1 }
            return i < data.count ? data[i] : 0
        }
        let count = Int(next() % 12) + 1
        var posts: [String] = []
        for _ in 0..<count {
            let id = Int(next() % 16) + 1
            var fields = ["\"id\":\"\(id)\"", "\"author_id\":\"\(next() % 4)\""]
            let textLength = Int(next() % 40)
            fields.append("\"text\":\"" + String(repeating: "é", count: textLength) + "\"")
            let refs = (0..<Int(next() % 4)).map { _ in
                let kind = ["retweeted", "quoted", "replied_to", "reposted"][Int(next() % 4)]
                return "{\"type\":\"\(kind)\",\"id\":\"\(Int(next() % 16) + 1)\"}"
            }
            if !refs.isEmpty { fields.append("\"referenced_tweets\":[" + refs.joined(separator: ",") + "]") }
            let start = Int(next()) - 8
            let end = start + Int(next() % 64)
            fields.append(
                "\"entities\":{\"urls\":[{\"start\":\(start),\"end\":\(end),\"url\":\"https://t.co/a\",\"expanded_url\":\"https://e.com\",\"media_key\":\"3_\(next() % 3)\"}],\"mentions\":[{\"start\":\(end),\"end\":\(end + Int(next() % 9)),\"username\":\"u\"}]}"
            )
            if next() % 2 == 0 { fields.append("\"attachments\":{\"media_keys\":[\"3_\(next() % 3)\",\"3_\(next() % 3)\"]}") }
            if next() % 3 == 0 { fields.append("\"note_tweet\":{\"text\":\"" + String(repeating: "ü", count: Int(next())) + "\"}") }
            posts.append("{" + fields.joined(separator: ",") + "}")
        }
        let split = Int(next()) % (posts.count + 1)
        let users = (0..<4).map { "{\"id\":\"\($0)\",\"name\":\"N\",\"username\":\"u\($0)\"}" }.joined(separator: ",")
        let media = (0..<3).map { "{\"media_key\":\"3_\($0)\",\"type\":\"photo\",\"url\":\"https://p/\($0).jpg\"}" }.joined(separator: ",")
        let json =
            "{\"data\":[" + posts[..<split].joined(separator: ",") + "],\"includes\":{\"users\":[" + users + "],\"media\":[" + media
            + "],\"tweets\":[" + posts[split...].joined(separator: ",") + "]}}"
        guard let page = try? V2Decoder().posts(from: Data(json.utf8)) else { return }
        func check(_ t: Tweet, depth: Int) {
            precondition(depth <= 4, "a join deeper than its bound")
            let n = t.text.unicodeScalars.count
            for r in t.entities.urls.map(\.range) + t.entities.mentions.map(\.range) + t.entities.media.map(\.range) {
                precondition(r.lowerBound >= 0 && r.upperBound <= n, "an entity at \(r) in \(n) code points")
            }
            if let q = t.quotedStatus { check(q, depth: depth + 1) }
            if let r = t.retweetedStatus { check(r, depth: depth + 1) }
        }
        for t in page.tweets { check(t, depth: 0) }
    }

    /// The address checker: whatever it is given, what it lets through is an http(s) address
    /// with a host and no control character, space or user name, no longer than its bound, and
    /// checking it again changes nothing.
    static func address(_ data: [UInt8]) {
        // The first byte picks what stands before the rest: nothing, a scheme, or a host.
        let s = String(decoding: data.dropFirst(), as: UTF8.self)
        let prefix = ["", "https://", "http://example.com/"][Int(data.first ?? 0) % 3]
        for candidate in [prefix + s] {
            guard case .success(let out) = WebAddress.check(candidate) else { continue }
            precondition(out.hasPrefix("https://") || out.hasPrefix("http://"), "not a web address: \(out)")
            precondition(out.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F && $0 != 0x22 && $0 != 0x5C }, "a byte that must be encoded")
            precondition(out.utf8.count <= WebAddress.maxLength, "longer than the bound")
            let authority = out.split(separator: "/", omittingEmptySubsequences: false)[2].prefix { $0 != "?" && $0 != "#" }
            precondition(!authority.isEmpty && !authority.contains("@"), "no host, or a user name")
            precondition(WebAddress.check(out) == .success(out), "checking again changed \(out)")
        }
    }

    /// What a secret command printed, as Linnet reads it: one line, no line end, never empty.
    static func secret(_ data: [UInt8]) {
        guard let line = AccountStore.secretLine(Data(data)) else { return }
        precondition(!line.isEmpty && !line.utf8.contains(0x0A) && line.utf8.last != 0x0D, "a secret with a line end")
        // Bytes that are not UTF-8 become U+FFFD (3 bytes each).
        precondition(line.utf8.count <= 3 * data.count, "a secret longer than what was printed")
    }
}
