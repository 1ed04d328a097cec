import FoundationEssentials
import Locking

#if canImport(Glibc)
    import Glibc
#endif

/// An OAuth 2.0 user sign-in that keeps itself valid: the access token is refreshed shortly
/// before it expires and after a 401, one refresh at a time however many requests are waiting
/// for it, and each new pair of tokens is handed to `save` before it is used, so a crash
/// between a refresh and the save cannot leave only a spent refresh token on disk.
public final class OAuth2Session: Sendable {
    /// Persists new tokens (atomically: the account store writes a temporary file and renames
    /// it). A failure stops the refresh from being used.
    public typealias Save = @Sendable (OAuth2Tokens) throws -> Void

    private struct State {
        var tokens: OAuth2Tokens
        var refreshing: Task<OAuth2Tokens, any Error>?
    }
    /// Where other processes signed in to the same account keep its tokens (the accounts file):
    /// X rotates refresh tokens, so two processes that each refresh log each other out. A
    /// refresh takes `lock` (held across processes), reads `stored`, and uses a renewal another
    /// process already made instead of making its own.
    public struct Shared: Sendable {
        /// Takes the lock every process on the account shares; the returned function releases it.
        public var lock: @Sendable () async throws -> @Sendable () -> Void
        /// The account's tokens as they are stored now, or nil when there are none.
        public var stored: @Sendable () throws -> OAuth2Tokens?
        public init(
            lock: @escaping @Sendable () async throws -> @Sendable () -> Void, stored: @escaping @Sendable () throws -> OAuth2Tokens?
        ) {
            self.lock = lock
            self.stored = stored
        }
    }

    private let state: Locked<State>
    private let flow: OAuth2Flow
    private let save: Save
    private let shared: Shared?
    /// Seconds before expiry at which a token is renewed anyway.
    public let margin: Double

    public init(tokens: OAuth2Tokens, flow: OAuth2Flow, margin: Double = 120, shared: Shared? = nil, save: @escaping Save) {
        state = Locked(State(tokens: tokens))
        self.flow = flow
        self.margin = margin
        self.shared = shared
        self.save = save
    }

    public var tokens: OAuth2Tokens { state.withLock { $0.tokens } }

    /// The access token to send now; refreshed first when it is about to expire.
    public func accessToken() async throws -> String {
        let t = tokens
        if t.expiresAt - flow.clock.now() > margin { return t.accessToken }
        return try await refresh(after: t.accessToken).accessToken
    }

    /// Renews the tokens, unless another caller already did since `spent` was current; callers
    /// that arrive while a refresh runs wait for that one.
    @discardableResult
    public func refresh(after spent: String) async throws -> OAuth2Tokens {
        let task = state.withLock { s -> Task<OAuth2Tokens, any Error>? in
            if s.tokens.accessToken != spent { return nil }
            if let running = s.refreshing { return running }
            let current = s.tokens
            let t = Task { [flow, save, state, shared, margin] in
                defer { state.withLock { $0.refreshing = nil } }
                let release = try await shared?.lock()
                defer { release?() }
                var current = current
                // Another process may have renewed it while this one waited: use its tokens.
                // Reading the file (or running refresh_token_command) blocks: off the task pool.
                let stored = shared == nil ? nil : try? await Blocking.run { try shared?.stored() }
                if let stored, stored.accessToken != current.accessToken,
                    stored.expiresAt - flow.clock.now() > margin
                {
                    state.withLock { $0.tokens = stored }
                    return stored
                }
                if let stored, stored.refreshToken != nil { current.refreshToken = stored.refreshToken }
                guard let refreshToken = current.refreshToken else {
                    throw AuthFlowError.refused("the access token expired and there is no refresh token; log in again (linnet login)")
                }
                let fresh: OAuth2Tokens
                do {
                    fresh = try await flow.refresh(refreshToken)
                } catch let e as APIError where e.httpStatus == 400 || e.httpStatus == 401 {
                    // Refused after a race with a process that did not take the lock: once more
                    // with the newest refresh token stored, before anything is said.
                    let newest = shared == nil ? nil : try? await Blocking.run { try shared?.stored() }
                    guard let newer = newest?.refreshToken, newer != refreshToken,
                        let again = try? await flow.refresh(newer)
                    else {
                        throw AuthFlowError.refused("the sign-in was revoked or has expired; log in again (linnet login)")
                    }
                    fresh = again
                }
                do {
                    try await Blocking.run { try save(fresh) }
                } catch {
                    // Not on disk, but not lost while this runs: the old refresh token is spent.
                    state.withLock { $0.tokens = fresh }
                    throw AuthFlowError.refused("the renewed sign-in could not be saved (\(error)); it works until Linnet quits")
                }
                state.withLock { $0.tokens = fresh }
                return fresh
            }
            s.refreshing = t
            return t
        }
        guard let task else { return tokens }
        return try await task.value
    }
}
