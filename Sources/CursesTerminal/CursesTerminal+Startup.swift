import CNcursesw
import FoundationEssentials
import Glibc

/// What is set up once at start: the locale.
extension CursesTerminal {
    /// The user's locale, or C.UTF-8 when theirs is not UTF-8: wide characters and wcwidth
    /// need a UTF-8 locale (tweets are UTF-8 whatever LANG says).
    public static func useUTF8Locale() {
        setlocale(LC_ALL, "")
        let codeset = String(cString: nl_langinfo(nl_item(CODESET))).uppercased()
        if codeset != "UTF-8" && codeset != "UTF8" { setlocale(LC_ALL, "C.UTF-8") }
    }
}
