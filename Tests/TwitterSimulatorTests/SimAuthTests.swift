import Foundation
import LinnetTestSupport
import Testing
import TwitterAPI

@testable import TwitterSimulator

/// OAuth 1.0a verification, bearer tokens and every sign-in flow, over real HTTP.
@Suite(.serialized) struct SimAuthTests {
    @Test func signedRequestIsAcceptedAndUnsignedOnesAreNot() async throws {
        let sim = try await SimHarness.start()
        defer { Task { await sim.stop() } }
        let ok = try await sim.call("GET", "/1.1/account/verify_credentials.json")
        #expect(ok.status == 200)
        #expect(try sim.json(ok)["screen_name"]?.stringValue == "linnet_demo")

        let none = try await sim.raw("GET", "/1.1/account/verify_credentials.json")
        #expect(none.status == 400 && sim.errorCode(none) == 215)

        var wrongSecret = sim.credentials
        wrongSecret.tokenSecret = "not-the-secret"
        let bad = try await sim.call("GET", "/1.1/account/verify_credentials.json", credentials: wrongSecret)
        #expect(bad.status == 401 && sim.errorCode(bad) == 32)

        var unknownToken = sim.credentials
        unknownToken.token = "123-unknown"
        let unknown = try await sim.call("GET", "/1.1/account/verify_credentials.json", credentials: unknownToken)
        #expect(unknown.status == 401 && sim.errorCode(unknown) == 89)

        var unknownConsumer = sim.credentials
        unknownConsumer.consumerKey = "nobody"
        let noApp = try await sim.call("GET", "/1.1/account/verify_credentials.json", credentials: unknownConsumer)
        #expect(noApp.status == 401 && sim.errorCode(noApp) == 32)
    }

    @Test func queryAndFormParametersAreBothSigned() async throws {
        let sim = try await SimHarness.start()
        defer { Task { await sim.stop() } }
        // Parameters in the query of a POST (as tweepy sends them) and in the body.
        let text = "Ünïcödé & spaces + plus ☃ \(UUID().uuidString.prefix(6))"
        let target = "/1.1/statuses/update.json?status=" + PercentEncoding.encode(text)
        let auth = try OAuth1Signer().authorizationHeader(method: "POST", url: sim.base + target, credentials: sim.credentials)
        let viaQuery = try await sim.raw("POST", target, headers: [("Authorization", auth)])
        #expect(viaQuery.status == 200)
        #expect(try sim.json(viaQuery)["text"]?.stringValue == text.replacingOccurrences(of: "&", with: "&amp;"))
        let viaBody = try await sim.call("POST", "/1.1/statuses/update.json", [("status", text + " again")])
        #expect(viaBody.status == 200)
    }

    @Test func staleTimestampAndReplayedNonceAreRefused() async throws {
        let sim = try await SimHarness.start()
        defer { Task { await sim.stop() } }
        let stale = OAuth1Signer(clockOffset: -3600)
        let r = try await sim.call("GET", "/1.1/account/verify_credentials.json", signer: stale)
        #expect(r.status == 401 && sim.errorCode(r) == 135)
        #expect(r.headers["date"] != nil)

        // RFC 5849: a nonce must be unique per timestamp, consumer and token.
        let moment = Int64(Date().timeIntervalSince1970)
        let fixed = OAuth1Signer(nonce: { "same-nonce" }, timestamp: { moment })
        let first = try await sim.call("GET", "/1.1/account/verify_credentials.json", signer: fixed)
        let replay = try await sim.call("GET", "/1.1/account/verify_credentials.json", signer: fixed)
        #expect(first.status == 200)
        #expect(replay.status == 401 && sim.errorCode(replay) == 32)
    }

