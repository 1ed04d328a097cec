#if canImport(Glibc)
    import Glibc
#endif

/// How readable one colour is on another, as WCAG 2 measures it: relative luminance of sRGB
/// and the ratio (L1 + 0.05) / (L2 + 0.05), from 1 (none) to 21 (black on white). Text needs
/// 4.5:1 (AA); large or secondary text and marks 3:1.
public enum Contrast {
    public static func luminance(_ c: (Int, Int, Int)) -> Double {
        func channel(_ v: Int) -> Double {
            let s = Double(v) / 255
            return s <= 0.04045 ? s / 12.92 : pow((s + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * channel(c.0) + 0.7152 * channel(c.1) + 0.0722 * channel(c.2)
    }

    public static func ratio(_ a: (Int, Int, Int), _ b: (Int, Int, Int)) -> Double {
        let (x, y) = (luminance(a), luminance(b))
        return (max(x, y) + 0.05) / (min(x, y) + 0.05)
    }

    /// Whether a background is light: nearer white than black by contrast.
    public static func isLight(_ c: (Int, Int, Int)) -> Bool { ratio(c, (0, 0, 0)) > ratio(c, (255, 255, 255)) }
}

extension Color {
    /// The RGB a terminal shows for this colour at `depth` (xterm's palette for indexed ones);
    /// nil for the terminal's default.
    public func shown(at depth: ColorDepth) -> (Int, Int, Int)? {
        guard let n = index(at: depth) else { return nil }
        return Self.xterm(n)
    }

    public var rgb: (Int, Int, Int)? {
        switch self {
        case .default: return nil
        case .indexed(let n): return Self.xterm(Int(n))
        case .rgb(let r, let g, let b): return (Int(r), Int(g), Int(b))
        }
    }
}

extension Theme {
    /// Roles that are secondary text or marks, held to 3:1 rather than 4.5:1.
    public static let secondaryRoles: Set<Role> = [.dim, .time, .counts, .border]

    /// Roles drawn inside a card, so also on the selected card's background.
    public static let cardRoles: Set<Role> = [
        .text, .dim, .name, .handle, .time, .mention, .hashtag, .url, .counts, .retweetMarker, .replyMarker, .quote, .newMarker,
    ]

    /// One role's contrast: its text colour on its background, as the terminal shows them at a
    /// depth, the theme's `foreground` and `background` standing in for the terminal's defaults.
    public struct RoleContrast: Sendable {
        public var role: Role
        /// "own" for the role's own background, "selected" for a card's role on the selection.
        public var on: String
        public var ratio: Double
        public var needed: Double
    }

    /// Every role's contrast at `depth` (`.full` is the 256-colour palette Linnet draws with).
    public func contrasts(at depth: ColorDepth) -> [RoleContrast] {
        guard let bgDefault = background.rgb, let fgDefault = foreground.rgb else { return [] }
        func shown(_ c: Color, _ fallback: (Int, Int, Int)) -> (Int, Int, Int) { c.shown(at: depth) ?? fallback }
        var out: [RoleContrast] = []
        let selection = self[.selection].bg
        for role in Role.allCases where role != .selection {
            let s = self[role]
            var fg = shown(s.fg, fgDefault)
            var bg = shown(s.bg, bgDefault)
            if s.attributes.contains(.reverse) { swap(&fg, &bg) }
            let needed = Self.secondaryRoles.contains(role) ? 3.0 : 4.5
            out.append(RoleContrast(role: role, on: "own", ratio: Contrast.ratio(fg, bg), needed: needed))
            if Self.cardRoles.contains(role), selection != .default, s.bg == .default {
                out.append(
                    RoleContrast(role: role, on: "selected", ratio: Contrast.ratio(fg, shown(selection, bgDefault)), needed: needed))
            }
        }
        return out
    }
}
