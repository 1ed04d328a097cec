import TwitterAPI

extension TimelineStore {
    /// One timeline inside the store: ids oldest first, so the usual arrival (a newer tweet) is
    /// an append; the newest-first view for snapshots is built only when it changed.
    struct Held {
        var ascending: [TweetID] = []
        var gapsBelow: Set<TweetID> = []
        var readMarker: TweetID?
        var anchor: TweetID?
        var view: TimelineView?

        /// Where `id` is, or where it would go.
        func position(_ id: TweetID) -> (index: Int, found: Bool) {
            var lo = 0
            var hi = ascending.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if ascending[mid] < id { lo = mid + 1 } else { hi = mid }
            }
            return (lo, lo < ascending.count && ascending[lo] == id)
        }

        func contains(_ id: TweetID) -> Bool { position(id).found }

        /// `TimelineStore.floor` in this timeline.
        func floor(below ceiling: TweetID, depth: Int, free: (TweetID) -> Bool) -> TweetID? {
            let (i, found) = position(ceiling)
            let top = found ? i : i - 1
            guard top >= 0 else { return nil }
            var bottom = top
            // Everything above the floor is fetched again: the floor itself is not.
            while bottom > max(0, top - depth), free(ascending[bottom]) { bottom -= 1 }
            return ascending[bottom]
        }

        /// Inserts if absent; the count after.
        mutating func adding(_ id: TweetID) -> Int {
            _ = insert(id)
            return ascending.count
        }

        /// Inserts if absent; true when it was new.
        mutating func insert(_ id: TweetID) -> Bool {
            if let last = ascending.last, id > last {
                ascending.append(id)
            } else {
                let (i, found) = position(id)
                if found { return false }
                ascending.insert(id, at: i)
            }
            view = nil
            return true
        }

        /// Each timeline's view, made where it changed.
        static func views(_ held: inout [TimelineID: Held]) -> [TimelineID: TimelineView] {
            var views: [TimelineID: TimelineView] = [:]
            for id in Array(held.keys) { views[id] = held[id]?.makeView() }
            return views
        }

        mutating func makeView() -> TimelineView {
            if let v = view { return v }
            let v = TimelineView(ids: ascending.reversed(), gapsBelow: gapsBelow, readMarker: readMarker, anchor: anchor)
            view = v
            return v
        }
    }
}
