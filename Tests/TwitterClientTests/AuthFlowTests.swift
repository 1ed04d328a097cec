import Foundation
import LinnetTestSupport
import Testing
import TwitterAPI
import TwitterSimulator

/// Every sign-in flow end to end against the simulator, the user's part played by HTTP requests.
@Suite(.serialized) struct AuthFlowTests {
    func flows(_ h: ClientHarness, xauth: Bool = false) -> OAuthFlows {
        let c = h.server.credentials
        return OAuthFlows(
            http: h.client.http, apiBase: h.server.baseURL, consumerKey: xauth ? c.xauthConsumerKey : c.consumerKey,
            consumerSecret: xauth ? c.xauthConsumerSecret : c.consumerSecret)
    }

    /// What a person does on the authorize page: sign in, or cancel.
    func answer(_ h: ClientHarness, _ token: String, approve: Bool, user: String = "linnet_demo", password: String = "linnet-demo")
        async throws -> HTTPResponse
    {
        let form =
            approve
            ? [("oauth_token", token), ("session[username_or_email]", user), ("session[password]", password), ("allow", "1")]
            : [("oauth_token", token), ("cancel", "1")]
        var r = HTTPRequest(
            method: "POST", url: h.server.baseURL + "/oauth/authorize", headers: [("Content-Type", "application/x-www-form-urlencoded")])
        r.body = Data(PercentEncoding.formEncode(form).utf8)
        return try await h.client.http.send(r)
    }

    func verify(_ h: ClientHarness, _ grant: AccessGrant, consumer: (String, String)) async throws -> User {
        let client = h.client(
            auth: .user(
                OAuthCredentials(consumerKey: consumer.0, consumerSecret: consumer.1, token: grant.token, tokenSecret: grant.tokenSecret)))
        return try await client.verifyCredentials()
    }

    @Test func pinFlow() async throws {
        let h = try await ClientHarness.start()
        defer { Task { await h.stop() } }
        let f = flows(h)
        let pending = try await f.requestToken(callback: "oob")
        #expect(pending.authorizeURL.hasPrefix(h.server.baseURL + "/oauth/authorize?oauth_token="))
        let page = try await h.client.http.send(HTTPRequest(method: "GET", url: pending.authorizeURL))
        #expect(page.status == 200)
        let html = String(decoding: try await answer(h, pending.token, approve: true).body, as: UTF8.self)
        let pin = try #require(
            html.range(of: #"<code id="pin">\d+</code>"#, options: .regularExpression).map { String(html[$0]).filter(\.isNumber) })
        let grant = try await f.accessToken(pending, verifier: " \(pin)\n")
        #expect(grant.screenName == "linnet_demo" && grant.userID == UserID(h.server.credentials.userID))
        #expect(try await verify(h, grant, consumer: (f.consumerKey, f.consumerSecret)).screenName == "linnet_demo")
        await #expect(throws: AuthFlowError.self) { try await f.accessToken(pending, verifier: pin) }
    }

    @Test func browserFlowThroughTheLoopbackListener() async throws {
        let h = try await ClientHarness.start()
        defer { Task { await h.stop() } }
        let f = flows(h)
        let listener = try CallbackListener()
        defer { listener.close() }
        let pending = try await f.requestToken(callback: listener.callbackURL)
        async let verifier = listener.waitForVerifier(expectedToken: pending.token, timeout: 10)
        let redirect = try await answer(h, pending.token, approve: true, user: "ada", password: "password")
        #expect(redirect.status == 302)
        let location = try #require(redirect.headers["location"])
        #expect(location.hasPrefix(listener.callbackURL))
        // The browser follows the redirect to the listener, which answers with a short page.
        let landing = try await h.client.http.send(HTTPRequest(method: "GET", url: location))
        #expect(landing.status == 200 && String(decoding: landing.body, as: UTF8.self).contains("signed in"))
        let grant = try await f.accessToken(pending, verifier: try await verifier)
        #expect(grant.screenName == "ada")
    }

    @Test func browserFlowDeniedWrongTokenAndTimeout() async throws {
        let h = try await ClientHarness.start()
        defer { Task { await h.stop() } }
        let f = flows(h)
        let listener = try CallbackListener()
        let pending = try await f.requestToken(callback: listener.callbackURL)
        let denied = Task { try await listener.waitForVerifier(expectedToken: pending.token, timeout: 10) }
        let redirect = try await answer(h, pending.token, approve: false)
        _ = try await h.client.http.send(HTTPRequest(method: "GET", url: try #require(redirect.headers["location"])))
        await #expect(throws: AuthFlowError.denied) { try await denied.value }
        listener.close()

        let other = try CallbackListener()
        defer { other.close() }
        let wrong = Task { try await other.waitForVerifier(expectedToken: "the-token-we-issued", timeout: 10) }
        let forged = try await h.client.http.send(
            HTTPRequest(method: "GET", url: other.callbackURL + "?oauth_token=someone-else&oauth_verifier=x"))
        #expect(forged.status == 400)
        // Refused and ignored: only the token this session issued ends the wait.
        let real = try await h.client.http.send(
            HTTPRequest(method: "GET", url: other.callbackURL + "?oauth_token=the-token-we-issued&oauth_verifier=v"))
        #expect(real.status == 200)
        #expect(try await wrong.value == "v")

        let idle = try CallbackListener()
        defer { idle.close() }
        await #expect(throws: AuthFlowError.timedOut(0.5)) { try await idle.waitForVerifier(expectedToken: "t", timeout: 0.5) }
    }

    @Test func xauthAndItsRefusals() async throws {
        let h = try await ClientHarness.start()
        defer { Task { await h.stop() } }
        let c = h.server.credentials
        let grant = try await flows(h, xauth: true).xauth(username: "linnet_demo", password: c.password)
        #expect(grant.screenName == "linnet_demo")
        #expect(try await verify(h, grant, consumer: (c.xauthConsumerKey, c.xauthConsumerSecret)).screenName == "linnet_demo")
        do {
            _ = try await flows(h, xauth: false).xauth(username: "linnet_demo", password: c.password)
            Issue.record("a consumer without xAuth must be refused")
        } catch let e as AuthFlowError {
            #expect(e.description.contains("not permitted") || e.description.contains("xAuth"))
        }
        await #expect(throws: AuthFlowError.self) { try await flows(h, xauth: true).xauth(username: "linnet_demo", password: "wrong") }
    }

    @Test func reverseAuth() async throws {
        let h = try await ClientHarness.start()
        defer { Task { await h.stop() } }
        let c = h.server.credentials
        let header = try await flows(h).reverseAuthParameters()
        #expect(header.hasPrefix("OAuth "))
        let device = try await flows(h, xauth: true).xauth(username: "linnet_demo", password: c.password)
        let deviceCreds = OAuthCredentials(
            consumerKey: c.xauthConsumerKey, consumerSecret: c.xauthConsumerSecret, token: device.token, tokenSecret: device.tokenSecret)
        let grant = try await flows(h, xauth: true).reverseAuthExchange(
            parameters: header, targetConsumerKey: c.consumerKey, deviceToken: deviceCreds)
        #expect(try await verify(h, grant, consumer: (c.consumerKey, c.consumerSecret)).screenName == "linnet_demo")
    }
}
