import Bedrock
import Screen
import Timeline
import TweetText
import TwitterAPI

/// Short human times.
public enum Format {
    /// `now`, `42s`, `5m`, `3h`, `2d`, then the date (`Mar 4`, or `Mar 4 2019` in another year).
    public static func age(created: Int64, now: Double) -> String {
        let (created, today) = ageTimes(created, now)
        let d = Int(today - created)
        // Minutes at the finest: a card's age changes once a minute, not every second.
        if d < 60 { return "now" }
        if d < 3600 { return "\(d / 60)m" }
        if d < 86400 { return "\(d / 3600)h" }
        if d < 7 * 86400 { return "\(d / 86400)d" }
        let (y, m, day) = TwitterDate.civil(created)
        let (ny, _, _) = TwitterDate.civil(today)
        let month = months[m - 1]
        return y == ny ? "\(month) \(day)" : "\(month) \(day) \(y)"
    }

    /// Both clamped to years 1–9999, so a damaged cache or a hostile server cannot trap here.
    private static func ageTimes(_ created: Int64, _ now: Double) -> (created: Int64, today: Int64) {
        let created = TwitterDate.clamped(created)
        return (created, now.isFinite ? TwitterDate.clamped(Int64(max(-1e17, min(1e17, now)))) : created)
    }

    /// What `age` shows as a number: one stamp is always one text, and at one `now` two
    /// times share a text only with one stamp ("Mar 4" of another year is another). A card's
    /// cache key without making the text (a twentieth of a scrolling key did).
    public static func ageStamp(created: Int64, now: Double) -> Int64 {
        let (created, today) = ageTimes(created, now)
        let d = today - created
        if d < 60 { return 0 }
        if d < 3600 { return 1 << 40 + d / 60 }
        if d < 86400 { return 2 << 40 + d / 3600 }
        if d < 7 * 86400 { return 3 << 40 + d / 86400 }
        // The date: its day (floored), in this year or with the year.
        let day = (created - (created < 0 ? 86399 : 0)) / 86400
        return (TwitterDate.civil(created).year == TwitterDate.civil(today).year ? 4 : 5) << 40 + day
    }

    /// `10:42:20`, or `Mar 4 10:42:20` a day or more ahead: when something will happen, on the
    /// reader's clock (`utcOffset` seconds east of UTC). Unlike a countdown it stays the same
    /// until the moment moves.
    public static func at(_ when: Double, utcOffset: Int, now: Double? = nil) -> String {
        let t = TwitterDate.clamped(Int64(when.isFinite ? max(-1e17, min(1e17, when.rounded(.up))) : 0)) + Int64(utcOffset)
        let s = Int((t % 86400 + 86400) % 86400)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let time = "\(two(s / 3600)):\(two(s / 60 % 60)):\(two(s % 60))"
        guard let now, when - now >= 86400 else { return time }
        let (_, m, day) = TwitterDate.civil(t)
        return "\(months[m - 1]) \(day) \(time)"
    }

    static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// `42 s`, `4 min 12 s`, `1 h 5 min`: how long until something, in one form throughout.
    public static func wait(_ seconds: Double) -> String {
        let s = seconds.isNaN ? 0 : Int(min(max(0, seconds.rounded(.up)), 1e9))
        if s < 60 { return "\(s) s" }
        if s < 3600 { return s % 60 == 0 ? "\(s / 60) min" : "\(s / 60) min \(s % 60) s" }
        return s % 3600 / 60 == 0 ? "\(s / 3600) h" : "\(s / 3600) h \(s % 3600 / 60) min"
    }

    /// Counts as Twitter shows them: 999, 1.2K, 15K, 1.3M.
    /// `245 KB`, `3.2 MB`: a file's size.
    public static func bytes(_ n: Int) -> String {
        if n < 1024 { return "\(n) B" }
        if n < 1024 * 1024 { return "\(n / 1024) KB" }
        let mb = Double(n) / 1024 / 1024
        return mb < 10 ? cFormat("%.1f MB", mb) : "\(Int(mb)) MB"
    }

    public static func count(_ n: Int) -> String {
        if n < 1000 { return String(n) }
        if n < 10_000 { return String(format1(Double(n) / 1000)) + "K" }
        if n < 1_000_000 { return "\(n / 1000)K" }
        return String(format1(Double(n) / 1_000_000)) + "M"
    }

    private static func format1(_ v: Double) -> String {
        let tenths = Int((v * 10).rounded(.down))
        return tenths % 10 == 0 ? "\(tenths / 10)" : "\(tenths / 10).\(tenths % 10)"
    }
}
