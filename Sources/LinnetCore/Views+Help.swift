import Screen

/// The help overlay, generated from the key map.
extension Views {
    /// The help's rows: section headings (empty help text) and keys with what they do.
    static func helpRows(_ c: Context) -> [(String, String)] {
        var rows: [(String, String)] = []
        var seen = Set<String>()
        let panes = Set<Command>([.pane2, .pane3, .pane4, .pane5, .pane6, .pane7, .pane8, .pane9] + Command.farPanes.dropFirst())
        // A command with the same keys in both modes (ctrl-l, ctrl-z) is listed once, in a
        // section of its own.
        let both = Set(
            c.keyMap.bindings.filter { $0.mode == .compose }.map(\.command).filter {
                !c.keyMap.keys(for: $0, in: .compose).isEmpty
                    && c.keyMap.keys(for: $0, in: .compose) == c.keyMap.keys(for: $0, in: .timeline)
            })
        for mode in [KeyMode.timeline, .compose] {
            rows.append((Words.helpSection(mode), ""))
            for b in c.keyMap.bindings where b.mode == mode && !panes.contains(b.command) && !both.contains(b.command) {
                guard seen.insert("\(mode)\(b.command)").inserted else { continue }
                if b.command == .pane1 {
                    rows.append(Words.paneKeys)
                } else if b.command == .pane10 {
                    rows.append(Words.farPaneKeys)
                } else {
                    rows.append((c.keyMap.keys(for: b.command, in: mode).joined(separator: ", "), b.help))
                }
            }
        }
        if !both.isEmpty {
            rows.append((Words.helpEverywhere, ""))
            for b in c.keyMap.bindings where b.mode == .timeline && both.contains(b.command) {
                guard seen.insert("both\(b.command)").inserted else { continue }
                rows.append((c.keyMap.keys(for: b.command, in: .timeline).joined(separator: ", "), b.help))
            }
        }
        return rows
    }

    /// How the help is laid out at this size: as many columns as fit whole (each wide enough
    /// for its keys and most of what they do), and, when the rows still do not fit, a window
    /// onto them that the reading keys scroll. `first` is the first row shown.
    struct HelpLayout {
        var rows: [(String, String)]
        var keyWidth: Int
        var helpWidth: Int
        var columns: Int
        var perColumn: Int
        var box: Rect
        /// Rows past what fits: the most the help scrolls.
        var maxScroll: Int
    }

    static func helpLayout(_ s: AppState, _ c: Context) -> HelpLayout {
        var rows = helpRows(c)
        let keyWidth = min(20, rows.map { Screen.width(of: $0.0) }.max() ?? 10)
        let longestHelp = rows.map { Screen.width(of: $0.1) }.max() ?? 20
        let h = min(s.height - 2, rows.count + 2)
        let perColumn = max(1, h - 2)
        // A heading never ends a column: it moves to the top of the next, with its keys.
        var placed: [(String, String)] = []
        for row in rows {
            if row.1.isEmpty, placed.count % perColumn == perColumn - 1 { placed.append(("", " ")) }
            placed.append(row)
        }
        rows = placed
        let needed = (rows.count + perColumn - 1) / perColumn
        // Columns share the screen: no more than leave each its keys and the longest help text.
        let fit = max(1, (s.width - 4) / (keyWidth + 3 + longestHelp))
        let columns = max(1, min(needed, fit))
        let room = (s.width - 4) / columns
        let helpWidth = max(8, min(longestHelp, room - keyWidth - 3))
        let colWidth = keyWidth + helpWidth + 3
        let w = min(s.width - 2, columns * colWidth + 2)
        let box = Rect(x: (s.width - w) / 2, y: max(1, (s.height - h) / 2), width: w, height: h)
        let maxScroll = max(0, rows.count - columns * perColumn)
        return HelpLayout(
            rows: rows, keyWidth: keyWidth, helpWidth: helpWidth, columns: columns, perColumn: perColumn, box: box, maxScroll: maxScroll)
    }

    static func help(_ screen: inout Screen, _ s: AppState, _ c: Context, _ t: Theme) {
        let l = helpLayout(s, c)
        let (keyWidth, helpWidth, perColumn, box, h) = (l.keyWidth, l.helpWidth, l.perColumn, l.box, l.box.height)
        let colWidth = keyWidth + helpWidth + 3
        // Drawn over a cleared background: nothing of the pane shows through the box.
        screen.fill(Rect(x: box.x - 1, y: box.y, width: box.width + 2, height: box.height), style: t[.help])
        let close = c.keyMap.keys(for: .cancel, in: .help).prefix(2)
        let scroll = l.maxScroll > 0 ? [c.keyMap.hint(.down, in: .help), c.keyMap.hint(.up, in: .help)].compactMap { $0 } : []
        let title = Words.helpTitle(closeKeys: Array(close), scrollKeys: scroll)
        screen.put(TextLayout.truncate(title, width: box.width - 2), x: box.x + 2, y: box.y, style: t[.helpKey])
        let first = min(max(0, s.helpTop), l.maxScroll)
        let rows = Array(l.rows.dropFirst(first).prefix(l.columns * perColumn))
        for (i, row) in rows.enumerated() {
            let x = box.x + 1 + (i / perColumn) * colWidth
            let y = box.y + 1 + i % perColumn
            let clip = Rect(x: x, y: box.y, width: min(colWidth - 1, box.maxX - x - 1), height: h)
            if row.1.isEmpty {
                screen.put(row.0, x: x, y: y, style: t[.helpKey].union(.underline), clip: clip)
            } else {
                screen.put(TextLayout.truncate(row.0, width: keyWidth), x: x, y: y, style: t[.helpKey], clip: clip)
                screen.put(TextLayout.truncate(row.1, width: helpWidth), x: x + keyWidth + 1, y: y, style: t[.help], clip: clip)
            }
        }
    }
}
