import Testing

@testable import TweetText

@Suite struct ScalarSlicerTests {
    /// Every range of a text in several scripts, cut through a ZWJ sequence and a flag, agrees
    /// with an array of the text's scalars, asked in order and out of it.
    @Test func slicesAgreeWithTheScalars() {
        let text = "a 👩‍👩‍👧 🇫🇷 مرحبا 日本語\ne\u{301}!"
        let scalars = Array(text.unicodeScalars)
        func expected(_ r: Range<Int>) -> String {
            var s = String.UnicodeScalarView()
            s.append(contentsOf: scalars[min(r.lowerBound, scalars.count)..<min(r.upperBound, scalars.count)])
            return String(s)
        }
        var forward = ScalarSlicer(text)
        for lower in 0...scalars.count + 2 {
            for upper in lower...scalars.count + 2 {
                var fresh = ScalarSlicer(text)
                #expect(String(fresh.slice(lower..<upper)) == expected(lower..<upper))
            }
            #expect(String(forward.slice(lower..<lower + 3)) == expected(lower..<lower + 3))
        }
        var backward = ScalarSlicer(text)
        for lower in stride(from: scalars.count, through: 0, by: -1) {
            #expect(String(backward.slice(lower..<lower + 2)) == expected(lower..<lower + 2))
        }
    }

    @Test func theEndIsTheLastIndex() {
        var s = ScalarSlicer("héllo")
        #expect(s.index(at: 99) == "héllo".endIndex)
        #expect(String(s.slice(4..<Int.max)) == "o")
        #expect(s.slice(7..<9).isEmpty)
    }
}
