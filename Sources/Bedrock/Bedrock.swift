#if canImport(Glibc)
    import Glibc
#endif

// What Linnet needs beyond FoundationEssentials, so the binary does not link Foundation and the
// ICU data inside it (DECISIONS.md, 2026-11-25: FoundationEssentials).

extension Unicode.Scalar {
    /// CharacterSet.whitespaces: general category Zs, tab, and U+200B (zero width space, which
    /// Foundation's set still holds from when it was Zs).
    public var isBlank: Bool { value == 0x09 || value == 0x200B || properties.generalCategory == .spaceSeparator }
    /// CharacterSet.newlines: U+000A–U+000D, U+0085, U+2028, U+2029.
    public var isNewline: Bool { (0x0A...0x0D).contains(value) || value == 0x85 || value == 0x2028 || value == 0x2029 }
}

extension StringProtocol {
    /// Without leading and trailing blanks (spaces of any kind and tabs), as
    /// `trimmingCharacters(in: .whitespaces)`.
    public func trimmed() -> String { trimming { $0.isBlank } }
    /// Without leading and trailing blanks and line ends, as `.whitespacesAndNewlines`.
    public func trimmedLines() -> String { trimming { $0.isBlank || $0.isNewline } }
    /// Without leading and trailing line ends, as `.newlines`.
    public func trimmedNewlines() -> String { trimming { $0.isNewline } }

    public func trimming(_ drop: (Unicode.Scalar) -> Bool) -> String {
        let s = unicodeScalars
        guard let first = s.firstIndex(where: { !drop($0) }), let last = s.lastIndex(where: { !drop($0) }) else { return "" }
        var out = String.UnicodeScalarView()
        out.append(contentsOf: s[first...last])
        return String(out)
    }

    /// Every non-overlapping `target`, left to right, replaced by `replacement`, scalar by scalar
    /// (as `replacingOccurrences(of:with:options: .literal)`: a "\n" inside "\r\n" is found, and
    /// an "e" before a combining accent).
    public func replacingAll(_ target: String, with replacement: String) -> String {
        var scalars = String.UnicodeScalarView()
        scalars.append(contentsOf: unicodeScalars)
        guard !target.isEmpty else { return String(scalars) }
        return String(scalars.replacing(target.unicodeScalars, with: replacement.unicodeScalars))
    }

    /// The range of the first `target` at or after `from`, scalar by scalar.
    public func scalarRange(of target: String, from: Index? = nil) -> Range<Index>? {
        let t = Array(target.unicodeScalars)
        guard let f = t.first else { return nil }
        let s = unicodeScalars
        var i = from ?? s.startIndex
        while i < s.endIndex {
            if s[i] == f {
                var j = i
                var k = 0
                while k < t.count, j < s.endIndex, s[j] == t[k] {
                    j = s.index(after: j)
                    k += 1
                }
                if k == t.count { return i..<j }
            }
            i = s.index(after: i)
        }
        return nil
    }
}

/// The C locale's numbers, made once: the terminal code sets the user's locale for wide
/// characters, and a German one would print "0,05".
nonisolated(unsafe) private let cNumbers = newlocale(Int32(1 << LC_NUMERIC), "C", nil)

/// printf's formatting of numbers (`%.2f`, `%02x`, `%04d`), through the C library, so the digits
/// and rounding are exactly printf's; always with a decimal point, whatever the locale, as
/// `String(format:)` did.
public func cFormat(_ format: String, _ args: any CVarArg...) -> String {
    let previous = cNumbers.map { uselocale($0) }
    defer { if let previous { uselocale(previous) } }
    return withVaList(args) { list in
        var buffer = [CChar](repeating: 0, count: 128)
        let n = Int(vsnprintf(&buffer, buffer.count, format, list))
        if n >= buffer.count {
            buffer = [CChar](repeating: 0, count: n + 1)
            _ = withVaList(args) { vsnprintf(&buffer, buffer.count, format, $0) }
        }
        return String(decoding: buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// Paths as strings, as NSString's path methods treat them.
public enum Path {
    /// The last part of a path (`b` of `/a/b/`).
    public static func lastComponent(_ path: String) -> String {
        let parts = path.split(separator: "/", omittingEmptySubsequences: true)
        return parts.last.map(String.init) ?? (path.hasPrefix("/") ? "/" : "")
    }

    public static func join(_ folder: String, _ name: String) -> String {
        folder.isEmpty ? name : folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }

    /// `~` and `~/…` become the home folder (`$HOME`, else the password database's).
    public static func expandingTilde(_ path: String) -> String {
        guard path == "~" || path.hasPrefix("~/") else { return path }
        return home() + path.dropFirst()
    }

    public static func home() -> String {
        if let h = getenv("HOME"), h.pointee != 0 { return String(cString: h) }
        if let pw = getpwuid(getuid()), let dir = pw.pointee.pw_dir { return String(cString: dir) }
        return "/"
    }
}

/// Writing to and reading from the standard streams and descriptors, all of it, through EINTR.
public enum Stream {
    /// Whether every byte was written (false on a full disk, a closed pipe, …).
    @discardableResult
    public static func write(_ fd: Int32, _ bytes: some Sequence<UInt8>) -> Bool {
        let all = Array(bytes)
        var done = 0
        while done < all.count {
            let n = all.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + done, all.count - done) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return false }
            done += n
        }
        return true
    }

    public static func error(_ text: String) { write(2, text.utf8) }
    public static func output(_ text: String) { write(1, text.utf8) }

    /// Everything until end of file (nil on a read error).
    public static func readAll(_ fd: Int32, limit: Int = .max) -> [UInt8]? {
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while out.count < limit {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, min($0.count, limit - out.count)) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 { return nil }
            if n == 0 { break }
            out += chunk[..<n]
        }
        return out
    }
}

/// A thread of its own for work that blocks (a child's exit, a socket's accept, libcurl's loop),
/// so it never holds one of Swift's task-pool threads.
public func startThread(_ body: @escaping @Sendable () -> Void) {
    final class Box: @unchecked Sendable {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }
    let context = Unmanaged.passRetained(Box(body)).toOpaque()
    var thread = pthread_t()
    let rc = pthread_create(
        &thread, nil,
        { raw in
            let box = Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue()
            box.body()
            return nil
        }, context)
    guard rc == 0 else {
        // Work given a thread of its own may never return (libcurl's loop): running it here
        // would hang the caller, so say why and stop.
        fatalError("linnet: could not start a thread (error \(rc)): the system is out of threads or memory")
    }
    pthread_detach(thread)
}

/// A pthread mutex with `lock` and `unlock`, where NSLock was.
public final class PlainLock: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    public init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    public func lock() { pthread_mutex_lock(mutex) }
    public func unlock() { pthread_mutex_unlock(mutex) }
}
