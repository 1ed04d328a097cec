/// Users recognised by the bytes of their JSON object: the same authors come back byte for byte
/// within a page, a burst of stream messages or page after page, and are not parsed again. A
/// 64-bit hash and the length name an object; the cache is emptied when it grows past `limit`.
struct UserBytesCache {
    private struct Key: Hashable {
        var hash: UInt64
        var length: Int
    }
    private var users: [Key: User] = [:]
    let limit: Int

    init(limit: Int) { self.limit = limit }

    /// The user object at the reader, from the cache or by `parse` (and then kept).
    mutating func user(_ r: inout JSONReader, parse: (inout JSONReader) throws -> User) throws -> User {
        let start = r.offset
        try r.skipValue()
        let end = r.offset
        let key = Key(hash: r.hashBytes(start..<end), length: end - start)
        if let known = users[key] { return known }
        r.rewind(to: start)
        let user = try parse(&r)
        if users.count >= limit { users.removeAll(keepingCapacity: true) }
        users[key] = user
        return user
    }
}
