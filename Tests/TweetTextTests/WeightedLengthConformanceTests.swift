import LinnetTestSupport
import Testing

@testable import TweetText

/// Every weighted-length case of validate.yml, with the configuration the suite names.
@Suite struct WeightedLengthConformanceTests {
    static let v2Cases = ConformanceCase.load("validate.yml", "WeightedTweetsCounterTest")
    static let v3Cases = ConformanceCase.load("validate.yml", "WeightedTweetsWithDiscountedEmojiCounterTest")
    static let directionalCases = ConformanceCase.load("validate.yml", "UnicodeDirectionalMarkerCounterTest")

    @Test(arguments: v2Cases) func weightedV2(_ c: ConformanceCase) {
        check(c, .v2)
    }

    @Test(arguments: v3Cases) func weightedV3(_ c: ConformanceCase) {
        check(c, .v3)
    }

    @Test(arguments: directionalCases) func directionalMarkers(_ c: ConformanceCase) {
        check(c, .default)
    }

    @Test func suiteSizesMatchTheFixture() {
        #expect(Self.v2Cases.count == 20)
        #expect(Self.v3Cases.count == 22)
        #expect(Self.directionalCases.count == 2)
    }

    private func check(_ c: ConformanceCase, _ config: TweetLengthConfiguration) {
        if let e = c.loadError {
            Issue.record("fixture: \(e)")
            return
        }
        let r = TweetLength(c.text, configuration: config)
        let got: [String: String] = [
            "weightedLength": "\(r.weightedLength)", "valid": "\(r.isValid)",
            "permillage": "\(r.permillage)", "displayRangeStart": "\(r.displayRange.lowerBound)",
            "displayRangeEnd": "\(r.displayRange.upperBound)",
            "validRangeStart": "\(r.validRange.lowerBound)", "validRangeEnd": "\(r.validRange.upperBound)",
        ]
        #expect(c.expectedFields.count == 7)
        for (key, want) in c.expectedFields {
            #expect(got[key] == want, "\(c.description): \(key)")
        }
    }
}
