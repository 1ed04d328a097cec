import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// The access level's restrictions and the pay-per-use ledger (docs/PROTOCOL-V2.md §1).
extension World {
    /// What X bills, counted as it bills: a post or user read again on the same UTC day is
    /// counted once.
    struct Usage {
        var postReads: Set<String> = []
        var ownedReads: Set<String> = []
        var userReads: Set<String> = []
        var creates = 0
        var createsWithURL = 0
        var deletes = 0
        var interactions = 0
    }

    /// Prices in US dollars per item (pay-per-use; docs/X-LIMITS.md, `SimPricesTableTests`).
    static let prices = (post: 0.005, owned: 0.001, user: 0.010, create: 0.015, createWithURL: 0.20, delete: 0.010, interaction: 0.015)

    private var day: String { String(now / 86400) }

    func chargePosts(_ ids: [UInt64], owned: Bool) {
        for id in ids {
            let key = day + "|" + String(id)
            if owned { usage.ownedReads.insert(key) } else { usage.postReads.insert(key) }
        }
    }

    func chargeUsers(_ ids: [UInt64]) {
        for id in ids { usage.userReads.insert(day + "|" + String(id)) }
    }

    func chargeCreate(withURL: Bool) {
        if withURL { usage.createsWithURL += 1 } else { usage.creates += 1 }
    }

    func chargeDelete() { usage.deletes += 1 }
    func chargeInteraction() { usage.interactions += 1 }

    var usageJSON: J {
        let u = usage
        let p = Self.prices
        let cost =
            Double(u.postReads.count) * p.post + Double(u.ownedReads.count) * p.owned + Double(u.userReads.count) * p.user
            + Double(u.creates) * p.create + Double(u.createsWithURL) * p.createWithURL + Double(u.deletes) * p.delete
            + Double(u.interactions) * p.interaction
        return .object([
            ("tier", .string(config.tier.rawValue)), ("post_reads", .int(Int64(u.postReads.count))),
            ("owned_reads", .int(Int64(u.ownedReads.count))), ("user_reads", .int(Int64(u.userReads.count))),
            ("posts_created", .int(Int64(u.creates))), ("posts_created_with_url", .int(Int64(u.createsWithURL))),
            ("posts_deleted", .int(Int64(u.deletes))), ("interactions", .int(Int64(u.interactions))),
            ("cost_usd", .double((cost * 1000).rounded() / 1000)),
        ])
    }

    /// The billed items themselves (`day|id`), for a bench that counts what was never shown.
    var billedJSON: J {
        func list(_ s: Set<String>) -> J { .array(s.sorted().map(J.string)) }
        return .object([("posts", list(usage.postReads)), ("owned", list(usage.ownedReads)), ("users", list(usage.userReads))])
    }

    // MARK: Restrictions

    /// Error 453: v1.1 beyond media and OAuth is not on this access level.
    static let v1NotOnTier = SimResponse.error(
        403, code: 453,
        "You currently have access to a subset of X API V2 endpoints and limited v1.1 endpoints (e.g. media post, oauth) only. If you need access to this endpoint, you may need a different access level. You can learn more here: https://developer.x.com/en/portal/product"
    )

    /// A call this access level does not include.
    func notOnTier() -> SimResponse {
        Self.problem(
            403, "Client Forbidden",
            "When authenticating requests to the Twitter API v2 endpoints, you must use keys and tokens from a Twitter developer App that is attached to a Project. You can create a project via the developer portal.",
            type: "https://api.twitter.com/2/problems/client-forbidden",
            extra: [
                ("reason", .string("client-not-enrolled")),
                ("registration_url", .string("https://developer.twitter.com/en/docs/projects/overview")),
                ("required_enrollment", .string("Appropriate Level of API Access")),
            ])
    }

    static let replyNotAllowed = problem(
        403, "Forbidden",
        "Reply to this conversation is not allowed because you have not been mentioned or otherwise engaged by the author of the post you are replying to."
    )

    var selfServe: Bool { config.tier == .selfServe }

    /// Whether `uid` may reply to `parent`: its author's `reply_settings` (only those it
    /// mentions, or only those the author follows), and on self-serve only where the post
    /// mentions the replier or quotes one of the replier's posts.
    func replyAllowed(by uid: UInt64, to parent: SimTweet) -> Bool {
        guard let me = users[uid]?.screenName.lowercased() else { return false }
        let mentioned = (mentionsByTweet[parent.id] ?? []).contains(me)
        if parent.userID == uid { return true }
        switch parent.replySettings {
        case "mentionedUsers": if !mentioned { return false }
        case "following": if !(users[parent.userID]?.following.contains(uid) ?? false) && !mentioned { return false }
        default: break
        }
        guard selfServe else { return true }
        if mentioned { return true }
        if let q = parent.quotedID, tweets[q]?.userID == uid { return true }
        return false
    }
}
