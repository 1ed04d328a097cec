import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// A request for the HTTP engine.
public struct HTTPRequest: Sendable {
    public var method: String
    public var url: String
    public var headers: [(String, String)]
    public var body: Data?
    /// Seconds allowed to connect.
    public var connectTimeout: Double = 10
    /// Seconds without a byte (keep-alives count) before the transfer is abandoned.
    public var idleTimeout: Double = 30
    /// libcurl's receive buffer; larger for streams, so a fast stream arrives in fewer pieces.
    public var receiveBufferBytes: Int?
    /// Seconds the whole exchange may take, however slowly bytes trickle in; nil for none
    /// (streams). `HTTPClient.send` fills in its `requestTimeout` when this is nil.
    public var totalTimeout: Double?

    public init(method: String, url: String, headers: [(String, String)] = [], body: Data? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }
}

/// A complete answer.
public struct HTTPResponse: Sendable {
    public var status: Int
    /// Header names lower-cased; the last value wins.
    public var headers: [String: String]
    public var body: Data

    public init(status: Int, headers: [String: String], body: Data) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}

/// Why a request got no HTTP answer, in words a user can act on.
public enum TransportError: Error, Equatable, Sendable, CustomStringConvertible {
    case dns(String)
    case refused(String)
    case tls(String)
    case timeout(String)
    /// No byte arrived for longer than the idle timeout.
    case stalled(Double)
    /// Plain http to a host that is not loopback: credentials would cross the network in clear.
    case insecure(String)
    case cancelled
    /// The answer went past a bound Linnet sets (a body, or a stream read too slowly).
    case tooLarge(String)
    /// libcurl is missing or too old: no request can be made until it is installed and
    /// Linnet started again.
    case noLibcurl(String)
    case other(code: Int, String)

    public var description: String {
        switch self {
        case .dns(let s): return "cannot resolve the server's name (\(s))"
        case .refused(let s): return "cannot connect to the server (\(s))"
        case .tls(let s): return "secure connection failed: the certificate could not be verified (\(s))"
        case .timeout(let s): return "the server did not answer in time (\(s))"
        case .stalled(let s): return "no data from the server for \(Int(s)) seconds"
        case .insecure(let host): return "refusing plain http to \(host): only loopback addresses may be used without https"
        case .cancelled: return "cancelled"
        case .tooLarge(let s): return s
        case .noLibcurl(let s): return s
        case .other(let code, let s): return "network error \(code): \(s)"
        }
    }
}
