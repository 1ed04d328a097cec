import Screen

/// The text being composed and the caret, with the editing keys of a shell line editor.
public struct Editor: Equatable, Sendable {
    public private(set) var characters: [Character]
    /// Caret position: the index of the character it stands before.
    public private(set) var caret: Int

    public init(_ text: String = "", caret: Int? = nil) {
        characters = Array(text)
        self.caret = min(max(0, caret ?? characters.count), characters.count)
    }

    public var text: String { String(characters) }
    public var isEmpty: Bool { characters.allSatisfy { $0.isWhitespace } }

    /// Inserts at the caret; a combining mark typed after a letter joins it (one grapheme).
    public mutating func insert(_ s: String) {
        let head = String(characters[..<caret]) + s
        let all = head + String(characters[caret...])
        caret = head.count
        characters = Array(all)
        caret = min(caret, characters.count)
    }

    public mutating func deleteBackward() {
        guard caret > 0 else { return }
        characters.remove(at: caret - 1)
        caret -= 1
    }

    public mutating func deleteForward() {
        guard caret < characters.count else { return }
        characters.remove(at: caret)
    }

    public mutating func left() { caret = max(0, caret - 1) }
    public mutating func right() { caret = min(characters.count, caret + 1) }
    public mutating func textStart() { caret = 0 }
    public mutating func textEnd() { caret = characters.count }

    private var lineStart: Int {
        var i = caret
        while i > 0 && characters[i - 1] != "\n" { i -= 1 }
        return i
    }

    private var lineEnd: Int {
        var i = caret
        while i < characters.count && characters[i] != "\n" { i += 1 }
        return i
    }

    public mutating func home() { caret = lineStart }
    public mutating func end() { caret = lineEnd }

    /// Ctrl-U: deletes from the start of the line to the caret.
    public mutating func killToLineStart() {
        let s = lineStart
        characters.removeSubrange(s..<caret)
        caret = s
    }

    /// Ctrl-K: deletes from the caret to the end of the line.
    public mutating func killToLineEnd() { characters.removeSubrange(caret..<lineEnd) }

    /// Ctrl-W: deletes the word before the caret and the spaces after it.
    public mutating func deleteWord() {
        var i = caret
        while i > 0 && characters[i - 1].isWhitespace && characters[i - 1] != "\n" { i -= 1 }
        while i > 0 && !characters[i - 1].isWhitespace { i -= 1 }
        if i == caret && i > 0 { i -= 1 }
        characters.removeSubrange(i..<caret)
        caret = i
    }

    /// Moves to the same column on the line above or below (by characters).
    public mutating func vertical(_ delta: Int) {
        let start = lineStart
        let column = caret - start
        if delta < 0 {
            guard start > 0 else {
                caret = 0
                return
            }
            let prevEnd = start - 1
            var prevStart = prevEnd
            while prevStart > 0 && characters[prevStart - 1] != "\n" { prevStart -= 1 }
            caret = min(prevStart + column, prevEnd)
        } else {
            let end = lineEnd
            guard end < characters.count else {
                caret = characters.count
                return
            }
            var nextEnd = end + 1
            while nextEnd < characters.count && characters[nextEnd] != "\n" { nextEnd += 1 }
            caret = min(end + 1 + column, nextEnd)
        }
    }

    /// Lays the text out in rows of at most `width` columns (by display width, breaking inside
    /// words when needed) and says where the caret is: (row, column).
    public func layout(width: Int) -> (rows: [[Int]], caret: (row: Int, col: Int)) {
        var rows: [[Int]] = [[]]
        var used = 0
        var caretPos = (row: 0, col: 0)
        for (i, ch) in characters.enumerated() {
            if i == caret { caretPos = (rows.count - 1, used) }
            if ch == "\n" {
                rows.append([])
                used = 0
                continue
            }
            let w = max(1, Screen.width(of: ch))
            if used + w > width && !rows[rows.count - 1].isEmpty {
                rows.append([])
                used = 0
                if i == caret { caretPos = (rows.count - 1, 0) }
            }
            rows[rows.count - 1].append(i)
            used += w
        }
        if caret == characters.count {
            if used >= width {
                rows.append([])
                used = 0
            }
            caretPos = (rows.count - 1, used)
        }
        return (rows, caretPos)
    }
}
