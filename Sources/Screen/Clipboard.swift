/// What Linnet puts on the clipboard (OSC 52): text with nothing a terminal or a shell it is
/// pasted into would act on (C0 controls but newline and tab, DEL, C1 controls), and at most
/// `limit` bytes of it, cut between characters.
public enum Clipboard {
    /// 100,000 bytes: the longest post X sends (25,000 characters) in any script, well under what
    /// terminals take in one OSC 52 (xterm, kitty and tmux accept more; base64 makes it 133 KB).
    public static let limit = 100_000

    /// The text to copy, and whether it was cut to the limit.
    public static func text(_ text: String) -> (text: String, cut: Bool) {
        var clean = text
        clean.unicodeScalars.removeAll { v in
            let c = v.value
            return (c < 0x20 && c != 0x0A && c != 0x09) || (0x7F...0x9F).contains(c)
        }
        guard clean.utf8.count > limit else { return (clean, false) }
        var out = ""
        var bytes = 0
        for ch in clean {
            let n = ch.utf8.count
            if bytes + n > limit { break }
            out.append(ch)
            bytes += n
        }
        return (out, true)
    }

    /// Text that must stay one line (an address): every control (newline and tab too), DEL,
    /// C1, bidi embedding, override and isolate, and the line and paragraph separators removed.
    public static func oneLine(_ text: String) -> String {
        var clean = text
        clean.unicodeScalars.removeAll { v in
            let c = v.value
            return c < 0x20 || (0x7F...0x9F).contains(c) || (0x202A...0x202E).contains(c) || (0x2066...0x2069).contains(c)
                || c == 0x2028 || c == 0x2029 || c == 0x200E || c == 0x200F || c == 0x061C
        }
        return clean
    }
}
