import Bedrock
import FoundationEssentials
import Screen

#if canImport(Glibc)
    import Glibc
#endif

/// Whether the terminal's background is light, for `theme = "auto"`: its answer to OSC 11
/// (which xterm, kitty, iTerm2, foot, WezTerm, tmux and most others give), else `COLORFGBG`.
/// The question is followed by a device-attributes request (DA1), which every terminal
/// answers: its answer says the others have all come.
public enum TerminalBackground {
    /// The colour in an OSC 11 reply (`ESC ] 11 ; rgb:RRRR/GGGG/BBBB` ended by BEL or ST, each
    /// channel 1 to 4 hex digits), as 8-bit channels.
    public static func parse(_ reply: [UInt8]) -> (Int, Int, Int)? {
        let text = String(decoding: reply, as: UTF8.self)
        guard let start = text.scalarRange(of: "]11;rgb:") else { return nil }
        var parts: [Int] = []
        for field in text[start.upperBound...].split(separator: "/", maxSplits: 2) {
            let hex = field.prefix { $0.isHexDigit }
            guard (1...4).contains(hex.count), let v = Int(hex, radix: 16) else { return nil }
            let maximum = (1 << (4 * hex.count)) - 1
            parts.append((v * 255 + maximum / 2) / maximum)
        }
        return parts.count == 3 ? (parts[0], parts[1], parts[2]) : nil
    }

    /// `COLORFGBG` (`15;0`, `0;default;15`): its last field is the background's colour index;
    /// 7 and 9–15 are light (rxvt's rule), other numbers dark; nil when it says nothing.
    public static func isLight(colorFGBG value: String) -> Bool? {
        guard let last = value.split(separator: ";").last, let n = Int(last), (0...15).contains(n) else { return nil }
        return n == 7 || n >= 9
    }

    /// Whether `bytes` hold a complete DA1 reply (`ESC [ ? … c`).
    public static func daReplyEnded(_ bytes: [UInt8]) -> Bool {
        guard let last = bytes.last, last == UInt8(ascii: "c") else { return false }
        var i = bytes.count - 2
        while i >= 0, bytes[i] == UInt8(ascii: ";") || (48...57).contains(bytes[i]) { i -= 1 }
        return i >= 2 && bytes[i] == UInt8(ascii: "?") && bytes[i - 1] == UInt8(ascii: "[") && bytes[i - 2] == 0x1B
    }

    static func monotonic() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }
}
