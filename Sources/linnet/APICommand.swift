import ArgumentParser
import Bedrock
import FoundationEssentials
import LinnetCore
import Timeline
import TweetText
import TwitterAPI

#if canImport(Glibc)
    import Glibc
#endif

/// `linnet api METHOD PATH [key=value …]`: any endpoint, signed, JSON out.
struct APICommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "api", abstract: "Call any X API endpoint, v2 or v1.1, and print its JSON.",
        discussion: """
            v2: linnet api GET /2/users/me user.fields=public_metrics
            v1.1: linnet api GET statuses/show id=20
            Exit status 0 for a 2xx answer; otherwise the error is printed and the status says what kind.
            """)
    @OptionGroup var global: GlobalOptions
    @Argument(help: "GET, POST or DELETE.", completion: .list(["GET", "POST", "DELETE", "PUT"])) var method: String
    @Argument(help: "The path, as /2/users/me, or statuses/home_timeline or /1.1/statuses/home_timeline.json.") var path: String
    @Argument(help: "Parameters as key=value.") var parameters: [String] = []
    @Flag(help: "Use the app's bearer token (LINNET_BEARER_TOKEN or an app-only account) instead of a user.") var appOnly = false
    @Flag(help: "Write the body exactly as it came (for a body that is not JSON or text); best sent to a file.") var raw = false

    func run() async throws {
        let m = method.uppercased()
        guard ["GET", "POST", "DELETE", "PUT"].contains(m) else {
            throw CLIError("METHOD is GET, POST, PUT or DELETE, not \(method).", code: .usage)
        }
        var params: [(String, String)] = []
        for p in parameters {
            guard let eq = p.firstIndex(of: "=") else { throw CLIError("Parameters are key=value, not \(p).", code: .usage) }
            params.append((String(p[..<eq]), String(p[p.index(after: eq)...])))
        }
        do {
            let (client, account) = appOnly ? (try global.appOnlyClient(), nil) : try global.client()
            // Reads of the account's own mentions, posts and likes are owned reads.
            if let me = account?.userID.flatMap(UserID.init) ?? client.auth.tokenUserID { client.usage?.identify(me) }
            let r = try await client.send(m, path, params)
            if (200..<300).contains(r.status) {
                // Billed where it was sent, like every call; kept for the next command.
                try? client.usage?.persist()
                if raw {
                    guard Stream.write(1, r.body) else {
                        throw CLIError("The answer could not all be written to standard output (\(String(cString: strerror(errno)))).")
                    }
                } else if let json = try? JSONValue.parse(r.body) {
                    print(json.pretty)
                } else if let text = String(validating: r.body, as: UTF8.self), !text.unicodeScalars.contains(where: { $0.value == 0 }) {
                    print(Sanitizer.visible(text))
                } else {
                    throw CLIError(
                        "The answer is \(r.body.count) bytes that are not text; add --raw to write them as they are (to a file: --raw > answer.bin).",
                        code: .error)
                }
            } else {
                throw APIError(httpStatus: r.status, body: r.body)
            }
        } catch { throw CLIError.from(error) }
    }
}
