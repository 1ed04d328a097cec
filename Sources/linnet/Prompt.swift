import ArgumentParser
import Foundation
import LinnetCore
import TweetText
import TwitterAPI

/// Reads one line from the terminal or stdin; `secret` turns echo off on a terminal.
func prompt(_ question: String, secret: Bool = false) -> String? {
    FileHandle.standardError.write(Data(question.utf8))
    if secret && isatty(0) == 1 {
        var t = termios()
        tcgetattr(0, &t)
        let saved = t
        t.c_lflag &= ~tcflag_t(ECHO)
        tcsetattr(0, TCSANOW, &t)
        defer {
            var s = saved
            tcsetattr(0, TCSANOW, &s)
            FileHandle.standardError.write(Data("\n".utf8))
        }
        return readLine()?.trimmingCharacters(in: .whitespaces)
    }
    return readLine()?.trimmingCharacters(in: .whitespaces)
}
