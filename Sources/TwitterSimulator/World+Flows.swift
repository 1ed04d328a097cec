import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// The OAuth flows: request token, authorize page, access token (PIN, callback, xAuth, reverse
/// auth), and app-only bearer tokens.
extension World {
    func requestToken(_ request: SimRequest) throws(SimResponse) -> SimResponse {
        guard let header = request.headers["authorization"] else { return .error(400, code: 215, "Bad Authentication data.") }
        let checked = try verifySignature(request, header: header, tokenKind: .none)
        if request.param("x_auth_mode") == "reverse_auth" {
            // The answer is a signed header the app's server hands to the device (step 1).
            let params: [(String, String)] = [
                ("oauth_consumer_key", checked.consumerKey), ("oauth_nonce", OAuthCheck.randomToken(32)),
                ("oauth_signature_method", "HMAC-SHA1"), ("oauth_timestamp", String(now)),
                ("oauth_token", OAuthCheck.randomToken(40)), ("oauth_version", "1.0"),
                ("oauth_signature", OAuthCheck.randomToken(27) + "="),
            ]
            let header = "OAuth " + params.map { "\($0.0)=\"\(FormCoding.encode($0.1))\"" }.joined(separator: ", ")
            reverseAuthHeaders.insert(header)
            return SimResponse(status: 200, headers: [("Content-Type", "text/plain")], body: .bytes(Data(header.utf8)))
        }
        guard let callback = checked.oauth.first(where: { $0.0 == "oauth_callback" })?.1 ?? request.param("oauth_callback")
        else { return .error(401, code: 32, "Could not authenticate you.") }
        let token = OAuthCheck.randomToken(27)
        let secret = OAuthCheck.randomToken(32)
        requestTokens[token] = RequestToken(secret: secret, consumerKey: checked.consumerKey, callback: callback)
        return .form([("oauth_token", token), ("oauth_token_secret", secret), ("oauth_callback_confirmed", "true")])
    }

    /// `GET /oauth/authorize` and `/oauth/authenticate`: a sign-in form.
    func authorizePage(_ request: SimRequest) -> SimResponse {
        guard let token = request.param("oauth_token"), let rt = requestTokens[token] else {
            return .html(403, AuthorizePages.message("This page is no longer valid. Start the sign-in again from the app."))
        }
        let app = consumers[rt.consumerKey]?.name ?? "An app"
        return .html(200, AuthorizePages.form(token: token, appName: app, screenName: request.param("screen_name")))
    }

    /// `POST /oauth/authorize`: the user's answer. Approval redirects to the callback with a
    /// verifier (or shows the PIN for `oob`); denial redirects with `denied`.
    func authorizeAnswer(_ request: SimRequest) -> SimResponse {
        guard let token = request.param("oauth_token"), var rt = requestTokens[token] else {
            return .html(403, AuthorizePages.message("This page is no longer valid. Start the sign-in again from the app."))
        }
        if request.param("cancel") != nil {
            rt.denied = true
            requestTokens[token] = rt
            if rt.callback == "oob" { return .html(200, AuthorizePages.message("You did not authorize the app.")) }
            return redirect(rt.callback, [("denied", token)])
        }
        guard let name = request.param("session[username_or_email]"), let password = request.param("session[password]"),
            let user = user(named: name), OAuthCheck.equal(user.password, password)
        else {
            return .html(
                401,
                AuthorizePages.form(
                    token: token, appName: consumers[rt.consumerKey]?.name ?? "An app",
                    screenName: nil, error: "The username and password did not match."))
        }
        let verifier = rt.callback == "oob" ? String(1_000_000 + rng.next() % 9_000_000) : OAuthCheck.randomToken(32)
        rt.verifier = verifier
        rt.userID = user.id
        requestTokens[token] = rt
        if rt.callback == "oob" { return .html(200, AuthorizePages.pin(verifier)) }
        return redirect(rt.callback, [("oauth_token", token), ("oauth_verifier", verifier)])
    }

    private func redirect(_ callback: String, _ params: [(String, String)]) -> SimResponse {
        let separator = callback.contains("?") ? "&" : "?"
        let location = callback + separator + FormCoding.encode(params)
        return SimResponse(status: 302, headers: [("Location", location)], body: .bytes(Data()))
    }

