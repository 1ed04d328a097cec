import Foundation
import Testing
import TwitterSimulator

@testable import TwitterAPI

@Suite struct JSONNumberTests {
    /// A count or an index (`optionalInt`, `lenientInt`): short numbers are read in place, the
    /// rest the general way, and both give what the number says: its value when it is an
    /// integer that fits, nil for a fraction, an exponent or a value past `Int64`, with the
    /// reader past the number either way. Seeded numbers of every form and length.
    @Test func countsAreTheirNumberWhateverTheirForm() throws {
        var random = SimRandom(state: 34)
        let ends = ["", ",", "]", "}", " ", "x"]
        for _ in 0..<4_000 {
            var text = Bool.random(using: &random) && Int.random(in: 0..<4, using: &random) == 0 ? "-" : ""
            let length = Int.random(in: 1...22, using: &random)
            text += String((0..<length).map { _ in Character(String(Int.random(in: 0...9, using: &random))) })
            let integer = text
            switch Int.random(in: 0..<6, using: &random) {
            case 0: text += "." + String(Int.random(in: 0...999, using: &random))
            case 1: text += ["e", "E"].randomElement(using: &random)! + ["", "+", "-"].randomElement(using: &random)! + "2"
            default: break
            }
            let end = ends.randomElement(using: &random)!
            let expected = text == integer ? Int64(integer).map(Int.init) : nil
            for lenient in [false, true] {
                // Whitespace before the number is passed, as before any value.
                let lead = [" ", "\n ", ""].randomElement(using: &random)!
                let (value, offset) = try Data((lead + text + end).utf8).withUnsafeBytes { raw in
                    var r = JSONReader(raw)
                    let v = lenient ? try r.lenientInt() : try r.optionalInt()
                    return (v, r.offset)
                }
                #expect(value == expected, "\(text)\(end)")
                #expect(offset == lead.utf8.count + text.utf8.count, "\(text)\(end)")
            }
        }
    }

    /// A count cut short by the end of the input is its digits; a lone sign is no count.
    @Test func aCountAtTheEndOfTheInput() throws {
        func read(_ json: String) throws -> Int? {
            try Data(json.utf8).withUnsafeBytes { raw in
                var r = JSONReader(raw)
                return try r.optionalInt()
            }
        }
        #expect(try read("7") == 7)
        #expect(try read("123456789") == 123_456_789)
        #expect(try read("1234567890") == 1_234_567_890)
        #expect(try read("-") == nil)
    }
}
