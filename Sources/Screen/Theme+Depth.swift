extension Theme {
    /// The theme as a terminal of few colours shows it: each role's colours replaced by the
    /// palette entry nearest them that still reads on its background (4.5:1, 3:1 for secondary
    /// roles, on the selected card's background too), where the plain nearest one would not.
    /// Nearest alone maps a light theme's grey to cyan on xterm's 8 colours: 2:1 on white.
    public func adapted(to depth: ColorDepth) -> Theme {
        guard depth == .eight || depth == .sixteen, let bgDefault = background.rgb, let fgDefault = foreground.rgb else { return self }
        var out = self
        let count = depth.rawValue
        func shown(_ c: Color, _ fallback: (Int, Int, Int)) -> (Int, Int, Int) { c.shown(at: depth) ?? fallback }
        let selection = self[.selection].bg
        for (role, style) in styles where role != .selection {
            guard let wanted = style.fg.rgb, !style.attributes.contains(.reverse) else { continue }
            var backs = [shown(style.bg, bgDefault)]
            if Self.cardRoles.contains(role), selection != .default, style.bg == .default { backs.append(shown(selection, bgDefault)) }
            let needed = Self.secondaryRoles.contains(role) ? 3.0 : 4.5
            func reads(_ c: (Int, Int, Int)) -> Bool { backs.allSatisfy { Contrast.ratio(c, $0) >= needed } }
            if reads(shown(style.fg, fgDefault)) { continue }
            let fits = (0..<count).filter { reads(Color.xterm($0)) }
            guard let best = fits.min(by: { Self.unlike(wanted, Color.xterm($0)) < Self.unlike(wanted, Color.xterm($1)) }) else {
                continue
            }
            var s = style
            s.fg = .indexed(UInt8(best))
            out.styles[role] = s
        }
        return out
    }

    /// How unlike two colours look: their distance, and a grey kept grey rather than made a hue
    /// (a dim grey becomes black, not magenta).
    static func unlike(_ a: (Int, Int, Int), _ b: (Int, Int, Int)) -> Int {
        func saturation(_ c: (Int, Int, Int)) -> Int { max(c.0, c.1, c.2) - min(c.0, c.1, c.2) }
        let s = saturation(a) - saturation(b)
        return Color.distance(a, b) + 6 * s * s
    }
}
