/// Twitter's `created_at` format, `Wed Jun 06 20:07:10 +0000 2012`, parsed and written by hand:
/// fixed English names, no locale, and fast enough for a firehose.
public enum TwitterDate {
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    private static let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]

    /// Unix seconds for a `created_at` string, or nil when it is not in that format.
    public static func parse(_ text: String) -> Int64? {
        var text = text
        return text.withUTF8 { parse(utf8: $0) }
    }

    /// The same from the string's UTF-8 (as the decoders find it in a document).
    public static func parse(utf8 b: UnsafeBufferPointer<UInt8>) -> Int64? {
        guard b.count == 30, b[3] == 0x20, b[7] == 0x20, b[10] == 0x20, b[13] == 0x3A, b[16] == 0x3A,
            b[19] == 0x20, b[25] == 0x20
        else { return nil }
        guard let monthIndex = month(b[4], b[5], b[6]),
            let day = number(b, 8..<10), let hour = number(b, 11..<13), let minute = number(b, 14..<16),
            let second = number(b, 17..<19), let year = number(b, 26..<30),
            let offsetValue = number(b, 21..<25), b[20] == 0x2B || b[20] == 0x2D
        else { return nil }
        guard (1...31).contains(day), hour < 24, minute < 60, second < 61 else { return nil }
        let offsetSeconds = Int64((offsetValue / 100) * 3600 + (offsetValue % 100) * 60) * (b[20] == 0x2D ? -1 : 1)
        let days = daysFromCivil(year: Int64(year), month: Int64(monthIndex + 1), day: Int64(day))
        return days * 86400 + Int64(hour * 3600 + minute * 60 + second) - offsetSeconds
    }

    /// Unix seconds for an RFC 3339 time as X API v2 writes it (`2026-11-23T10:00:00.000Z`, or
    /// with an offset such as `+01:00`); fractions of a second are dropped.
    public static func parseISO(_ text: String) -> Int64? {
        var text = text
        return text.withUTF8 { parseISO(utf8: $0) }
    }

    /// The same from the string's UTF-8.
    public static func parseISO(utf8 b: UnsafeBufferPointer<UInt8>) -> Int64? {
        guard b.count >= 20, b.count <= 40, b[4] == 0x2D, b[7] == 0x2D, b[10] == 0x54 || b[10] == 0x74 || b[10] == 0x20, b[13] == 0x3A,
            b[16] == 0x3A,
            let year = number(b, 0..<4), let month = number(b, 5..<7), let day = number(b, 8..<10), let hour = number(b, 11..<13),
            let minute = number(b, 14..<16), let second = number(b, 17..<19)
        else { return nil }
        guard (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61 else { return nil }
        var i = 19
        if b[i] == 0x2E {
            i += 1
            while i < b.count, b[i] >= 0x30, b[i] <= 0x39 { i += 1 }
        }
        guard i < b.count else { return nil }
        var offset: Int64 = 0
        switch b[i] {
        case 0x5A, 0x7A:
            guard i + 1 == b.count else { return nil }
        case 0x2B, 0x2D:
            guard i + 6 == b.count, b[i + 3] == 0x3A, let oh = number(b, (i + 1)..<(i + 3)), let om = number(b, (i + 4)..<(i + 6)) else {
                return nil
            }
            offset = Int64(oh * 3600 + om * 60) * (b[i] == 0x2D ? -1 : 1)
        default: return nil
        }
        let days = daysFromCivil(year: Int64(year), month: Int64(month), day: Int64(day))
        return days * 86400 + Int64(hour * 3600 + minute * 60 + second) - offset
    }

    /// Unix seconds from either format (v2 documents an RFC 3339 time; some of its own examples
    /// show the v1.1 form).
    public static func parseAny(_ text: String) -> Int64? { parseISO(text) ?? parse(text) }

    /// The same from the string's UTF-8.
    public static func parseAny(utf8 b: UnsafeBufferPointer<UInt8>) -> Int64? { parseISO(utf8: b) ?? parse(utf8: b) }

    /// Unix seconds of years 1 to 9999: a time from a damaged file or a hostile server is
    /// clamped into them, not trapped on.
    public static func clamped(_ seconds: Int64) -> Int64 { min(max(seconds, -62_135_596_800), 253_402_300_799) }

    /// Year, month (1–12) and day of Unix seconds, in UTC (clamped to years 1 to 9999).
    public static func civil(_ seconds: Int64) -> (year: Int, month: Int, day: Int) {
        let s = clamped(seconds)
        let (y, m, d) = civilFromDays(s >= 0 ? s / 86400 : (s - 86399) / 86400)
        return (Int(y), Int(m), Int(d))
    }

    /// The `created_at` string for Unix seconds, in UTC.
    public static func format(_ seconds: Int64) -> String {
        let seconds = clamped(seconds)
        let days = seconds >= 0 ? seconds / 86400 : (seconds - 86399) / 86400
        let rem = seconds - days * 86400
        let (y, m, d) = civilFromDays(days)
        let weekday = Int(((days % 7) + 11) % 7)  // 1970-01-01 was a Thursday
        func two(_ v: Int64) -> String { v < 10 ? "0\(v)" : "\(v)" }
        return
            "\(self.days[weekday]) \(months[Int(m) - 1]) \(two(d)) \(two(rem / 3600)):\(two(rem % 3600 / 60)):\(two(rem % 60)) +0000 \(y)"
    }

    /// `2026-11-23T15:04:05Z` for Unix seconds.
    public static func formatISO(_ seconds: Int64) -> String {
        let seconds = clamped(seconds)
        let days = seconds >= 0 ? seconds / 86400 : (seconds - 86399) / 86400
        let rem = seconds - days * 86400
        let (y, m, d) = civilFromDays(days)
        func two(_ v: Int64) -> String { v < 10 ? "0\(v)" : "\(v)" }
        let year = String(y)
        return String(repeating: "0", count: max(0, 4 - year.count)) + year
            + "-\(two(m))-\(two(d))T\(two(rem / 3600)):\(two(rem % 3600 / 60)):\(two(rem % 60))Z"
    }

    private static func number(_ b: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int? {
        var v = 0
        for i in range {
            let d = b[i] &- 0x30
            guard d < 10 else { return nil }
            v = v * 10 + Int(d)
        }
        return v
    }

    /// The month (0–11) whose English abbreviation the three bytes are.
    private static func month(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> Int? {
        let key = UInt32(a) << 16 | UInt32(b) << 8 | UInt32(c)
        return monthKeys.firstIndex(of: key)
    }

    private static let monthKeys: [UInt32] = months.map { name in name.utf8.reduce(0) { $0 << 8 | UInt32($1) } }

    // Days since 1970-01-01 for a proleptic Gregorian date (Howard Hinnant's algorithm).
    private static func daysFromCivil(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146097 + doe - 719468
    }

    private static func civilFromDays(_ z0: Int64) -> (Int64, Int64, Int64) {
        let z = z0 + 719468
        let era = (z >= 0 ? z : z - 146096) / 146097
        let doe = z - era * 146097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365
        let y = yoe + era * 400
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (m <= 2 ? y + 1 : y, m, d)
    }
}
