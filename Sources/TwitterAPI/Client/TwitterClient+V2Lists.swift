import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// API v2 lists.
extension TwitterClient {
    /// A list of accounts.
    public struct V2List: Equatable, Sendable {
        public var id: String
        public var name: String
        public var description: String
        public var memberCount: Int
        public var ownerID: UserID?
    }

    /// One direct message.
    public struct V2Message: Equatable, Sendable {
        public var id: String
        public var text: String
        public var senderID: UserID?
        public var conversationID: String
        /// Unix seconds.
        public var createdAt: Int64?
    }

    private static func lists(_ json: JSONValue) -> [V2List] {
        guard case .array(let items)? = json["data"] else { return [] }
        return items.compactMap { l in
            guard let id = l["id"]?.stringValue, let name = l["name"]?.stringValue else { return nil }
            return V2List(
                id: id, name: name, description: l["description"]?.stringValue ?? "", memberCount: Int(l["member_count"]?.intValue ?? 0),
                ownerID: l["owner_id"]?.stringValue.flatMap(UInt64.init).map(UserID.init))
        }
    }

    public func v2OwnedLists(userID: UserID) async throws -> [V2List] {
        Self.lists(
            try JSONValue.parse(
                try await call("GET", "/2/users/\(userID)/owned_lists", [("list.fields", "description,member_count,owner_id")])))
    }

    public func v2FollowedLists(userID: UserID) async throws -> [V2List] {
        Self.lists(
            try JSONValue.parse(
                try await call("GET", "/2/users/\(userID)/followed_lists", [("list.fields", "description,member_count,owner_id")])))
    }

    /// Posts by a list's members, newest first.
    public func v2ListPosts(listID: String, _ page: V2Page = V2Page()) async throws -> V2PostsPage {
        try await posts("/2/lists/\(listID)/tweets", page, tokenName: "pagination_token")
    }
}
