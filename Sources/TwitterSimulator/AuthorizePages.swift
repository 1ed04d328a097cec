/// The HTML of the sign-in pages. Values are escaped; the PIN stands in `<code id="pin">`.
enum AuthorizePages {
    static func escape(_ s: String) -> String {
        s.replacingAll("&", with: "&amp;").replacingAll("<", with: "&lt;")
            .replacingAll(">", with: "&gt;").replacingAll("\"", with: "&quot;")
    }

    static func page(_ body: String) -> String {
        "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>Authorize an application</title></head><body>\(body)</body></html>"
    }

    static func form(token: String, appName: String, screenName: String?, error: String? = nil) -> String {
        page(
            """
            <h1>Authorize \(escape(appName)) to use your account?</h1>
            \(error.map { "<p class=\"error\">\(escape($0))</p>" } ?? "")
            <form method="post" action="/oauth/authorize">
            <input type="hidden" name="oauth_token" value="\(escape(token))">
            <label>Username <input name="session[username_or_email]" value="\(escape(screenName ?? ""))"></label>
            <label>Password <input type="password" name="session[password]"></label>
            <input type="submit" name="allow" value="Authorize app">
            <input type="submit" name="cancel" value="Cancel">
            </form>
            """)
    }

    static func pin(_ pin: String) -> String {
        page(
            "<h1>You've granted access.</h1><p>Next, return to the app and enter this PIN to complete the authorization process:</p><code id=\"pin\">\(escape(pin))</code>"
        )
    }

    static func message(_ text: String) -> String { page("<p>\(escape(text))</p>") }

    /// The OAuth 2.0 consent page: the same sign-in, posting back the pending request's id.
    static func oauth2Form(request: String, appName: String, scopes: [String], error: String? = nil) -> String {
        page(
            """
            <h1>\(escape(appName)) wants to access your account</h1>
            <p>It asks for: \(escape(scopes.joined(separator: ", ")))</p>
            \(error.map { "<p class=\"error\">\(escape($0))</p>" } ?? "")
            <form method="post" action="/i/oauth2/authorize">
            <input type="hidden" name="request" value="\(escape(request))">
            <label>Username <input name="session[username_or_email]"></label>
            <label>Password <input type="password" name="session[password]"></label>
            <input type="submit" name="allow" value="Authorize app">
            <input type="submit" name="cancel" value="Cancel">
            </form>
            """)
    }
}
