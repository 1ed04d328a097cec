/// One read from the terminal library: a function-key code, or a character (which may be
/// anything the terminal sent, not necessarily a Unicode scalar).
public enum TerminalInput: Equatable, Sendable {
    case code(Int32)
    case char(UInt32)
}

/// Turns what the terminal sends into keys, across reads: a sequence split between two reads
/// (as over a slow ssh link) is one key; the common forms of Home, End, Insert, Delete, PgUp,
/// PgDn, the arrows and F1–F12 are known whatever terminfo says; what arrives between
/// bracketed-paste markers is one paste; Escape followed by a character is Alt with it. An
/// Escape with nothing after it waits in `pending` until more comes or the caller's short
/// timeout says it was the Escape key (`flush`). A value that is not a Unicode scalar becomes
/// U+FFFD, so nothing the terminal sends can trap.
public struct KeyStream: Sendable {
    /// Reads past this many in one turn wait for the next (a paste of megabytes arrives over
    /// several turns instead of one unbounded batch).
    public static let maxPerTurn = 4096

    /// What is held: the start of an escape sequence, or a paste not finished yet.
    var held: [UInt32] = []
    private var pasting = false
    private var paste = String.UnicodeScalarView()
    /// The terminal's answers to DECRQM (`ESC [ ? mode ; state $ y`), by mode, not yet taken.
    private var reports: [(mode: Int, state: Int)] = []

    /// Cursor position reports (`ESC [ row ; column R`, answers to CSI 6n), not yet taken.
    private var cursorReports: [(row: Int, column: Int)] = []

    /// The terminal's other answers, as it wrote them: strings (`ESC ]` OSC, `ESC _` APC, ended
    /// by BEL or `ESC \`), device attributes (`ESC [ ? … c`) and window reports (`ESC [ … t`).
    var answers: [UInt8] = []

    /// The cursor reports read since the last call (the widths asked after a resize).
    public mutating func takeCursorReports() -> [(row: Int, column: Int)] {
        defer { cursorReports = [] }
        return cursorReports
    }

    /// The mode reports read since the last call (they are answers, not keys).
    public mutating func takeModeReports() -> [(mode: Int, state: Int)] {
        defer { reports = [] }
        return reports
    }

    public init() {}

    /// Something waits for the rest of a sequence (or of a paste).
    public var isPending: Bool { !held.isEmpty || pasting }
    /// A paste has begun and not ended.
    public var isPasting: Bool { pasting }

    /// Only an Escape is held.
    public var holdsLoneEscape: Bool { held == [27] && !pasting }

    /// A lone Escape held past its wait (see `escapeWaitedOut`).
    private var escapeWaited = false

    /// The held lone Escape's wait ran out while a report was awaited: it stays held, and is
    /// the Escape key unless a `[` follows.
    public mutating func escapeWaitedOut() { if held == [27] { escapeWaited = true } }

    /// What is held could be the start of a cursor report (`ESC`, `[`, digits and `;`): while
    /// one is awaited, it waits for its rest rather than being taken as typed (an Escape key
    /// pressed then waits for the answers too).
    public var holdsReportStart: Bool {
        guard !pasting, held.first == 27 else { return false }
        if held.count == 1 || Self.stringStarts.contains(held[1]) { return true }
        // Digits and `;`; after `?` (device attributes, mode reports) the `$` of a mode report.
        guard held[1] == 0x5B else { return false }
        let marked = held.count > 2 && held[2] == 63
        return held.dropFirst(marked ? 3 : 2).allSatisfy { (48...57).contains($0) || $0 == 59 || (marked && $0 == 36) }
    }

    public mutating func feed(_ inputs: [TerminalInput], special: (Int32) -> Key?) -> [Key] {
        var keys: [Key] = []
        for input in inputs {
            switch input {
            case .code(let code):
                if pasting { continue }
                keys += flushHeld()
                if let k = special(code) { keys.append(k) }
            case .char(let v):
                if pasting {
                    pasteChar(v, &keys)
                } else {
                    held.append(v)
                    resolve(&keys, final: false)
                }
            }
        }
        return keys
    }

    /// What has arrived of a paste still going on, as a paste (the rest follows as another);
    /// nil when none is going on or nothing new came.
    public mutating func takePartialPaste() -> Key? {
        guard pasting, !paste.isEmpty else { return nil }
        // Half of the end marker may have arrived: it stays for the next read.
        let end: [UInt32] = [27, 0x5B, 0x32, 0x30, 0x31, 0x7E]
        var keep = 0
        for n in stride(from: min(end.count - 1, paste.count), through: 1, by: -1)
        where paste.suffix(n).map(\.value) == Array(end.prefix(n)) {
            keep = n
            break
        }
        var text = paste
        text.removeLast(keep)
        paste = String.UnicodeScalarView(paste.suffix(keep))
        return text.isEmpty ? nil : .paste(String(text))
    }

