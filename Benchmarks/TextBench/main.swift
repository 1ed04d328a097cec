// The tweet-length counter on input built to be slow: thousands of flags, combining marks,
// keycaps, and a URL of thousands of labels. Each shape is measured at n and 2n; a linear
// counter takes about twice as long at 2n (a quadratic one four times). Plain ASCII of the same
// length is the baseline. Prints `bench: <name> <value> <unit>` lines.
import Foundation
import TweetText

func seconds(_ body: () -> Void) -> Double {
    var best = Double.infinity
    for _ in 0..<3 {
        let t = DispatchTime.now().uptimeNanoseconds
        body()
        best = min(best, Double(DispatchTime.now().uptimeNanoseconds - t) / 1e9)
    }
    return best
}

let shapes: [(name: String, make: (Int) -> String)] = [
    ("flags", { String(repeating: "🇯🇵", count: $0) }),
    ("combining_marks", { "a" + String(repeating: "\u{301}", count: $0) }),
    ("keycaps", { String(repeating: "1\u{FE0F}\u{20E3}", count: $0) }),
    ("url_labels", { "http://" + String(repeating: "a.", count: $0) + "com" }),
]
let n = 10_000
for shape in shapes {
    let small = shape.make(n)
    let large = shape.make(2 * n)
    let ascii = String(repeating: "a", count: small.unicodeScalars.count)
    let tSmall = seconds { _ = TweetLength(small) }
    let tLarge = seconds { _ = TweetLength(large) }
    let tASCII = seconds { _ = TweetLength(ascii) }
    print("\(shape.name): \(n) units, \(small.unicodeScalars.count) scalars: \(String(format: "%.2f", tSmall * 1000)) ms")
    print("bench: length_\(shape.name)_ms \(String(format: "%.2f", tSmall * 1000)) ms")
    print("bench: length_\(shape.name)_doubling_ratio \(String(format: "%.2f", tLarge / tSmall)) x")
    print("bench: length_\(shape.name)_vs_ascii_ratio \(String(format: "%.1f", tSmall / tASCII)) x")
}
