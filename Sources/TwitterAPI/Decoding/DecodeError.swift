/// A JSON value that is well-formed but is not the model expected.
public struct DecodeError: Error, Equatable, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
