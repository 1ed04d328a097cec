import CNcursesw
import FoundationEssentials
import Glibc

/// What is set up once at start: the locale, and the bytes that give the terminal back on a crash.
extension CursesTerminal {
    /// Prepares what a crash handler writes to give the terminal back: attributes off, the
    /// cursor shown, keypad mode off, the normal screen (terminfo's sgr0, cnorm, rmkx, rmcup),
    /// and the input modes Linnet turned on.
    static func restoreOnCrash() {
        var bytes: [CChar] = []
        for cap in ["sgr0", "cnorm", "rmkx", "rmcup"] {
            if let s = cn_tigetstr(cap) { bytes += Array(UnsafeBufferPointer(start: s, count: strlen(s))) }
        }
        // Bracketed paste and focus reports off too, or the shell would get their markers.
        bytes += inputModesOff.utf8.map { CChar(bitPattern: $0) }
        bytes += [13, 10]
        bytes.withUnsafeBufferPointer { cn_install_crash_restore($0.baseAddress, Int32($0.count)) }
    }

    /// The user's locale, or C.UTF-8 when theirs is not UTF-8: wide characters and wcwidth
    /// need a UTF-8 locale (tweets are UTF-8 whatever LANG says).
    public static func useUTF8Locale() {
        setlocale(LC_ALL, "")
        let codeset = String(cString: nl_langinfo(nl_item(CODESET))).uppercased()
        if codeset != "UTF-8" && codeset != "UTF8" { setlocale(LC_ALL, "C.UTF-8") }
    }
}
