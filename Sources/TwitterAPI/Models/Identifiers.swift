/// A tweet's id: 64 bits, read from `id_str` so nothing is lost to floating point.
public struct TweetID: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    public var rawValue: UInt64
    public init(rawValue: UInt64) { self.rawValue = rawValue }
    public init(_ value: UInt64) { rawValue = value }
    /// Parses a decimal id.
    public init?(_ text: String) {
        guard let v = UInt64(text) else { return nil }
        rawValue = v
    }
    public static func < (a: TweetID, b: TweetID) -> Bool { a.rawValue < b.rawValue }
    public var description: String { String(rawValue) }
}

/// A user's id, 64 bits.
public struct UserID: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    public var rawValue: UInt64
    public init(rawValue: UInt64) { self.rawValue = rawValue }
    public init(_ value: UInt64) { rawValue = value }
    /// Parses a decimal id.
    public init?(_ text: String) {
        guard let v = UInt64(text) else { return nil }
        rawValue = v
    }
    public static func < (a: UserID, b: UserID) -> Bool { a.rawValue < b.rawValue }
    public var description: String { String(rawValue) }
}

/// Snowflake ids carry their creation time (PROTOCOL.md §8).
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
