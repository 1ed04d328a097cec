import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// `created_at` and HTTP `Date` texts, written with the simulator's own code.
enum SimDate {
    private static let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    private static func parts(_ seconds: Int64) -> tm {
        var t = time_t(seconds)
        var p = tm()
        gmtime_r(&t, &p)
        return p
    }

    private static func two(_ v: Int32) -> String { v < 10 ? "0\(v)" : "\(v)" }

    /// `Wed Jun 06 20:07:10 +0000 2012`
    static func format(_ seconds: Int64) -> String {
        let p = parts(seconds)
        return "\(days[Int(p.tm_wday)]) \(months[Int(p.tm_mon)]) \(two(p.tm_mday)) "
            + "\(two(p.tm_hour)):\(two(p.tm_min)):\(two(p.tm_sec)) +0000 \(p.tm_year + 1900)"
    }

    /// `Wed, 06 Jun 2012 20:07:10 GMT`
    static func http(_ seconds: Int64) -> String {
        let p = parts(seconds)
        return "\(days[Int(p.tm_wday)]), \(two(p.tm_mday)) \(months[Int(p.tm_mon)]) \(p.tm_year + 1900) "
            + "\(two(p.tm_hour)):\(two(p.tm_min)):\(two(p.tm_sec)) GMT"
    }

    /// `2026-11-23T10:00:00.000Z`: RFC 3339, as API v2 writes times.
    static func iso(_ seconds: Int64) -> String {
        let p = parts(seconds)
        let year = String(p.tm_year + 1900)
        return String(repeating: "0", count: max(0, 4 - year.count)) + year
            + "-\(two(p.tm_mon + 1))-\(two(p.tm_mday))T\(two(p.tm_hour)):\(two(p.tm_min)):\(two(p.tm_sec)).000Z"
    }
}
