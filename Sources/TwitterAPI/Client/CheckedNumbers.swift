import Bedrock
import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// Numbers that come from a server, a file or the config, turned into waits and times with
/// checks: out of range they are clamped, never trapped on.
public enum Checked {
    /// The longest wait Linnet believes from a server: a `Retry-After` or a rate-limit reset
    /// further than this is a mistake or an attack, and waiting a day is already the worst case.
    public static let longestWait: Int64 = 86_400

    /// Nanoseconds for `Task.sleep`: negative and NaN become 0, anything over `longestWait`
    /// (or infinite) becomes `longestWait`.
    public static func nanoseconds(_ seconds: Double) -> UInt64 {
        guard seconds > 0 else { return 0 }
        return UInt64(min(seconds, Double(longestWait)) * 1e9)
    }

    /// `b - a` without overflow, clamped to ±`longestWait` seconds.
    public static func secondsBetween(_ a: Int64, _ b: Int64) -> Int64 {
        let (d, overflow) = b.subtractingReportingOverflow(a)
        if overflow { return b > a ? longestWait : -longestWait }
        return min(max(d, -longestWait), longestWait)
    }

    /// When to try again after an answer with `Retry-After` (seconds or an HTTP date), as Unix
    /// seconds, no later than `now + longestWait`; nil when absent or unreadable.
    public static func retryAfter(_ value: String?, now: Int64) -> Int64? {
        guard let text = value?.trimmed(), !text.isEmpty else { return nil }
        if let seconds = Int64(text) { return now + min(max(0, seconds), longestWait) }
        if text.allSatisfy(\.isNumber) { return now + longestWait }  // digits too long for Int64
        guard let date = HTTPDate.parse(text) else { return nil }
        return now + max(0, secondsBetween(now, date))
    }

    /// A rate-limit reset (`x-rate-limit-reset`, Unix seconds) kept within a day of `now`.
    public static func resetTime(_ value: String?, now: Int64) -> Int64? {
        guard let text = value?.trimmed(), !text.isEmpty,
            text.allSatisfy({ $0.isASCII && $0.isNumber })
                || (text.first == "-" && text.dropFirst().allSatisfy({ $0.isASCII && $0.isNumber }))
        else { return nil }
        guard let reset = Int64(text) else { return text.first == "-" ? now - longestWait : now + longestWait }
        return now + secondsBetween(now, reset)
    }

    /// A count from a header (`x-rate-limit-limit`, `-remaining`): digits only, at least 0,
    /// at most `Int32.max` (anything beyond is as good as unlimited).
    public static func count(_ value: String?) -> Int? {
        guard let text = value?.trimmed(), !text.isEmpty else { return nil }
        if let n = Int(text) { return min(max(0, n), Int(Int32.max)) }
        if text.allSatisfy({ $0.isASCII && $0.isNumber }) { return Int(Int32.max) }
        return nil
    }
}
