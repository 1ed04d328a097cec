import LinnetTestSupport
import Screen
import Testing

/// The inline expected-rows check says nothing when the rows match and names each row that
/// does not.
@Suite struct ExpectedLinesTests {
    @Test func matchingRowsPassAndOthersAreNamed() {
        var s = Screen(width: 12, height: 3)
        _ = s.put("漢字 ok", x: 1, y: 0, style: Style())
        _ = s.put("second", x: 0, y: 1, style: Style())
        #expect(s.mismatch(from: 0, [" 漢字 ok", "second", ""]) == nil)
        let wrong = s.mismatch(from: 0, [" 漢字 ok", "secund"])
        #expect(wrong?.hasPrefix("row 1:\n  want |secund|\n  got  |second|") == true, "\(wrong ?? "")")
        #expect(s.mismatch(from: 2, ["", "beyond"])?.contains("(no row)") == true)
    }
}
