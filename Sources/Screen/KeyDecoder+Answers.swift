/// The terminal's string answers (its background, kitty's graphics OK), read among the keys:
/// Linnet asks at start without waiting, so they may come at any time, over a slow link in
/// pieces.
extension KeyStream {
    /// `ESC ]` (OSC) and `ESC _` (APC): what the terminal answers Linnet's questions with.
    static let stringStarts: Set<UInt32> = [0x5D, 0x5F]
    /// Longer than any answer Linnet asks for: held past this, it was typed.
    static let longestAnswer = 512

    /// The answers read since the last call, as the terminal wrote them.
    public mutating func takeAnswers() -> [UInt8] {
        defer { answers = [] }
        return answers
    }

    enum StringHeld { case taken, unended, notAnswer }

    /// A string held whole (ended by BEL or `ESC \`) becomes an answer. Only what answers
    /// look like is held: OSC's number and `;` first (`11;`), APC's `G` (kitty's graphics),
    /// printable ASCII inside; anything else was typed (Alt-] and what followed it).
    mutating func takeString() -> StringHeld {
        var i = 2
        while i < held.count {
            let v = held[i]
            let fits: Bool
            if held[1] == 0x5F && i == 2 {
                fits = v == 0x47
            } else if held[1] == 0x5D && i == 2 {
                fits = (48...57).contains(v)
            } else {
                fits = (0x20...0x7E).contains(v) || v == 7 || v == 27
            }
            guard fits else { return .notAnswer }
            let end = v == 7 ? i : (v == 27 && i + 1 < held.count && held[i + 1] == 0x5C ? i + 1 : nil)
            if let end {
                answers += held[...end].map { UInt8(truncatingIfNeeded: $0) }
                held.removeFirst(end + 1)
                return .taken
            }
            // An Escape not followed by `\`: not an answer (an Escape key typed after Alt-]).
            if v == 27, i + 1 < held.count { return .notAnswer }
            i += 1
        }
        return held.count > Self.longestAnswer ? .notAnswer : .unended
    }
}
