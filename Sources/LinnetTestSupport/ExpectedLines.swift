import Screen

/// Pane tests that say the rows they expect, inline (ratatui's `Buffer::with_lines` habit):
/// each row exactly, trailing blanks trimmed, with the rows that differ named.
extension Screen {
    /// Rows `y` on, as many as `count`, each without trailing blanks.
    public func rows(from y: Int, count: Int) -> [String] {
        (y..<min(height, y + count)).map { row in
            var l = line(row)
            while l.last == " " { l.removeLast() }
            return l
        }
    }

    /// Nil when the rows from `y` are `expected`; otherwise each row that differs, wanted and shown.
    public func mismatch(from y: Int, _ expected: [String]) -> String? {
        let shown = rows(from: y, count: expected.count)
        var out: [String] = []
        for (i, want) in expected.enumerated() {
            let got = i < shown.count ? shown[i] : "(no row)"
            if got != want { out.append("row \(y + i):\n  want |\(want)|\n  got  |\(got)|") }
        }
        return out.isEmpty ? nil : out.joined(separator: "\n") + "\nscreen:\n" + text
    }
}
