import Foundation
import LinnetTestSupport
import Testing
import TwitterAPI

/// OAuth 2.0 with PKCE against the simulator: the consent page, the code, tokens, refresh with
/// rotation, revoke, and each way it can go wrong.
@Suite(.serialized) struct OAuth2FlowTests {
    /// RFC 7636, Appendix B.
    @Test func s256MatchesTheRFCExample() {
        #expect(PKCE.challenge(for: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk") == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
        let p = PKCE.make()
        #expect(p.verifier.count == 43 && p != PKCE.make())
    }

    @Test func pastedAnswersAreReadOrRefusedInWords() throws {
        #expect(try OAuth2Flow.code(fromPasted: "http://localhost:8080/callback?state=abc&code=XYZ", state: "abc") == "XYZ")
        #expect(try OAuth2Flow.code(fromPasted: "  XYZ \n", state: "abc") == "XYZ")
        #expect(throws: AuthFlowError.wrongToken) {
            try OAuth2Flow.code(fromPasted: "http://localhost:8080/callback?state=zzz&code=XYZ", state: "abc")
        }
        #expect(throws: AuthFlowError.denied) {
            try OAuth2Flow.code(fromPasted: "http://localhost:8080/callback?error=access_denied&state=abc", state: "abc")
        }
        #expect(throws: AuthFlowError.self) { try OAuth2Flow.code(fromPasted: "two words", state: "abc") }
    }

    /// Signs in as the demo user through the consent page; returns where the browser was sent.
    static func consent(_ h: ClientHarness, _ url: String, cancel: Bool = false) async throws -> String {
        let page = try await h.client.http.send(HTTPRequest(method: "GET", url: url))
        #expect(page.status == 200)
        let html = String(decoding: page.body, as: UTF8.self)
        let marker = "name=\"request\" value=\""
        let start = try #require(html.range(of: marker)).upperBound
        let id = String(html[start...].prefix { $0 != "\"" })
        let c = h.server.credentials
        var form: [(String, String)] = [("request", id), ("session[username_or_email]", c.screenName), ("session[password]", c.password)]
        form.append(cancel ? ("cancel", "Cancel") : ("allow", "Authorize app"))
        var post = HTTPRequest(method: "POST", url: h.server.baseURL + "/i/oauth2/authorize")
        post.headers = [("Content-Type", "application/x-www-form-urlencoded")]
        post.body = Data(PercentEncoding.formEncode(form).utf8)
        let answer = try await h.client.http.send(post)
        #expect(answer.status == 302)
        return try #require(answer.headers["location"])
    }

    static let redirect = "http://localhost:8080/callback"

    /// The simulator's public client, with its consent page and token endpoint.
    static func flow(_ h: ClientHarness, clock: any WallClock = SystemClock()) -> OAuth2Flow {
        OAuth2Flow(
            http: h.client.http, clientID: h.server.configuration.oauth2ClientID, authorizeURL: h.server.baseURL + "/i/oauth2/authorize",
            apiBase: h.server.baseURL, clock: clock)
    }

    @Test func signInRefreshRotateAndRevoke() async throws {
        let h = try await ClientHarness.start()
        defer { Task { await h.stop() } }
        let flow = Self.flow(h)
        let pkce = PKCE.make()
        let state = Crypto.base64URL(Crypto.randomBytes(16))
        let location = try await Self.consent(h, flow.authorizationURL(redirectURI: Self.redirect, state: state, pkce: pkce))
        #expect(location.hasPrefix(Self.redirect + "?"))
        let code = try OAuth2Flow.code(fromPasted: location, state: state)
        let tokens = try await flow.exchange(code: code, redirectURI: Self.redirect, pkce: pkce)
        #expect(tokens.refreshToken != nil && tokens.scopes.contains("offline.access"))
        #expect(tokens.expiresAt > Date().timeIntervalSince1970 + 7000)
        // The code works once.
        await #expect(throws: APIError.self) { _ = try await flow.exchange(code: code, redirectURI: Self.redirect, pkce: pkce) }
        // The token is the demo user's on v2, and nothing on v1.1.
        let user = h.client(auth: .oauth2(accessToken: tokens.accessToken))
        #expect(try await user.v2Me().screenName == h.server.credentials.screenName)
        await #expect(throws: APIError.self) { _ = try await user.verifyCredentials() }
        // Refresh: new tokens; the refresh token used is spent.
        let fresh = try await flow.refresh(tokens.refreshToken!)
        #expect(fresh.accessToken != tokens.accessToken && fresh.refreshToken != tokens.refreshToken)
        await #expect(throws: APIError.self) { _ = try await flow.refresh(tokens.refreshToken!) }
        let again = try await h.client(auth: .oauth2(accessToken: fresh.accessToken)).v2Me()
        #expect(again.id == (try await user.v2Me()).id)
        // Revoked, the token stops working.
        try await flow.revoke(fresh.accessToken)
        do {
            _ = try await h.client(auth: .oauth2(accessToken: fresh.accessToken)).v2Me()
            Issue.record("a revoked token still worked")
        } catch let e as APIError {
            #expect(e.httpStatus == 401)
        }
    }

    @Test func wrongVerifierLateCodeExpiredTokenAndDenial() async throws {
        let h = try await ClientHarness.start()
        defer { Task { await h.stop() } }
        let flow = Self.flow(h)
        let pkce = PKCE.make()
        var code = try OAuth2Flow.code(
            fromPasted: try await Self.consent(h, flow.authorizationURL(redirectURI: Self.redirect, state: "s1", pkce: pkce)), state: "s1")
        do {
            _ = try await flow.exchange(code: code, redirectURI: Self.redirect, pkce: PKCE.make())
            Issue.record("a code was exchanged with another verifier")
        } catch let e as APIError {
            #expect(e.httpStatus == 400 && e.message.contains("code verifier"))
        }
        // A code not exchanged within 30 s is refused (the simulator's clock is moved on).
        code = try OAuth2Flow.code(
            fromPasted: try await Self.consent(h, flow.authorizationURL(redirectURI: Self.redirect, state: "s2", pkce: pkce)), state: "s2")
        _ = try await h.control("POST", "/_sim/clock", body: "offset=31")
        await #expect(throws: APIError.self) { _ = try await flow.exchange(code: code, redirectURI: Self.redirect, pkce: pkce) }
        _ = try await h.control("POST", "/_sim/clock", body: "offset=0")
        // An access token past its 2 hours is refused.
        code = try OAuth2Flow.code(
            fromPasted: try await Self.consent(h, flow.authorizationURL(redirectURI: Self.redirect, state: "s3", pkce: pkce)), state: "s3")
        let tokens = try await flow.exchange(code: code, redirectURI: Self.redirect, pkce: pkce)
        _ = try await h.control("POST", "/_sim/clock", body: "offset=7201")
        await #expect(throws: APIError.self) { _ = try await h.client(auth: .oauth2(accessToken: tokens.accessToken)).v2Me() }
        _ = try await h.control("POST", "/_sim/clock", body: "offset=0")
        // Cancel on the consent page comes back as access_denied.
        let denied = try await Self.consent(h, flow.authorizationURL(redirectURI: Self.redirect, state: "s4", pkce: pkce), cancel: true)
        #expect(throws: AuthFlowError.denied) { try OAuth2Flow.code(fromPasted: denied, state: "s4") }
        // A redirect URI the app did not register is refused on the page.
        let wrong = try await h.client.http.send(
            HTTPRequest(method: "GET", url: flow.authorizationURL(redirectURI: "http://localhost:9999/elsewhere", state: "s5", pkce: pkce)))
        #expect(wrong.status == 400)
    }

    /// The browser comes back to a loopback listener on the registered redirect URI's port.
    @Test func theRedirectIsCaughtOnLoopback() async throws {
        let listener = try CallbackListener(port: 0)
        defer { listener.close() }
        let redirect = "http://127.0.0.1:\(listener.port)/callback"
        let h = try await ClientHarness.start { $0.oauth2RedirectURIs.append(redirect) }
        defer { Task { await h.stop() } }
        let flow = Self.flow(h)
        let pkce = PKCE.make()
        let waiting = Task { try await listener.waitForCode(expectedState: "loop", timeout: 20) }
        let location = try await Self.consent(h, flow.authorizationURL(redirectURI: redirect, state: "loop", pkce: pkce))
        // The browser follows the redirect to the listener.
        let page = try await h.client.http.send(HTTPRequest(method: "GET", url: location))
        #expect(page.status == 200 && String(decoding: page.body, as: UTF8.self).contains("signed in"))
        let code = try await waiting.value
        let tokens = try await flow.exchange(code: code, redirectURI: redirect, pkce: pkce)
        #expect(try await h.client(auth: .oauth2(accessToken: tokens.accessToken)).v2Me().screenName == h.server.credentials.screenName)
    }

    @Test func aRedirectFromAnotherSignInIsRefused() async throws {
        let listener = try CallbackListener(port: 0)
        defer { listener.close() }
        let waiting = Task { try await listener.waitForCode(expectedState: "mine", timeout: 20) }
        let http = HTTPClient()
        let page = try await http.send(HTTPRequest(method: "GET", url: "http://127.0.0.1:\(listener.port)/callback?state=theirs&code=x"))
        #expect(page.status == 400)
        // Refused and ignored: the redirect with our state still ends the wait.
        let ours = try await http.send(HTTPRequest(method: "GET", url: "http://127.0.0.1:\(listener.port)/callback?state=mine&code=y"))
        #expect(ours.status == 200)
        #expect(try await waiting.value == "y")
    }

    /// A confidential client authenticates with HTTP Basic instead of sending its id.
    @Test func confidentialClient() async throws {
        let h = try await ClientHarness.start()
        defer { Task { await h.stop() } }
        let config = h.server.configuration
        let flow = OAuth2Flow(
            http: h.client.http, clientID: config.oauth2ConfidentialClientID, clientSecret: config.oauth2ConfidentialClientSecret,
            authorizeURL: h.server.baseURL + "/i/oauth2/authorize", apiBase: h.server.baseURL)
        let pkce = PKCE.make()
        let code = try OAuth2Flow.code(
            fromPasted: try await Self.consent(h, flow.authorizationURL(redirectURI: Self.redirect, state: "c", pkce: pkce)), state: "c")
        let tokens = try await flow.exchange(code: code, redirectURI: Self.redirect, pkce: pkce)
        #expect(try await h.client(auth: .oauth2(accessToken: tokens.accessToken)).v2Me().screenName == h.server.credentials.screenName)
        let wrongSecret = OAuth2Flow(
            http: h.client.http, clientID: config.oauth2ConfidentialClientID, clientSecret: "nope", apiBase: h.server.baseURL)
        await #expect(throws: APIError.self) { _ = try await wrongSecret.refresh(tokens.refreshToken!) }
    }
}
