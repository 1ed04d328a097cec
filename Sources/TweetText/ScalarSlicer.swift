/// Pieces of a string cut at scalar offsets asked in ascending order: each piece is a slice of
/// the string's own storage, so a long text is not copied into an array of its scalars.
public struct ScalarSlicer {
    public let text: String
    private var offset = 0
    private var index: String.Index

    public init(_ text: String) {
        self.text = text
        index = text.unicodeScalars.startIndex
    }

    /// The index at scalar offset `n`, or the end when the text is shorter; walks on from the
    /// offset asked last (from the start when `n` is behind it).
    public mutating func index(at n: Int) -> String.Index {
        let scalars = text.unicodeScalars
        if n < offset {
            offset = 0
            index = scalars.startIndex
        }
        while offset < n, index < scalars.endIndex {
            scalars.formIndex(after: &index)
            offset += 1
        }
        return index
    }

    /// The scalars in `range` (clamped to the text).
    public mutating func slice(_ range: Range<Int>) -> Substring {
        let lower = index(at: max(0, range.lowerBound))
        let upper = index(at: max(0, range.upperBound))
        return Substring(text.unicodeScalars[lower..<upper])
    }
}
