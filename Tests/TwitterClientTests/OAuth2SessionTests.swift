import Foundation
import LinnetTestSupport
import Locking
import Testing
import TwitterAPI

/// A self-refreshing OAuth 2.0 sign-in against the simulator: renewed before expiry (on a clock
/// the test moves) and after a 401, once however many requests wait, saved before it is used.
@Suite(.serialized) struct OAuth2SessionTests {
    struct Signed {
        let h: ClientHarness
        let flow: OAuth2Flow
        let clock: ManualClock
        let tokens: OAuth2Tokens
    }

    func signIn() async throws -> Signed {
        let h = try await ClientHarness.start()
        let clock = ManualClock(now: Date().timeIntervalSince1970)
        let flow = OAuth2FlowTests.flow(h, clock: clock)
        let pkce = PKCE.make()
        let location = try await OAuth2FlowTests.consent(
            h, flow.authorizationURL(redirectURI: OAuth2FlowTests.redirect, state: "s", pkce: pkce))
        let tokens = try await flow.exchange(
            code: try OAuth2Flow.code(fromPasted: location, state: "s"), redirectURI: OAuth2FlowTests.redirect, pkce: pkce)
        return Signed(h: h, flow: flow, clock: clock, tokens: tokens)
    }

    @Test func renewedBeforeExpiryAfterA401AndOnceForManyWaiters() async throws {
        let s = try await signIn()
        defer { Task { await s.h.stop() } }
        let saved = Locked<[OAuth2Tokens]>([])
        let session = OAuth2Session(tokens: s.tokens, flow: s.flow) { t in saved.withLock { $0.append(t) } }
        let client = s.h.client(auth: .oauth2Session(session))
        #expect(try await client.v2Me().screenName == s.h.server.credentials.screenName)
        #expect(saved.withLock { $0.isEmpty }, "a fresh token is used as it is")

        // Two minutes before it expires, ten requests at once: one refresh, saved, then used.
        s.clock.advance(by: 7200 - 100)
        try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<10 { group.addTask { try await client.v2Me().screenName } }
            for try await name in group { #expect(name == s.h.server.credentials.screenName) }
        }
        #expect(saved.withLock { $0.count } == 1)
        #expect(session.tokens == saved.withLock { $0.last })
        #expect(session.tokens.refreshToken != s.tokens.refreshToken)

        // The server stops accepting the token (revoked elsewhere): the next call refreshes.
        try await s.flow.revoke(session.tokens.accessToken)
        #expect(try await client.v2Me().screenName == s.h.server.credentials.screenName)
        #expect(saved.withLock { $0.count } == 2)
    }

    @Test func aRevokedSignInSaysToLogInAgain() async throws {
        let s = try await signIn()
        defer { Task { await s.h.stop() } }
        try await s.flow.revoke(s.tokens.refreshToken!)
        try await s.flow.revoke(s.tokens.accessToken)
        let session = OAuth2Session(tokens: s.tokens, flow: s.flow) { _ in }
        do {
            _ = try await s.h.client(auth: .oauth2Session(session)).v2Me()
            Issue.record("a revoked sign-in still worked")
        } catch let e as AuthFlowError {
            #expect(e.description.contains("log in again"))
        }
    }

    /// A refresh that cannot be saved still works for this run and says so.
    @Test func anUnsavedRefreshIsKeptInMemory() async throws {
        let s = try await signIn()
        defer { Task { await s.h.stop() } }
        struct DiskFull: Error {}
        let session = OAuth2Session(tokens: s.tokens, flow: s.flow) { _ in throw DiskFull() }
        s.clock.advance(by: 7200)
        let client = s.h.client(auth: .oauth2Session(session))
        await #expect(throws: AuthFlowError.self) { _ = try await client.v2Me() }
        #expect(session.tokens.accessToken != s.tokens.accessToken)
        #expect(try await client.v2Me().screenName == s.h.server.credentials.screenName)
    }
}
