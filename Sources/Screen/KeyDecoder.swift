/// One read from the terminal library: a function-key code, or a character (which may be
/// anything the terminal sent, not necessarily a Unicode scalar).
public enum TerminalInput: Equatable, Sendable {
    case code(Int32)
    case char(UInt32)
}

/// Turns a turn's reads into keys. Escape followed by a character is Alt with it (terminals
/// send Alt that way); an Escape with nothing after it in the same read is the Escape key; a
/// value that is not a Unicode scalar becomes U+FFFD, so nothing the terminal sends can trap.
public enum KeyDecoder {
    /// Reads past this many in one turn wait for the next (a paste of megabytes arrives over
    /// several turns instead of one unbounded batch).
    public static let maxPerTurn = 4096

    public static func decode(_ inputs: [TerminalInput], special: (Int32) -> Key?) -> [Key] {
        var keys: [Key] = []
        var escape = false
        for input in inputs {
            switch input {
            case .code(let code):
                if let k = special(code) { keys.append(k) }
                escape = false
            case .char(27):
                if escape { keys.append(.escape) }
                escape = true
            case .char(let value):
                let k = plain(value)
                guard escape else {
                    keys.append(k)
                    continue
                }
                escape = false
                switch k {
                case .char(let c): keys.append(.alt(c))
                case .enter: keys.append(.alt("\r"))
                default: keys.append(k)
                }
            }
        }
        if escape { keys.append(.escape) }
        return keys
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