    @Test func bearerTokenReadsSearchButNotHomeAndCanBeInvalidated() async throws {
        let sim = try await SimHarness.start()
        defer { Task { await sim.stop() } }
        let c = sim.server.credentials
        let basic = "Basic " + AppOnlyAuth.basicCredential(consumerKey: c.consumerKey, consumerSecret: c.consumerSecret)
        let form = [("Authorization", basic), ("Content-Type", "application/x-www-form-urlencoded;charset=UTF-8")]
        let tokenResponse = try await sim.raw("POST", "/oauth2/token", headers: form, body: Data("grant_type=client_credentials".utf8))
        #expect(tokenResponse.status == 200)
        let body = try sim.json(tokenResponse)
        #expect(body["token_type"]?.stringValue == "bearer")
        let token = try #require(body["access_token"]?.stringValue)
        let again = try sim.json(
            try await sim.raw("POST", "/oauth2/token", headers: form, body: Data("grant_type=client_credentials".utf8)))
        #expect(again["access_token"]?.stringValue == token)

        let bearer = [("Authorization", "Bearer " + token)]
        let search = try await sim.raw("GET", "/1.1/search/tweets.json?q=the", headers: bearer)
        #expect(search.status == 200)
        let timeline = try await sim.raw("GET", "/1.1/statuses/user_timeline.json?screen_name=ada", headers: bearer)
        #expect(timeline.status == 200)
        let home = try await sim.raw("GET", "/1.1/statuses/home_timeline.json", headers: bearer)
        #expect(home.status == 403 && sim.errorCode(home) == 220)
        let post = try await sim.raw("POST", "/1.1/statuses/update.json?status=hi", headers: bearer)
        #expect(post.status == 403 && sim.errorCode(post) == 220)

        let badGrant = try await sim.raw(
            "POST", "/oauth2/token", headers: [("Authorization", "Basic eDp5")], body: Data("grant_type=client_credentials".utf8))
        #expect(badGrant.status == 403 && sim.errorCode(badGrant) == 99)

        let invalidate = try await sim.raw(
            "POST", "/oauth2/invalidate_token", headers: form, body: Data(("access_token=" + PercentEncoding.encode(token)).utf8))
        #expect(invalidate.status == 200)
        let after = try await sim.raw("GET", "/1.1/search/tweets.json?q=the", headers: bearer)
        #expect(after.status == 401 && sim.errorCode(after) == 89)
    }

    /// request_token → authorize page → sign in → PIN → access_token → a working token.
    @Test func pinFlow() async throws {
        let sim = try await SimHarness.start()
        defer { Task { await sim.stop() } }
        let app = OAuthCredentials(consumerKey: sim.credentials.consumerKey, consumerSecret: sim.credentials.consumerSecret)
        let rt = try await sim.call("POST", "/oauth/request_token", credentials: app, extraOAuth: [("oauth_callback", "oob")])
        #expect(rt.status == 200)
        let pairs = Dictionary(uniqueKeysWithValues: PercentEncoding.parseForm(rt.text))
        let token = try #require(pairs["oauth_token"])
        let secret = try #require(pairs["oauth_token_secret"])
        #expect(pairs["oauth_callback_confirmed"] == "true")

        let page = try await sim.raw("GET", "/oauth/authorize?oauth_token=\(token)")
        #expect(page.status == 200 && page.text.contains("session[password]"))
        let wrong = try await sim.raw(
            "POST", "/oauth/authorize", headers: [("Content-Type", "application/x-www-form-urlencoded")],
            body: Data("oauth_token=\(token)&session%5Busername_or_email%5D=linnet_demo&session%5Bpassword%5D=nope&allow=1".utf8))
        #expect(wrong.status == 401 && wrong.text.contains("did not match"))
        let approved = try await sim.raw(
            "POST", "/oauth/authorize", headers: [("Content-Type", "application/x-www-form-urlencoded")],
            body: Data("oauth_token=\(token)&session%5Busername_or_email%5D=linnet_demo&session%5Bpassword%5D=linnet-demo&allow=1".utf8))
        let pin = try #require(
            approved.text.range(of: #"<code id="pin">(\d+)</code>"#, options: .regularExpression).map {
                String(approved.text[$0]).filter(\.isNumber)
            })
        #expect(pin.count == 7)

