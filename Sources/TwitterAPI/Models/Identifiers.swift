/// What tweet and user ids share: 64 bits, decimal text, ordered by value.
public protocol NumericID: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible
where RawValue == UInt64 {
    init(rawValue: UInt64)
}

extension NumericID {
    public init(_ value: UInt64) { self.init(rawValue: value) }
    /// Parses a decimal id.
    public init?(_ text: String) {
        guard let v = UInt64(text) else { return nil }
        self.init(rawValue: v)
    }
    public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
    public var description: String { String(rawValue) }
}

/// A tweet's id, read from `id_str` so nothing is lost to floating point.
public struct TweetID: NumericID {
    public var rawValue: UInt64
    public init(rawValue: UInt64) { self.rawValue = rawValue }
}

/// A user's id.
public struct UserID: NumericID {
    public var rawValue: UInt64
    public init(rawValue: UInt64) { self.rawValue = rawValue }
}

/// Snowflake ids carry their creation time (docs/PROTOCOL.md §8).
public enum Snowflake {
    /// Twitter's epoch, 2010-11-04 01:42:54.657 UTC, in Unix milliseconds.
    public static let epochMilliseconds: UInt64 = 1_288_834_974_657

    /// Unix milliseconds at which the id was made.
    public static func milliseconds(of id: UInt64) -> UInt64 { (id >> 22) + epochMilliseconds }

    /// An id for a time, worker and sequence number.
    public static func make(milliseconds: UInt64, worker: UInt64 = 0, sequence: UInt64 = 0) -> UInt64 {
        ((milliseconds - epochMilliseconds) << 22) | ((worker & 0x3FF) << 12) | (sequence & 0xFFF)
    }
}
