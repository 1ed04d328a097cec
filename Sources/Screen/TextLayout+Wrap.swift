import TweetText

extension TextLayout {
    /// A grapheme on the line being filled: where its text is (its span and UTF-8 range), its
    /// columns, and its byte when it is one ASCII byte (0xFF otherwise).
    private struct Placed {
        var span: Int
        var start: String.Index
        var end: String.Index
        var width: Int
        var ascii: UInt8
    }

    /// `wrap` and `lineCount`. A grapheme of one ASCII byte (the next byte ASCII too, so no
    /// mark joins it; CR apart, which LF joins) is read as that byte; only the others are made
    /// `Character`s. A line's spans are slices of the text, not built grapheme by grapheme
    /// (that was most of laying out a card).
    static func layOut(_ spans: [Span], width: Int, limit: Int, into lines: inout [StyledLine], build: Bool) -> Int {
        guard width > 0, limit > 0 else { return 0 }
        var count = 0
        var current: [Placed] = []
        var used = 0
        var breakAfter: Int?  // index in `current` after which a break may go
        var wrapped = false  // the current line began at a wrap, not a newline
        let mode = DisplayWidth.mode
        func newLine(wrapping: Bool) {
            current = []
            used = 0
            breakAfter = nil
            wrapped = wrapping
        }

        func emit(_ items: ArraySlice<Placed>) {
            count += 1
            guard build else { return }
            var out: [Span] = []
            var glyphs = Glyphs()
            var k = items.startIndex
            while k < items.endIndex {
                // Graphemes of one span, each where the last ended: one slice of its text.
                var last = k
                while last + 1 < items.endIndex, items[last + 1].span == items[k].span, items[last + 1].start == items[last].end {
                    last += 1
                }
                let span = spans[items[k].span]
                let piece = span.text[items[k].start..<items[last].end]
                if let prev = out.last, prev.style == span.style {
                    out[out.count - 1].text += piece
                } else {
                    out.append(Span(String(piece), span.style))
                }
                for item in items[k...last] {
                    if item.ascii != 0xFF {
                        glyphs.append(ascii: item.ascii, span: out.count - 1)
                    } else {
                        glyphs.append(span.text[item.start..<item.end], width: item.width, span: out.count - 1)
                    }
                }
                k = last + 1
            }
            lines.append(StyledLine(out, glyphs: glyphs))
        }

        for (s, span) in spans.enumerated() {
            let text = span.text
            let utf8 = text.utf8
            var i = utf8.startIndex
            while i < utf8.endIndex {
                if count >= limit { return count }
                let b = utf8[i]
                var next = utf8.index(after: i)
                let ascii: UInt8
                let w: Int
                if b < 0x80, b != 0x0D, next == utf8.endIndex || utf8[next] < 0x80 {
                    ascii = b
                    w = b < 0x20 || b == 0x7F ? 0 : 1
                } else {
                    // `asciiByte` is 10 for "\r\n" too.
                    let ch = text[i]
                    next = text.index(after: i)
                    ascii = ch.asciiByte ?? 0xFF
                    w = Screen.width(of: ch, mode: mode)
                }
                defer { i = next }
                if ascii == 0x0A {
                    emit(current[...])
                    newLine(wrapping: false)
                    continue
                }
                if w == 0 { continue }
                if used + w > width {
                    if ascii == 0x20 {
                        // A space at the edge is the break itself.
                        emit(current[...])
                        newLine(wrapping: true)
                        continue
                    }
                    if let b = breakAfter {
                        var head = current[...b]
                        while head.last?.ascii == 0x20 { head = head.dropLast() }
                        emit(head)
                        current = Array(current[(b + 1)...])
                    } else {
                        emit(current[...])
                        current = []
                    }
                    used = current.reduce(0) { $0 + $1.width }
                    breakAfter = nil
                    wrapped = true
                }
                if current.isEmpty && ascii == 0x20 && wrapped { continue }
                current.append(Placed(span: s, start: i, end: next, width: w, ascii: ascii))
                used += w
                if ascii == 0x20 || ((ascii == 0x2D || ascii == 0x2F) && current.count > 1) { breakAfter = current.count - 1 }
            }
        }
        if count < limit && (!current.isEmpty || count == 0) { emit(current[...]) }
        return count
    }
}