        let requestCreds = OAuthCredentials(
            consumerKey: app.consumerKey, consumerSecret: app.consumerSecret, token: token, tokenSecret: secret)
        let badPin = try await sim.call(
            "POST", "/oauth/access_token", credentials: requestCreds, extraOAuth: [("oauth_verifier", "0000000")])
        #expect(badPin.status == 401)
        let access = try await sim.call("POST", "/oauth/access_token", credentials: requestCreds, extraOAuth: [("oauth_verifier", pin)])
        #expect(access.status == 200)
        let result = Dictionary(uniqueKeysWithValues: PercentEncoding.parseForm(access.text))
        #expect(result["screen_name"] == "linnet_demo")
        let user = OAuthCredentials(
            consumerKey: app.consumerKey, consumerSecret: app.consumerSecret, token: result["oauth_token"],
            tokenSecret: result["oauth_token_secret"])
        #expect(try await sim.call("GET", "/1.1/account/verify_credentials.json", credentials: user).status == 200)
        // The PIN is single-use.
        #expect(
            try await sim.call("POST", "/oauth/access_token", credentials: requestCreds, extraOAuth: [("oauth_verifier", pin)]).status
                == 401)
    }

    @Test func callbackFlowRedirectsWithVerifierOrDenied() async throws {
        let sim = try await SimHarness.start()
        defer { Task { await sim.stop() } }
        let app = OAuthCredentials(consumerKey: sim.credentials.consumerKey, consumerSecret: sim.credentials.consumerSecret)
        for deny in [false, true] {
            let rt = try await sim.call(
                "POST", "/oauth/request_token", credentials: app, extraOAuth: [("oauth_callback", "http://127.0.0.1:9/cb")])
            let token = try #require(Dictionary(uniqueKeysWithValues: PercentEncoding.parseForm(rt.text))["oauth_token"])
            let answer = deny ? "cancel=1" : "session%5Busername_or_email%5D=ada&session%5Bpassword%5D=password&allow=1"
            let r = try await sim.raw(
                "POST", "/oauth/authorize", headers: [("Content-Type", "application/x-www-form-urlencoded")],
                body: Data("oauth_token=\(token)&\(answer)".utf8))
            #expect(r.status == 302)
            let location = try #require(r.headers["location"])
            #expect(location.hasPrefix("http://127.0.0.1:9/cb?"))
            if deny {
                #expect(location.contains("denied=\(token)"))
            } else {
                #expect(location.contains("oauth_token=\(token)") && location.contains("oauth_verifier="))
            }
        }
    }

    @Test func xauthNeedsAnEnabledConsumerAndTheRightPassword() async throws {
        let sim = try await SimHarness.start()
        defer { Task { await sim.stop() } }
        let c = sim.server.credentials
        let xauthApp = OAuthCredentials(consumerKey: c.xauthConsumerKey, consumerSecret: c.xauthConsumerSecret)
        let plainApp = OAuthCredentials(consumerKey: c.consumerKey, consumerSecret: c.consumerSecret)
        func exchange(_ app: OAuthCredentials, _ password: String) async throws -> RawHTTP.Response {
            try await sim.call(
                "POST", "/oauth/access_token",
                [
                    ("x_auth_username", "linnet_demo"), ("x_auth_password", password), ("x_auth_mode", "client_auth"),
                ], credentials: app)
        }
        let ok = try await exchange(xauthApp, c.password)
        #expect(ok.status == 200 && ok.text.contains("x_auth_expires=0") && ok.text.contains("screen_name=linnet_demo"))
        let wrong = try await exchange(xauthApp, "guess")
        #expect(wrong.status == 401)
        let notAllowed = try await exchange(plainApp, c.password)
        #expect(notAllowed.status == 403 && sim.errorCode(notAllowed) == 87)
    }

    @Test func reverseAuthTwoSteps() async throws {
        let sim = try await SimHarness.start()
        defer { Task { await sim.stop() } }
        let c = sim.server.credentials
        let app = OAuthCredentials(consumerKey: c.consumerKey, consumerSecret: c.consumerSecret)
        let step1 = try await sim.call("POST", "/oauth/request_token", [("x_auth_mode", "reverse_auth")], credentials: app)
        #expect(step1.status == 200 && step1.text.hasPrefix("OAuth "))
        // Step 2 is signed by the device's own account (here: a token of the xAuth app).
        let device = OAuthCredentials(consumerKey: c.xauthConsumerKey, consumerSecret: c.xauthConsumerSecret)
        let deviceTokens = Dictionary(
            uniqueKeysWithValues: PercentEncoding.parseForm(
                try await sim.call(
                    "POST", "/oauth/access_token",
                    [("x_auth_username", "linnet_demo"), ("x_auth_password", c.password), ("x_auth_mode", "client_auth")],
                    credentials: device
                ).text))
        var deviceUser = device
        deviceUser.token = deviceTokens["oauth_token"]
        deviceUser.tokenSecret = deviceTokens["oauth_token_secret"]
        let step2 = try await sim.call(
            "POST", "/oauth/access_token",
            [
                ("x_reverse_auth_target", c.consumerKey), ("x_reverse_auth_parameters", step1.text),
            ], credentials: deviceUser)
        #expect(step2.status == 200)
        let tokens = Dictionary(uniqueKeysWithValues: PercentEncoding.parseForm(step2.text))
        let mine = OAuthCredentials(
            consumerKey: c.consumerKey, consumerSecret: c.consumerSecret, token: tokens["oauth_token"],
            tokenSecret: tokens["oauth_token_secret"])
        #expect(try await sim.call("GET", "/1.1/account/verify_credentials.json", credentials: mine).status == 200)
        let reused = try await sim.call(
            "POST", "/oauth/access_token",
            [
                ("x_reverse_auth_target", c.consumerKey), ("x_reverse_auth_parameters", step1.text),
            ], credentials: deviceUser)
        #expect(reused.status == 401)
    }

    @Test func revokedAccessTokenIsRefused() async throws {
        let sim = try await SimHarness.start()
        defer { Task { await sim.stop() } }
        #expect(try await sim.call("POST", "/1.1/oauth/invalidate_token.json").status == 200)
        let after = try await sim.call("GET", "/1.1/account/verify_credentials.json")
        #expect(after.status == 401 && sim.errorCode(after) == 89)
    }
}
