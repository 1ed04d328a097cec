import CNcursesw
import Glibc

/// What the terminal's terminfo entry lets the frame writer use beyond the ANSI cursor moves
/// and SGR that Linnet writes everywhere.
public struct TerminalAbilities: Sendable, Equatable {
    /// Erasing fills with the current background (`bce`); without it only blanks of the
    /// default background are erased, others are written.
    public var backColorErase: Bool
    /// Writing the last column leaves the cursor there (`xenl`); without it the bottom-right
    /// cell would scroll the screen, and is left alone.
    public var lastColumnSafe: Bool
    /// Scroll regions (`csr`): rows a scroll moved are moved by the terminal.
    public var scrollRegions: Bool
    /// Scrolling several lines in one sequence (`indn`, `rin`); otherwise a line at a time.
    public var scrollMany: Bool
    /// Clears the screen and homes the cursor (`clear`).
    public var clear: [UInt8]
    public var showCursor: [UInt8]
    public var hideCursor: [UInt8]

    public init(
        backColorErase: Bool, lastColumnSafe: Bool, scrollRegions: Bool, scrollMany: Bool, clear: [UInt8], showCursor: [UInt8],
        hideCursor: [UInt8]
    ) {
        self.backColorErase = backColorErase
        self.lastColumnSafe = lastColumnSafe
        self.scrollRegions = scrollRegions
        self.scrollMany = scrollMany
        self.clear = clear
        self.showCursor = showCursor
        self.hideCursor = hideCursor
    }

    /// A terminfo string without its padding (`$<50>`, which `tputs` turns into waiting and a
    /// terminal would print).
    static func withoutDelays(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        var i = 0
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: "$"), i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "<"),
                let close = bytes[(i + 2)...].firstIndex(of: UInt8(ascii: ">"))
            {
                i = close + 1
                continue
            }
            out.append(bytes[i])
            i += 1
        }
        return out
    }

    /// xterm's entry, for tests.
    public static let xterm = TerminalAbilities(
        backColorErase: true, lastColumnSafe: true, scrollRegions: true, scrollMany: true, clear: Array("\u{1B}[H\u{1B}[2J".utf8),
        showCursor: Array("\u{1B}[?12l\u{1B}[?25h".utf8), hideCursor: Array("\u{1B}[?25l".utf8))

    /// The running terminal's entry (after `initscr`).
    static func fromTerminfo() -> TerminalAbilities {
        func string(_ name: String) -> [UInt8]? {
            guard let s = cn_tigetstr(name) else { return nil }
            return withoutDelays(
                Array(UnsafeBufferPointer(start: UnsafeRawPointer(s).assumingMemoryBound(to: UInt8.self), count: strlen(s))))
        }
        return TerminalAbilities(
            backColorErase: cn_tigetflag("bce") > 0, lastColumnSafe: cn_tigetflag("xenl") > 0, scrollRegions: string("csr") != nil,
            scrollMany: string("indn") != nil && string("rin") != nil, clear: string("clear") ?? Array("\u{1B}[H\u{1B}[2J".utf8),
            showCursor: string("cnorm") ?? [], hideCursor: string("civis") ?? [])
    }
}
