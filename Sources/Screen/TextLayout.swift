/// A run of text in one style.
public struct Span: Equatable, Sendable {
    public var text: String
    public var style: Style
    public init(_ text: String, _ style: Style) {
        self.text = text
        self.style = style
    }
}

/// One laid-out line: its spans and the columns they take.
public struct StyledLine: Equatable, Sendable {
    public var spans: [Span]
    public var width: Int
    public init(_ spans: [Span] = [], width: Int? = nil) {
        self.spans = spans
        self.width = width ?? spans.reduce(0) { $0 + Screen.width(of: $1.text) }
    }
    public var text: String { spans.map(\.text).joined() }
}

extension Screen {
    /// Draws a laid-out line; returns the column after it.
    @discardableResult
    public mutating func put(_ line: StyledLine, x: Int, y: Int, clip: Rect? = nil, under base: Style = .plain) -> Int {
        var col = x
        for span in line.spans { col = put(span.text, x: col, y: y, style: span.style.over(base), clip: clip) }
        return col
    }
}

/// Wrapping and cutting by display width, never by character count.
public enum TextLayout {
    /// Wraps styled text to `width` columns: breaks after spaces where it can, inside a word
    /// only when the word is longer than a line; `\n` always breaks.
    public static func wrap(_ spans: [Span], width: Int) -> [StyledLine] {
        guard width > 0 else { return [] }
        var lines: [StyledLine] = []
        var current: [(Character, Int, Style)] = []
        var used = 0
        var breakAfter: Int?  // index in `current` after which a break may go
        var wrapped = false  // the current line began at a wrap, not a newline

        func emit(_ items: ArraySlice<(Character, Int, Style)>) {
            var spans: [Span] = []
            var w = 0
            for (ch, cw, st) in items {
                w += cw
                if let last = spans.last, last.style == st {
                    spans[spans.count - 1].text.append(ch)
                } else {
                    spans.append(Span(String(ch), st))
                }
            }
            lines.append(StyledLine(spans, width: w))
        }

        for span in spans {
            for ch in span.text {
                if ch == "\n" || ch == "\r\n" {
                    emit(current[...])
                    current = []
                    used = 0
                    breakAfter = nil
                    wrapped = false
                    continue
                }
                let w = Screen.width(of: ch)
                if w == 0 { continue }
                if used + w > width {
                    if ch == " " {
                        // A space at the edge is the break itself.
                        emit(current[...])
                        current = []
                        used = 0
                        breakAfter = nil
                        wrapped = true
                        continue
                    }
                    if let b = breakAfter {
                        var head = current[...b]
                        while head.last?.0 == " " { head = head.dropLast() }
                        emit(head)
                        current = Array(current[(b + 1)...])
                    } else {
                        emit(current[...])
                        current = []
                    }
                    used = current.reduce(0) { $0 + $1.1 }
                    breakAfter = nil
                    wrapped = true
                }
                if current.isEmpty && ch == " " && wrapped { continue }
                current.append((ch, w, span.style))
                used += w
                if ch == " " || ((ch == "-" || ch == "/") && current.count > 1) { breakAfter = current.count - 1 }
            }
        }
        if !current.isEmpty || lines.isEmpty { emit(current[...]) }
        return lines
    }

    /// Cuts text to `width` columns, ending with `…` when something was cut.
    public static func truncate(_ text: String, width: Int) -> String {
        guard width > 0 else { return "" }
        if Screen.width(of: text) <= width { return text }
        var out = ""
        var used = 0
        for ch in text {
            let w = Screen.width(of: ch)
            if used + w > width - 1 { break }
            out.append(ch)
            used += w
        }
        return out + "…"
    }

    /// Pads with spaces to `width` columns (cuts first if longer).
    public static func pad(_ text: String, width: Int) -> String {
        let t = truncate(text, width: width)
        return t + String(repeating: " ", count: max(0, width - Screen.width(of: t)))
    }
}
