import FoundationEssentials
import Locking

#if canImport(Glibc)
    import Glibc
#endif

/// Users this client has read, with when: a page of posts need not expand authors already
/// known. X bills a user once per UTC day however often it is read that day, so expanding
/// every page's authors bills each again after midnight; a profile read within `freshFor`
/// is used as it is instead.
public final class KnownUsers: Sendable {
    /// A day: a name or picture changed since then shows at the next day's read.
    public static let defaultFreshness = 86_400.0
    public let freshFor: Double
    public let limit: Int
    private let clock: any WallClock
    private let users = Locked<[UserID: (user: User, at: Double)]>([:])
    /// Users a lookup did not return (suspended, deleted): not asked for again for `freshFor`.
    private let unavailable = Locked<[UserID: Double]>([:])

    public init(clock: any WallClock, freshFor: Double = KnownUsers.defaultFreshness, limit: Int = 20_000) {
        self.clock = clock
        self.freshFor = freshFor
        self.limit = limit
    }

    public func remember(_ list: [User]) {
        guard !list.isEmpty else { return }
        let now = clock.now()
        users.withLock { known in
            for u in list { known[u.id] = (u, now) }
            // Past the limit, the least recently read half goes.
            if known.count > limit {
                let oldest = known.sorted { $0.value.at < $1.value.at }.prefix(known.count - limit / 2)
                for (id, _) in oldest { known[id] = nil }
            }
        }
    }

    /// Users a lookup asked for and did not get.
    public func rememberUnavailable(_ ids: [UserID]) {
        guard !ids.isEmpty else { return }
        let now = clock.now()
        unavailable.withLock { gone in
            for id in ids { gone[id] = now }
            if gone.count > limit { gone = gone.filter { now - $0.value < freshFor } }
        }
    }

    /// Of `ids`, those not in `known` (what `fresh` gave) and not found unavailable within
    /// `freshFor`: what a lookup should ask for.
    public func toLookUp(_ ids: [UserID], known: [UserID: User]) -> [UserID] {
        let since = clock.now() - freshFor
        return unavailable.withLock { gone in ids.filter { known[$0] == nil && (gone[$0].map { $0 < since } ?? true) } }
    }

    /// Those of `ids` known at all, however long ago: what a page shows when a lookup fails.
    public func any(_ ids: [UserID]) -> [UserID: User] {
        users.withLock { known in
            var out: [UserID: User] = [:]
            for id in ids { if let k = known[id] { out[id] = k.user } }
            return out
        }
    }

    /// Those of `ids` read within `freshFor`.
    public func fresh(_ ids: [UserID]) -> [UserID: User] {
        let since = clock.now() - freshFor
        return users.withLock { known in
            var out: [UserID: User] = [:]
            for id in ids { if let k = known[id], k.at >= since { out[id] = k.user } }
            return out
        }
    }

    /// Whether any user was read within `freshFor`: none means a cold start, when a page's
    /// authors are expanded in the same answer rather than looked up after it.
    public var isCold: Bool {
        let since = clock.now() - freshFor
        return users.withLock { known in !known.values.contains { $0.at >= since } }
    }
}
