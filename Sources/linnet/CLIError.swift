import ArgumentParser
import FoundationEssentials
import LinnetCore
import TweetText
import TwitterAPI

#if canImport(Glibc)
    import Glibc
#endif

/// Exit statuses (also in `linnet --help` and the README).
enum ExitStatus: Int32 {
    case ok = 0
    case error = 1
    case usage = 2
    case auth = 3
    case rateLimited = 4
}

/// An error for the user, in words, with its exit status.
struct CLIError: Error, CustomStringConvertible {
    var description: String
    var code: ExitStatus
    init(_ description: String, code: ExitStatus = .error) {
        self.description = description
        self.code = code
    }

    /// API and transport errors in words, with the status that fits.
    static func from(_ error: any Error) -> CLIError {
        switch error {
        case let e as CLIError: return e
        case let e as APIError:
            let code: ExitStatus
            if e.httpStatus == 429 || e.httpStatus == 420 || e.code == 88 {
                code = .rateLimited
            } else if e.httpStatus == 401 || [32, 89, 135, 215, 220].contains(e.code ?? 0) {
                code = .auth
            } else {
                code = .error
            }
            return CLIError(e.description, code: code)
        case let e as TransportError: return CLIError(e.description)
        case let e as AuthFlowError: return CLIError(e.description, code: .auth)
        default: return CLIError("\(error)")
        }
    }
}