    func accessToken(_ request: SimRequest) throws(SimResponse) -> SimResponse {
        guard let header = request.headers["authorization"] else { return .error(400, code: 215, "Bad Authentication data.") }
        if request.param("x_auth_mode") == "client_auth" { return try xauth(request, header: header) }
        if let target = request.param("x_reverse_auth_target") { return try reverseAuth(request, header: header, target: target) }
        let checked = try verifySignature(request, header: header, tokenKind: .request)
        guard let token = checked.token, let rt = requestTokens[token] else {
            return .error(401, code: 89, "Invalid or expired token.")
        }
        let verifier = checked.oauth.first { $0.0 == "oauth_verifier" }?.1 ?? request.param("oauth_verifier")
        guard !rt.denied, let userID = rt.userID, let expected = rt.verifier, verifier == expected else {
            return .error(401, code: 32, "Could not authenticate you.")
        }
        requestTokens[token] = nil
        return issueAccessToken(userID: userID, consumerKey: checked.consumerKey, extra: [])
    }

    private func xauth(_ request: SimRequest, header: String) throws(SimResponse) -> SimResponse {
        let checked = try verifySignature(request, header: header, tokenKind: .none)
        guard consumers[checked.consumerKey]?.xauth == true else {
            return .error(403, code: 87, "Client is not permitted to perform this action.")
        }
        guard let name = request.param("x_auth_username"), let password = request.param("x_auth_password"),
            let user = user(named: name), OAuthCheck.equal(user.password, password)
        else { return .error(401, code: 32, "Could not authenticate you.") }
        return issueAccessToken(userID: user.id, consumerKey: checked.consumerKey, extra: [("x_auth_expires", "0")])
    }

    private func reverseAuth(_ request: SimRequest, header: String, target: String) throws(SimResponse) -> SimResponse {
        let checked = try verifySignature(request, header: header, tokenKind: .access)
        guard let step1 = request.param("x_reverse_auth_parameters"), reverseAuthHeaders.contains(step1),
            let parsed = OAuthCheck.parseHeader(step1), parsed.first(where: { $0.0 == "oauth_consumer_key" })?.1 == target,
            consumers[target] != nil, let token = checked.token, let device = accessTokens[token]
        else { return .error(401, code: 32, "Reverse auth credentials are invalid") }
        reverseAuthHeaders.remove(step1)
        return issueAccessToken(userID: device.userID, consumerKey: target, extra: [])
    }

    private func issueAccessToken(userID: UInt64, consumerKey: String, extra: [(String, String)]) -> SimResponse {
        let token = "\(userID)-" + OAuthCheck.randomToken(40)
        let secret = OAuthCheck.randomToken(45)
        accessTokens[token] = AccessToken(secret: secret, userID: userID, consumerKey: consumerKey)
        return .form(
            [
                ("oauth_token", token), ("oauth_token_secret", secret), ("user_id", String(userID)),
                ("screen_name", users[userID]?.screenName ?? ""),
            ] + extra)
    }

    /// Twitter's answer to app credentials it cannot verify (code 99).
    static let credentialsNotVerified = SimResponse.json(
        403,
        .object([
            (
                "errors",
                .array([
                    .object([
                        ("code", .int(99)), ("label", .string("authenticity_token_error")),
                        ("message", .string("Unable to verify your credentials")),
                    ])
                ])
            )
        ]))

    /// `POST /oauth2/token`: one bearer token per app, the same on every call.
    func oauth2Token(_ request: SimRequest) -> SimResponse {
        guard let consumer = basicConsumer(request), request.param("grant_type") == "client_credentials" else {
            return Self.credentialsNotVerified
        }
        return .json(200, .object([("token_type", .string("bearer")), ("access_token", .string(bearer(for: consumer)))]))
    }

    /// The app's bearer token: the demo app's is made with the world, another's when first asked.
    func bearer(for consumer: String) -> String {
        if let existing = bearerByConsumer[consumer] { return existing }
        let token = Self.newBearer()
        bearerByConsumer[consumer] = token
        consumerByBearer[token] = consumer
        return token
    }

    /// A bearer token as X's look: 21 `A`s, then URL-encoded random parts.
    static func newBearer() -> String {
        "AAAAAAAAAAAAAAAAAAAAA" + OAuthCheck.randomToken(20) + "%2F" + OAuthCheck.randomToken(30) + "%3D"
    }

    func oauth2Invalidate(_ request: SimRequest) -> SimResponse {
        guard let consumer = basicConsumer(request), let token = request.param("access_token"),
            bearerByConsumer[consumer] == token
        else {
            return Self.credentialsNotVerified
        }
        bearerByConsumer[consumer] = nil
        consumerByBearer[token] = nil
        return .json(200, .object([("access_token", .string(token))]))
    }

    /// `POST /1.1/oauth/invalidate_token`: revokes the access token that signed it.
    func invalidateAccessToken(_ identity: Identity) -> SimResponse {
        guard case .user(_, _, let token) = identity else {
            return .error(403, code: 220, "Your credentials do not allow access to this resource.")
        }
        accessTokens[token]?.revoked = true
        return .json(200, .object([("access_token", .string(token))]))
    }
}
