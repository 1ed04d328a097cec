import FoundationEssentials
import TwitterAPI

#if canImport(Glibc)
    import Glibc
#endif

/// A write the engine refused or the server refused, in words.
public struct SyncError: Error, Equatable, Sendable, CustomStringConvertible {
    public var message: String
    /// The API's answer, when there was one.
    public var status: Int?
    public init(_ message: String, status: Int? = nil) {
        self.message = message
        self.status = status
    }
    public var description: String { message }
}
