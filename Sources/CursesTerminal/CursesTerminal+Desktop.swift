import FoundationEssentials
import Glibc
import Screen

/// What reaches beyond the screen: the clipboard (OSC 52), desktop notifications, ctrl-z.
extension CursesTerminal {
    /// OSC 52: the terminal (and tmux with `set-clipboard`) puts the text on its clipboard.
    public func copyToClipboard(_ text: String) {
        Self.writeAll(Array(Self.osc52(text).utf8))
    }

    public func notify(title: String, body: String) {
        Self.writeAll(Array(Self.notification(title: title, body: body).utf8))
    }

    /// OSC 777 (title and body) and OSC 9 (one line), with anything a terminal would act on
    /// removed from the text: terminals show one or the other.
    public static func notification(title: String, body: String) -> String {
        func clean(_ s: String) -> String {
            String(String.UnicodeScalarView(s.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F && $0 != ";" }).prefix(200))
        }
        return "\u{1B}]777;notify;\(clean(title));\(clean(body))\u{07}\u{1B}]9;\(clean(title)): \(clean(body))\u{07}"
    }

    /// The text goes through `Clipboard.text` (no controls, bounded) whoever asked.
    public static func osc52(_ text: String) -> String {
        "\u{1B}]52;c;" + Data(Clipboard.text(text).text.utf8).base64EncodedString() + "\u{07}"
    }

    /// ctrl-z: the terminal handed back, the process stopped as the shell's job control
    /// expects; when `fg` continues it, the terminal is taken again and drawn whole.
    public func stopProcess() -> Bool {
        // In the session leader's own group (no job-control shell) a stop would be discarded by
        // the kernel, or, forced, never continued.
        guard getpgrp() != getsid(0) else { return false }
        suspend()
        let previous = signal(SIGTSTP, SIG_DFL)
        // To the whole group, as a shell's ctrl-z would be (whatever thread blocks what).
        kill(0, SIGTSTP)
        signal(SIGTSTP, previous)
        resume()
        return true
    }
}