    /// The wait for the rest is over: what is held becomes keys as it stands (a lone Escape
    /// is the Escape key; a paste never ended is still pasted).
    public mutating func flush() -> [Key] {
        var keys: [Key] = []
        if pasting {
            keys.append(.paste(String(paste)))
            paste = String.UnicodeScalarView()
            pasting = false
        }
        resolve(&keys, final: true)
        keys += flushHeld()
        escapeWaited = false
        return keys
    }

    private mutating func flushHeld() -> [Key] {
        var keys: [Key] = []
        if !held.isEmpty {
            let rest = held
            held = []
            if rest.first == 27 {
                if rest.count == 1 {
                    keys.append(.escape)
                } else {
                    keys.append(Self.alt(Self.plain(rest[1])))
                    for v in rest.dropFirst(2) { keys.append(Self.plain(v)) }
                }
            } else {
                for v in rest { keys.append(Self.plain(v)) }
            }
        }
        return keys
    }

    /// Turns `held` into keys as far as it can.
    private mutating func resolve(_ keys: inout [Key], final: Bool) {
        while let first = held.first {
            guard first == 27 else {
                keys.append(Self.plain(first))
                held.removeFirst()
                continue
            }
            guard held.count >= 2 else { return }
            let second = held[1]
            // An Escape whose wait ran out, held only in case a report's `[` followed: anything
            // else after it is the Escape key, then that key (not Alt with it).
            let waited = escapeWaited
            if escapeWaited {
                escapeWaited = false
                if second != 0x5B && !Self.stringStarts.contains(second) {
                    keys.append(.escape)
                    held.removeFirst()
                    continue
                }
            }
            if second == 27 {
                // Escape, Escape: the first was the key.
                keys.append(.escape)
                held.removeFirst()
                continue
            }
            if Self.stringStarts.contains(second) {
                // An answer's string, until its end; unended when the wait is over, it was typed.
                switch takeString() {
                case .taken: continue
                case .unended where !final:
                    escapeWaited = waited
                    return
                default:
                    // Not an answer after an Escape that waited: the Escape key, then that key.
                    if waited {
                        keys.append(.escape)
                        held.removeFirst()
                        continue
                    }
                }
            }
            guard second == 0x5B || second == 0x4F else {
                keys.append(Self.alt(Self.plain(second)))
                held.removeFirst(2)
                continue
            }
            // CSI (ESC [) or SS3 (ESC O): parameters, then one final byte.
            var i = 2
            while i < held.count, (0x20...0x3F).contains(held[i]) { i += 1 }
            guard i < held.count else {
                if final { return }
                return
            }
            let finalByte = held[i]
            guard (0x40...0x7E).contains(finalByte) else {
                // Not a sequence after all: Alt-[ (or Alt-O) and what followed, as typed.
                keys.append(Self.alt(Self.plain(second)))
                held.removeFirst(2)
                continue
            }
            let params = String(decoding: held[2..<i].map { UInt8(truncatingIfNeeded: $0) }, as: UTF8.self)
            held.removeFirst(i + 1)
            if second == 0x5B, finalByte == 0x7E, params == "200" {
                pasting = true
                // The rest of what is held belongs to the paste.
                let rest = held
                held = []
                for v in rest { pasteChar(v, &keys) }
                if pasting { return }
                continue
            }
            // A mode report (the answer to Linnet's question at start), not a key.
            if second == 0x5B, finalByte == 0x79, params.hasPrefix("?"), params.hasSuffix("$") {
                let parts = params.dropFirst().dropLast().split(separator: ";")
                if parts.count == 2, let m = Int(parts[0]), let v = Int(parts[1]) { reports.append((m, v)) }
                continue
            }
            // Device attributes and window reports: answers, never keys.
            if second == 0x5B, (finalByte == 0x63 && params.hasPrefix("?")) || finalByte == 0x74 {
                answers += [27, 0x5B] + Array(params.utf8) + [UInt8(finalByte)]
                continue
            }
            // A cursor report: an answer, never a key (modified F3 shares the form, on row 1 only,
            // and was never typed into Linnet: it had no key).
            if second == 0x5B, finalByte == 0x52 {
                let parts = params.split(separator: ";", omittingEmptySubsequences: false)
                if parts.count == 2, let r = Int(parts[0]), let c = Int(parts[1]), r > 1 { cursorReports.append((r, c)) }
                if parts.count == 2 { continue }
            }
            if let k = Self.sequence(csi: second == 0x5B, params: params, final: UInt8(finalByte)) { keys.append(k) }
        }
    }

