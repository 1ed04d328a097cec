/// Where a piece of content (a card, by its post's id) starts in a region of rows that
/// scrolls. Two frames' anchors say how far the region's content moved: the terminal learns a
/// scroll from the frame that made it, instead of hashing every row of both frames to find it.
public struct Anchor: Hashable, Sendable {
    public var key: UInt64
    /// The content's first row.
    public var y: Int
    /// The region's first and last rows.
    public var top: Int
    public var bottom: Int

    public init(key: UInt64, y: Int, top: Int, bottom: Int) {
        self.key = key
        self.y = y
        self.top = top
        self.bottom = bottom
    }
}

extension Screen {
    /// The move of one region that two frames' anchors agree on: each anchor of `new` found in
    /// `old` (same key, same region's last row) votes for the move that brings it (the smaller
    /// on a tie), in the rows below both frames' tops.
    /// Nil when no anchor was found; a move of 0 when the content stayed. Like a move found by
    /// hashes it never decides what is drawn: the diff through it compares every row, by its
    /// cells or by its name.
    public static func anchoredShift(from old: Screen, to new: Screen) -> RowShift? {
        guard old.width == new.width, old.height == new.height, !old.anchors.isEmpty else { return nil }
        var tally: [(shift: RowShift, votes: Int)] = []
        for a in new.anchors where a.top >= 0 && a.top < a.bottom && a.bottom < new.height {
            // A region's top may move (a line above the cards came or went): the rows below both tops move.
            guard let was = old.anchors.first(where: { $0.key == a.key && $0.bottom == a.bottom }) else { continue }
            let s = RowShift(top: max(was.top, a.top), bottom: a.bottom, by: was.y - a.y)
            if let k = tally.firstIndex(where: { $0.shift == s }) { tally[k].votes += 1 } else { tally.append((s, 1)) }
        }
        var best: (shift: RowShift, votes: Int)?
        for t in tally where best.map({ t.votes > $0.votes || (t.votes == $0.votes && abs(t.shift.by) < abs($0.shift.by)) }) ?? true {
            best = t
        }
        return best?.shift
    }

    /// The move a terminal that can scroll a region makes before writing `new` over `old`, and
    /// `new`'s row hashes if they were made (the next frame's compare reuses them as `old`'s):
    /// the anchors' move when they say one that leaves two rows of the region in it (its size
    /// alone: what the rows show is not looked at); else, when most rows changed, the move the
    /// rows' hashes vote for (`shift`).
    public static func scroll(from old: Screen, to new: Screen, oldHashes: [UInt64]?) -> (shift: RowShift?, hashes: [UInt64]?) {
        if let moved = anchoredShift(from: old, to: new), moved.by != 0, abs(moved.by) <= moved.bottom - moved.top - 1 {
            return (moved, nil)
        }
        guard mostRowsDiffer(from: old, to: new) else { return (nil, nil) }
        let h = new.rowHashes()
        return (shift(oldHashes ?? old.rowHashes(), h), h)
    }
}
