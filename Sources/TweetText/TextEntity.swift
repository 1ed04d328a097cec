/// A URL, mention or hashtag found in tweet text.
///
/// `range` counts Unicode code points, as the Twitter API's `indices` do.
public struct TextEntity: Equatable, Hashable, Sendable {
    /// What the entity is.
    public enum Kind: Equatable, Hashable, Sendable {
        case url
        /// `@name`, or `@name/list-slug` when `listSlug` is not empty.
        case mention(screenName: String, listSlug: String)
        case hashtag(String)
    }

    /// What the entity is.
    public var kind: Kind
    /// The text the entity covers, as written (including `@` or `#`).
    public var text: String
    /// Code-point range in the text.
    public var range: Range<Int>

    /// Makes an entity.
    public init(kind: Kind, text: String, range: Range<Int>) {
        self.kind = kind
        self.text = text
        self.range = range
    }
}

extension Array where Element == Unicode.Scalar {
    @inline(__always) func string(_ range: Range<Int>) -> String {
        var s = String.UnicodeScalarView()
        s.append(contentsOf: self[range])
        return String(s)
    }
}
