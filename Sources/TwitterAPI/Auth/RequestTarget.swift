/// The parts of a request URL that OAuth signing needs, parsed by hand so the path keeps exactly
/// the bytes that were sent.
public struct RequestTarget: Equatable, Sendable {
    public var scheme: String
    public var host: String
    public var port: Int?
    /// Path as sent (percent-encoded form), `/` when empty.
    public var path: String
    /// Query as sent, without `?`; nil when there was none.
    public var query: String?

    /// Parses an absolute `http` or `https` URL; nil for anything else.
    public init?(_ url: String) {
        guard let sep = url.scalarRange(of: "://") else { return nil }
        let scheme = url[..<sep.lowerBound].lowercased()
        guard scheme == "http" || scheme == "https" else { return nil }
        var rest = url[sep.upperBound...]
        if let hash = rest.firstIndex(of: "#") { rest = rest[..<hash] }
        let authorityEnd = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) ?? rest.endIndex
        var authority = rest[..<authorityEnd]
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        var host = String(authority)
        var port: Int?
        if let colon = authority.lastIndex(of: ":"), !authority.hasSuffix("]") {
            host = String(authority[..<colon])
            guard let p = Int(authority[authority.index(after: colon)...]), (1...65535).contains(p) else { return nil }
            port = p
        }
        guard !host.isEmpty else { return nil }
        let afterAuthority = rest[authorityEnd...]
        if let q = afterAuthority.firstIndex(of: "?") {
            path = String(afterAuthority[..<q])
            query = String(afterAuthority[afterAuthority.index(after: q)...])
        } else {
            path = String(afterAuthority)
            query = nil
        }
        if path.isEmpty { path = "/" }
        self.scheme = scheme
        self.host = host.lowercased()
        self.port = port
    }

    /// The base string URI (RFC 5849 §3.4.1.2): lower-case scheme and host, port only when not
    /// the default, path as sent, no query.
    public var baseStringURI: String {
        let defaultPort = scheme == "https" ? 443 : 80
        let portPart = port.map { $0 == defaultPort ? "" : ":\($0)" } ?? ""
        return "\(scheme)://\(host)\(portPart)\(path)"
    }

    /// True for 127.0.0.0/8, ::1 and localhost, where plain http may carry credentials.
    public var isLoopback: Bool {
        host == "localhost" || host == "[::1]" || host == "::1" || host.hasPrefix("127.")
    }
}
