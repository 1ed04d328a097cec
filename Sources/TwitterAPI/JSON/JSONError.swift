/// A JSON document that could not be read, with the byte offset where reading stopped.
public struct JSONError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What was wrong, in plain words.
    public var message: String
    /// Byte offset into the document.
    public var offset: Int

    public init(_ message: String, offset: Int) {
        self.message = message
        self.offset = offset
    }

    public var description: String { "malformed JSON at byte \(offset): \(message)" }
}
