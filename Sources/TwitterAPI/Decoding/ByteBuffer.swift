/// A growable run of bytes owned by one decoder, emptied by setting its count. Appending checks
/// no uniqueness and retains nothing: `[UInt8]`'s `append`, `removeAll(keepingCapacity:)` and
/// copies were a tenth of decoding a stream message, and a new array's allocation went through
/// the standard library's unspecialized path (a generic metadata lookup, 540 instructions).
/// Not thread-safe; a pointer into it is valid until the next append.
final class ByteBuffer {
    private(set) var base: UnsafeMutablePointer<UInt8>
    private(set) var count = 0
    private var capacity: Int

    init(capacity: Int = 256) {
        self.capacity = max(16, capacity)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    @inline(__always) func removeAll() { count = 0 }

    /// Room a decoder's arena keeps from one document to the next: a page of 100 posts' texts
    /// and entities fits, a huge document's is given back.
    static let arenaRoomKept = 1 << 18

    /// Empties it and gives back room past `limit`: one huge document does not keep its size
    /// for the decoder's life.
    @inline(__always) func removeAll(keepingAtMost limit: Int) {
        count = 0
        if capacity > limit { shrink(to: limit) }
    }

    @inline(never) private func shrink(to limit: Int) {
        base.deallocate()
        capacity = max(16, limit)
        base = .allocate(capacity: capacity)
    }

    /// Drops the bytes from `position` on.
    @inline(__always) func truncate(to position: Int) { count = min(count, max(0, position)) }

    /// Where `n` more bytes go, not yet counted: write them, then `commit` before anything
    /// else is appended (growing keeps only what is counted).
    @inline(__always) func reserve(_ n: Int) -> UnsafeMutablePointer<UInt8> {
        if count + n > capacity { grow(to: count + n) }
        return base + count
    }

    @inline(__always) func commit(_ n: Int) { count += n }

    @inline(never) private func grow(to needed: Int) {
        var c = capacity * 2
        while c < needed { c *= 2 }
        let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: c)
        bigger.initialize(from: base, count: count)
        base.deallocate()
        base = bigger
        capacity = c
    }

    @inline(__always) func append(_ b: UInt8) {
        reserve(1).initialize(to: b)
        count += 1
    }

    @inline(__always) func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let from = bytes.baseAddress, bytes.count > 0 else { return }
        reserve(bytes.count).initialize(from: from, count: bytes.count)
        count += bytes.count
    }

    /// Another buffer's bytes (never its own: growing would free what is being read).
    func append(_ other: ByteBuffer) {
        precondition(other !== self, "a byte buffer appended to itself")
        append(other.bytes)
    }

    /// `v` as LEB128, as `[UInt8].appendLEB128` writes it.
    @inline(__always) func appendLEB128(_ v: UInt64) {
        let to = reserve(10)
        var x = v
        var n = 0
        while x >= 0x80 {
            to[n] = UInt8(x & 0x7F) | 0x80
            x >>= 7
            n += 1
        }
        to[n] = UInt8(x)
        count += n + 1
    }

    /// Every byte.
    var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: count) }

    /// The bytes in `range` (within `0..<count`).
    @inline(__always) subscript(range: Range<Int>) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: base + range.lowerBound, count: range.count)
    }
}