    private mutating func pasteChar(_ v: UInt32, _ keys: inout [Key]) {
        paste.append(Unicode.Scalar(v) ?? "\u{FFFD}")
        // The end marker: ESC [ 2 0 1 ~.
        let end: [UInt32] = [27, 0x5B, 0x32, 0x30, 0x31, 0x7E]
        if paste.count >= end.count, paste.suffix(end.count).map(\.value) == end {
            var text = paste
            text.removeLast(end.count)
            if !text.isEmpty { keys.append(.paste(String(text))) }
            paste = String.UnicodeScalarView()
            pasting = false
        }
    }

    /// A CSI or SS3 sequence as a key; nil for one Linnet has no use for (it is not typed).
    static func sequence(csi: Bool, params: String, final: UInt8) -> Key? {
        if csi, params.hasPrefix("<"), final == UInt8(ascii: "M") || final == UInt8(ascii: "m") {
            return mouse(params.dropFirst(), pressed: final == UInt8(ascii: "M"))
        }
        let first = Int(params.split(separator: ";").first ?? "") ?? 0
        switch final {
        case UInt8(ascii: "A"): return .up
        case UInt8(ascii: "B"): return .down
        case UInt8(ascii: "C"): return .right
        case UInt8(ascii: "D"): return .left
        case UInt8(ascii: "H"): return .home
        case UInt8(ascii: "F"): return .end
        case UInt8(ascii: "Z"): return csi ? .backTab : nil
        case UInt8(ascii: "P"): return .function(1)
        case UInt8(ascii: "Q"): return .function(2)
        case UInt8(ascii: "R"): return csi && !params.isEmpty ? nil : .function(3)
        case UInt8(ascii: "S"): return .function(4)
        // Focus came back (the screen may have been written over meanwhile), or went.
        case UInt8(ascii: "I"): return csi ? .focus(true) : nil
        case UInt8(ascii: "O"): return csi ? .focus(false) : nil
        case UInt8(ascii: "~"):
            switch first {
            case 1, 7: return .home
            case 2: return .insert
            case 3: return .delete
            case 4, 8: return .end
            case 5: return .pageUp
            case 6: return .pageDown
            case 11...15: return .function(first - 10)
            case 17...21: return .function(first - 11)
            case 23, 24: return .function(first - 12)
            default: return nil
            }
        default: return nil
        }
    }

    /// An SGR mouse report, `ESC [ < button ; column ; row M` (press) or `m` (release), columns
    /// and rows from 1. Motion (which Linnet never asks for) and sideways wheels are not keys.
    static func mouse(_ params: Substring, pressed: Bool) -> Key? {
        let parts = params.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) }
        guard parts.count == 3, let b = parts[0], let col = parts[1], let row = parts[2], col >= 1, row >= 1 else { return nil }
        guard b & 32 == 0 else { return nil }
        let action: Mouse.Action
        if b & 64 != 0 {
            switch b & 3 {
            case 0: action = .wheelUp
            case 1: action = .wheelDown
            default: return nil
            }
            guard pressed else { return nil }
        } else if !pressed {
            action = .release
        } else {
            guard b & 3 != 3 else { return nil }
            action = .press(b & 3)
        }
        return .mouse(Mouse(action, x: col - 1, y: row - 1))
    }

    static func alt(_ k: Key) -> Key {
        switch k {
        case .char(let c): return .alt(c)
        case .enter: return .alt("\r")
        default: return k
        }
    }

    /// A character read: Enter, Tab, Backspace and Ctrl-letters by their control codes.
    public static func plain(_ value: UInt32) -> Key {
        switch value {
        case 13: return .enter
        case 9: return .tab
        case 8, 127: return .backspace
        case 1...26: return .ctrl(Character(Unicode.Scalar(UInt8(value) + 96)))
        default: return .char(Character(Unicode.Scalar(value) ?? "\u{FFFD}"))
        }
    }
}

/// One read decoded on its own (what is held at the end is flushed).
public enum KeyDecoder {
    public static let maxPerTurn = KeyStream.maxPerTurn

    public static func decode(_ inputs: [TerminalInput], special: (Int32) -> Key?) -> [Key] {
        var s = KeyStream()
        return s.feed(inputs, special: special) + s.flush()
    }

    public static func plain(_ value: UInt32) -> Key { KeyStream.plain(value) }
}
