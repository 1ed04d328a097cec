/// When to reconnect a stream, by Twitter's rules (docs/PROTOCOL.md §6): network errors back off
/// linearly by 250 ms up to 16 s; HTTP errors exponentially from 5 s to 320 s; 420 and 429
/// exponentially from one minute; a connection that delivered data resets the back-off. Pure:
/// the caller supplies the time and carries out the decision.
public struct ReconnectPolicy: Sendable, Equatable {
    /// Why the last connection ended.
    public enum Failure: Equatable, Sendable {
        /// TCP/IP trouble: refused, reset, DNS, TLS, a stall.
        case network
        /// An HTTP error status other than 420/429.
        case http(Int)
        /// 420 or 429: connecting too often.
        case rateLimited
        /// The server ended the stream cleanly or sent a disconnect message.
        case closed
    }

    /// Kinds of back-off in force.
    public enum Mode: Equatable, Sendable { case none, network, http, rateLimited }

    public private(set) var mode: Mode = .none
    /// The delay chosen for the current attempt, in seconds.
    public private(set) var delay: Double = 0
    /// Failed attempts in a row.
    public private(set) var attempts = 0

    public static let networkStep = 0.25, networkCap = 16.0
    public static let httpStart = 5.0, httpCap = 320.0
    public static let rateLimitStart = 60.0, rateLimitCap = 960.0

    public init() {}

    /// The connection delivered data: start over.
    public mutating func connected() {
        mode = .none
        delay = 0
        attempts = 0
    }

    /// The connection failed or ended; returns seconds to wait before the next attempt.
    public mutating func failed(_ failure: Failure) -> Double {
        attempts += 1
        switch failure {
        case .closed:
            // The first reconnect after a drop is immediate; more drops back off like network errors.
            if mode == .none {
                mode = .network
                delay = 0
            } else {
                delay = min(Self.networkCap, delay + Self.networkStep)
            }
        case .network:
            if mode == .network {
                delay = min(Self.networkCap, delay + Self.networkStep)
            } else if mode == .none {
                mode = .network
                delay = 0
            } else {
                // Already in a longer back-off: keep growing that one.
                delay = min(mode == .http ? Self.httpCap : Self.rateLimitCap, delay * 2)
            }
        case .http:
            if mode == .http {
                delay = min(Self.httpCap, delay * 2)
            } else if mode == .rateLimited {
                delay = min(Self.rateLimitCap, delay * 2)
            } else {
                mode = .http
                delay = Self.httpStart
            }
        case .rateLimited:
            if mode == .rateLimited {
                delay = min(Self.rateLimitCap, delay * 2)
            } else {
                mode = .rateLimited
                delay = Self.rateLimitStart
            }
        }
        return delay
    }
}
