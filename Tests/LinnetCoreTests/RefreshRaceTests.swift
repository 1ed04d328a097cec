import Foundation
import LinnetCore
import LinnetTestSupport
import Locking
import Testing
import TwitterAPI

/// Two Linnet processes on one OAuth 2.0 account (the reader and a script) renew its expired
/// token at once: X rotates refresh tokens, so only one may renew; the other uses its tokens.
@Suite struct RefreshRaceTests {
    /// A session as `linnet` makes one for an account in `store` (GlobalOptions.oauth2Session).
    static func session(_ store: AccountStore, _ h: ClientHarness, _ tokens: OAuth2Tokens, refreshes: Locked<Int>) -> OAuth2Session {
        let flow = OAuth2Flow(http: h.client.http, clientID: h.server.configuration.oauth2ClientID, apiBase: h.server.baseURL)
        let shared = OAuth2Session.Shared(lock: { try await store.lockForRefresh() }, stored: { try store.storedTokens(of: "me") })
        return OAuth2Session(tokens: tokens, flow: flow, shared: shared) { fresh in
            refreshes.withLock { $0 += 1 }
            var c = try store.load()
            c.accounts[0].token = fresh.accessToken
            c.accounts[0].refreshToken = fresh.refreshToken
            c.accounts[0].expiresAt = fresh.expiresAt
            try store.save(c)
        }
    }

    @Test func twoProcessesRenewOnceAndBothStaySignedIn() async throws {
        let h = try await ClientHarness.start()
        defer { Task { await h.stop() } }
        let dir = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("linnet-race-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = AccountStore(fileURL: dir.appendingPathComponent("accounts.toml"))
        let t = h.server.demoOAuth2Tokens(scopes: OAuth2Flow.scopes)
        // Expired as both processes start.
        let expired = OAuth2Tokens(accessToken: t.accessToken, refreshToken: t.refreshToken, expiresAt: 0, scopes: [])
        var account = Account(name: "me", consumerKey: h.server.configuration.oauth2ClientID, token: t.accessToken, api: "v2")
        account.refreshToken = t.refreshToken
        account.expiresAt = 0
        try store.save(AccountStore.Contents(active: "me", accounts: [account]))
        let refreshes = Locked(0)
        for round in 0..<5 {
            let start = try #require(try store.storedTokens(of: "me"))
            let a = Self.session(
                store, h,
                round == 0
                    ? expired : OAuth2Tokens(accessToken: start.accessToken, refreshToken: start.refreshToken, expiresAt: 0, scopes: []),
                refreshes: refreshes)
            let b = Self.session(
                store, h,
                round == 0
                    ? expired : OAuth2Tokens(accessToken: start.accessToken, refreshToken: start.refreshToken, expiresAt: 0, scopes: []),
                refreshes: refreshes)
            async let x = a.accessToken()
            async let y = b.accessToken()
            let (ta, tb) = try await (x, y)
            #expect(ta == tb, "both use the one renewal")
            #expect(try await h.client(auth: .oauth2(accessToken: ta)).v2Me().screenName == h.server.credentials.screenName)
        }
        #expect(refreshes.withLock { $0 } == 5, "one renewal a round")
    }

    @Test func aRefusalAfterARaceIsRetriedWithTheNewestToken() async throws {
        let h = try await ClientHarness.start()
        defer { Task { await h.stop() } }
        let t = h.server.demoOAuth2Tokens(scopes: OAuth2Flow.scopes)
        let flow = OAuth2Flow(http: h.client.http, clientID: h.server.configuration.oauth2ClientID, apiBase: h.server.baseURL)
        // Another process (one that takes no lock) renews first; the file then holds its token.
        let theirs = try await flow.refresh(try #require(t.refreshToken))
        let reads = Locked(0)
        let stale = OAuth2Tokens(accessToken: t.accessToken, refreshToken: t.refreshToken, expiresAt: 0, scopes: [])
        let shared = OAuth2Session.Shared(
            lock: { {} },
            stored: {
                // Read before the race, as the spent pair; after the refusal, the newest.
                reads.withLock { $0 += 1 }
                return reads.withLock { $0 } <= 1
                    ? stale : OAuth2Tokens(accessToken: "x", refreshToken: theirs.refreshToken, expiresAt: 0, scopes: [])
            })
        let session = OAuth2Session(tokens: stale, flow: flow, shared: shared) { _ in }
        let token = try await session.accessToken()
        #expect(try await h.client(auth: .oauth2(accessToken: token)).v2Me().screenName == h.server.credentials.screenName)
    }
}
