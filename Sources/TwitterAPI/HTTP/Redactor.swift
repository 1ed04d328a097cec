/// Removes secrets from what `--trace` prints: Authorization values, tokens and secrets in
/// URLs and form or JSON bodies, passwords, bearer tokens.
public enum Redactor {
    static let secretNames = [
        "oauth_token", "oauth_token_secret", "oauth_signature", "oauth_verifier", "x_auth_password",
        "access_token", "password", "oauth_consumer_key", "x_reverse_auth_parameters", "session[password]",
        "session%5Bpassword%5D",
    ]

    /// A header value, hidden when it carries credentials.
    public static func header(_ name: String, _ value: String) -> String {
        switch name.lowercased() {
        case "authorization", "proxy-authorization", "cookie", "set-cookie":
            let scheme = value.split(separator: " ").first.map(String.init) ?? ""
            return scheme.isEmpty ? "[redacted]" : "\(scheme) [redacted]"
        default:
            return value
        }
    }

    /// A URL with secret query values replaced.
    public static func url(_ url: String) -> String {
        guard let q = url.firstIndex(of: "?") else { return url }
        return String(url[...q]) + form(String(url[url.index(after: q)...]))
    }

    /// A body: form pairs and JSON string values of secret names are replaced.
    public static func body(_ text: String) -> String {
        var out = text
        if out.contains("=") && !out.hasPrefix("{") && !out.hasPrefix("[") { out = form(out) }
        for name in secretNames {
            out = replaceJSONValue(named: name, in: out)
        }
        if out.hasPrefix("OAuth ") { return "OAuth [redacted]" }
        return out
    }

    static func form(_ text: String) -> String {
        text.split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
            guard let eq = pair.firstIndex(of: "=") else { return String(pair) }
            let name = PercentEncoding.decode(String(pair[..<eq]), plusIsSpace: true)
            return secretNames.contains(name) ? "\(pair[..<eq])=[redacted]" : String(pair)
        }.joined(separator: "&")
    }

    private static func replaceJSONValue(named name: String, in text: String) -> String {
        let key = "\"\(name)\""
        var out = ""
        var rest = Substring(text)
        while let r = rest.scalarRange(of: key) {
            out += rest[..<r.upperBound]
            rest = rest[r.upperBound...]
            // Skip `:` and spaces, then replace a string value.
            var i = rest.startIndex
            while i < rest.endIndex, rest[i] == ":" || rest[i] == " " { i = rest.index(after: i) }
            guard i < rest.endIndex, rest[i] == "\"" else { continue }
            var j = rest.index(after: i)
            while j < rest.endIndex, rest[j] != "\"" {
                if rest[j] == "\\" { j = rest.index(after: j) }
                if j < rest.endIndex { j = rest.index(after: j) }
            }
            out += rest[rest.startIndex..<i] + "\"[redacted]\""
            rest = j < rest.endIndex ? rest[rest.index(after: j)...] : rest[rest.endIndex...]
        }
        return out + rest
    }
}
