import Screen
import Timeline
import TweetText
import TwitterAPI

/// Cards' heights as measured, by post, kept from turn to turn: a key's scrolling asks for
/// the same cards up to four times (settling after each action, the move, what fits, the
/// neighbours), and the next key for nearly the same cards again; each ask through the store
/// and the card cache costs about 1,500 instructions and touches memory the key would not
/// (#29). A height is kept with the width and time it was measured at, and all of them with
/// what else a card's height depends on (`Basis`): when a turn's context differs in any of
/// those, the heights kept are dropped.
public final class CardHeights: @unchecked Sendable {
    // Read and written on the loop's thread only. A key asks for a screen of cards: a scan of
    // at most `most` ids costs less than hashing one (a dictionary here cost as much as the
    // lookups it saved). Past `most`, the heights kept longest give way (a card asked for
    // again after that is measured again).
    static let most = 64
    private var ids: [TweetID] = []
    private var lines: [Int] = []
    /// Where the next height goes once `most` are kept.
    private var next = 0
    private var width = 0
    private var now = 0.0
    private var basis: Basis?

    /// What a card's height depends on besides its post, the width and the time: the posts
    /// themselves (the store's table, the same storage only while no post was added, changed
    /// or removed), the theme the cards are laid out in, how the terminal measures a grapheme,
    /// and whether cards keep rows for small pictures.
    struct Basis {
        let tweets: TweetTable
        let theme: (name: String, fingerprint: Int)?
        let widthMode: WidthMode
        let thumbnails: Bool

        init(_ c: Context) {
            tweets = c.snapshot.tweets
            theme = c.cardTheme.map { ($0.name, $0.fingerprint) }
            widthMode = c.widthMode
            thumbnails = c.thumbnails
        }

        func same(as o: Basis) -> Bool {
            tweets.isSameStorage(as: o.tweets) && theme?.name == o.theme?.name && theme?.fingerprint == o.theme?.fingerprint
                && widthMode == o.widthMode && thumbnails == o.thumbnails
        }
    }

    public init() {}

    /// A turn with context `c` begins: the heights kept stay only if they were measured on
    /// what `c` shows.
    public func begin(_ c: Context) {
        let b = Basis(c)
        if let basis, basis.same(as: b) { return }
        basis = b
        forget()
    }

    func lines(_ id: TweetID, width: Int, now: Double) -> Int? {
        guard width == self.width, now == self.now, let i = ids.firstIndex(of: id) else { return nil }
        return lines[i]
    }

    /// Heights kept (for tests).
    var count: Int { ids.count }

    func keep(_ id: TweetID, width: Int, now: Double, lines count: Int) {
        if width != self.width || now != self.now {
            (self.width, self.now) = (width, now)
            forget()
        }
        if ids.count < Self.most {
            ids.append(id)
            lines.append(count)
            return
        }
        (ids[next], lines[next]) = (id, count)
        next = (next + 1) % Self.most
    }

    private func forget() {
        ids.removeAll(keepingCapacity: true)
        lines.removeAll(keepingCapacity: true)
        next = 0
    }
}
