import Foundation
import LinnetTestSupport
import Testing

@testable import TwitterAPI

/// A tweet's fields are found by their key's length first: every field by its name, no key that
/// is not one (those of the recorded stream's tweets), and no name changed by a byte.
@Suite struct TweetFieldTests {
    func field(_ name: some StringProtocol) -> TweetBuilder.Field? {
        Array(name.utf8).withUnsafeBufferPointer { TweetBuilder.Field(JSONKey(bytes: $0)) }
    }

    @Test func everyFieldIsFoundByItsNameAndNothingElse() throws {
        var names: [String: TweetBuilder.Field] = [:]
        for f in TweetBuilder.Field.allCases {
            let name = f.name.description
            names[name] = f
            #expect(field(name) == f, "\(name)")
            // The same length with a byte changed at each place, and one byte more or less.
            for at in name.indices {
                var changed = name
                changed.replaceSubrange(at...at, with: name[at] == "x" ? "y" : "x")
                #expect(field(changed) == nil, "\(changed)")
            }
            #expect(field(name.dropLast()) == nil && field(name + "s") == nil, "\(name)")
        }
        #expect(names.count == TweetBuilder.Field.allCases.count, "each field has its own name")
        // Every key of the recorded stream's tweets, nested ones too.
        let lines = try Fixtures.data("api/streaming/lines.json").split(separator: UInt8(ascii: "\n"))
        var seen = Set<String>()
        func keys(_ object: Any?) {
            guard let tweet = object as? [String: Any] else { return }
            for (key, value) in tweet {
                seen.insert(key)
                if key == "retweeted_status" || key == "quoted_status" { keys(value) }
            }
        }
        for line in lines { keys(try JSONSerialization.jsonObject(with: Data(line))) }
        #expect(seen.count > 30)
        for key in seen { #expect(field(key) == names[key], "\(key)") }
    }
}
