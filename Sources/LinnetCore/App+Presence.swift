import Screen
import Timeline

/// Whether anyone is reading: a key within `awayAfter` seconds and the terminal's focus (mode
/// 1004) mean present; the engine polls the pane on screen at its pace and the rest rarely.
extension App {
    public static let awayAfter = 300.0

    /// Notes keys and focus reports (which are not keys to act on), and tells the engine
    /// when presence or the pane on screen changed.
    func notePresence(_ keys: [Key]) -> [Key] {
        let now = settings.clock.now()
        var rest: [Key] = []
        for k in keys {
            if case .focus(let on) = k {
                focused = on
                if on { rest.append(.resize) }  // the screen may have been written over
            } else {
                rest.append(k)
            }
        }
        // A key is typed into a focused terminal, whatever reports were lost on the way.
        if !rest.isEmpty {
            lastKeyAt = now
            focused = true
        } else if keys.contains(.focus(true)) {
            lastKeyAt = now
        }
        let away = !focused || now - (lastKeyAt ?? now) > Self.awayAfter
        if lastKeyAt == nil { lastKeyAt = now }
        let showing = state.pane.id
        if toldPresence?.away != away || toldPresence?.showing != showing {
            toldPresence = (away, showing)
            let engine = self.engine
            effects.add { Task { await engine.setPresence(away: away, showing: showing) } }
        }
        return rest
    }
}
