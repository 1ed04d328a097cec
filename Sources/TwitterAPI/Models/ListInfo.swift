import FoundationEssentials

/// A list as either API describes it.
public struct ListInfo: Equatable, Sendable {
    public var id: String
    public var name: String
    public var slug: String
    public var owner: String
    public var description: String
    public var memberCount: Int
    /// `owner/slug`.
    public var reference: String { "\(owner)/\(slug)" }
    public init(id: String, name: String, slug: String, owner: String, description: String, memberCount: Int) {
        self.id = id
        self.name = name
        self.slug = slug
        self.owner = owner
        self.description = description
        self.memberCount = memberCount
    }
}
