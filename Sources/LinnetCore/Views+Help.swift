import Screen

/// The help overlay, generated from the key map.
extension Views {
    static func help(_ screen: inout Screen, _ s: AppState, _ c: Context, _ t: Theme) {
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
        let keyWidth = min(20, rows.map { Screen.width(of: $0.0) }.max() ?? 10)
        let h = min(s.height - 2, rows.count + 2)
        let perColumn = max(1, h - 2)
        // A heading never ends a column: it moves to the top of the next, with its keys.
        var placed: [(String, String)] = []
        for row in rows {
            if row.1.isEmpty, placed.count % perColumn == perColumn - 1 { placed.append(("", " ")) }
            placed.append(row)
        }
        rows = placed
        let columns = (rows.count + perColumn - 1) / perColumn
        // Columns share the screen: the help text gets what the keys leave.
        let room = (s.width - 4) / max(1, columns)
        let helpWidth = max(8, min(rows.map { Screen.width(of: $0.1) }.max() ?? 20, room - keyWidth - 3))
        let colWidth = keyWidth + helpWidth + 3
        let w = min(s.width - 2, columns * colWidth + 2)
        let box = Rect(x: (s.width - w) / 2, y: max(1, (s.height - h) / 2), width: w, height: h)
        // Drawn over a cleared background: nothing of the pane shows through the box.
        screen.fill(Rect(x: box.x - 1, y: box.y, width: box.width + 2, height: box.height), style: t[.help])
        let close = c.keyMap.keys(for: .cancel, in: .help).prefix(2)
        let title = Words.helpTitle(closeKeys: Array(close))
        screen.put(title, x: box.x + 2, y: box.y, style: t[.helpKey])
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
