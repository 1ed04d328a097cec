import ArgumentParser
import Bedrock
import FoundationEssentials
import LinnetCore
import TweetText
import TwitterAPI

#if canImport(Glibc)
    import Glibc
#endif

/// Reads one line from the terminal or stdin; `secret` turns echo off on a terminal.
func prompt(_ question: String, secret: Bool = false) -> String? {
    Stream.error(question)
    if secret && isatty(0) == 1 {
        var t = termios()
        tcgetattr(0, &t)
        let saved = t
        t.c_lflag &= ~tcflag_t(ECHO)
        tcsetattr(0, TCSANOW, &t)
        defer {
            var s = saved
            tcsetattr(0, TCSANOW, &s)
            Stream.error("\n")
        }
        return readLine()?.trimmed()
    }
    return readLine()?.trimmed()
}
