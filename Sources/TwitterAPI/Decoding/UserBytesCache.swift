import Glibc

/// Users recognised by the bytes of their JSON object: the same authors come back byte for byte
/// within a page, a burst of stream messages or page after page, and are not parsed again.
/// A user is found by a hash of its object's first bytes and taken only when the whole object
/// compares equal to the one parsed before (a `memcmp`, no scan of the object). The cache is
/// emptied when it passes `limit` users or `byteLimit` bytes of objects kept.
struct UserBytesCache {
    private struct Entry {
        let bytes: [UInt8]
        let user: User
    }
    private var entries: [UInt64: [Entry]] = [:]
    private var count = 0
    private var bytesKept = 0
    let limit: Int
    let byteLimit: Int
    /// Bytes hashed to find candidates: past the first keys of any user object.
    static let prefix = 64
    /// Versions of one object start (the same user with changed counts) kept side by side.
    static let versionsPerPrefix = 4

    init(limit: Int, byteLimit: Int = 4 << 20) {
        self.limit = limit
        self.byteLimit = byteLimit
    }

    /// The user object at the reader, from the cache or by `parse` (and then kept).
    mutating func user(_ r: inout JSONReader, parse: (inout JSONReader) throws -> User) throws -> User {
        let start = r.offset
        let available = r.end - start
        let key = r.hashBytes(start..<start + min(Self.prefix, available))
        if let candidates = entries[key] {
            for e in candidates where e.bytes.count <= available {
                let same = e.bytes.withUnsafeBufferPointer { memcmp($0.baseAddress!, r.p + start, $0.count) == 0 }
                if same {
                    // The bytes are a whole object parsed before, so the input holds that object here.
                    r.rewind(to: start + e.bytes.count)
                    return e.user
                }
            }
        }
        let user = try parse(&r)
        let length = r.offset - start
        guard length > 0 else { return user }
        if count >= limit || bytesKept + length > byteLimit {
            entries.removeAll(keepingCapacity: true)
            count = 0
            bytesKept = 0
        }
        var list = entries[key] ?? []
        if list.count >= Self.versionsPerPrefix {
            bytesKept -= list.removeFirst().bytes.count
            count -= 1
        }
        list.append(Entry(bytes: Array(UnsafeBufferPointer(start: r.p + start, count: length)), user: user))
        entries[key] = list
        count += 1
        bytesKept += length
        return user
    }
}
