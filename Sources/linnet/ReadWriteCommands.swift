import ArgumentParser
import Foundation
import LinnetCore
import TweetText
import TwitterAPI

/// `linnet post TEXT`.
struct PostCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "post", abstract: "Post a tweet (or a reply); `-` reads the text from stdin.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The text, or - to read it from stdin.") var text: String
    @Option(help: "The id of the tweet to reply to.") var replyTo: String?
    @Flag(help: "Print the weighted length and what remains, and post nothing.") var dryRun = false

    func run() async throws {
        var body = text
        if text == "-" {
            let data = FileHandle.standardInput.readDataToEndOfFile()
            guard let s = String(data: data, encoding: .utf8) else { throw CLIError("stdin is not UTF-8 text.") }
            body = s.hasSuffix("\n") ? String(s.dropLast()) : s
        }
        let length = TweetLength(body)
        let remaining = length.remaining()
        if dryRun {
            print("weighted length \(length.weightedLength), \(remaining) remaining" + (length.isValid ? "" : " (not postable)"))
            if !length.isValid { throw CLIError(Reducer.refusal(body) ?? "not postable") }
            return
        }
        if let why = Reducer.refusal(body) { throw CLIError(why + " (weighted length \(length.weightedLength) of 280)") }
        let reply = try replyTo.map { r -> TweetID in
            guard let id = TweetID(r) else { throw CLIError("--reply-to takes a tweet id (digits), not \(r).", code: .usage) }
            return id
        }
        do {
            let (client, _) = try global.client()
            let id: TweetID
            if client.api == .v2 {
                id = try await client.v2Create(text: body, replyTo: reply)
            } else {
                // Twitter drops in_reply_to_status_id unless the reply mentions the author; let it add them.
                id = try await client.update(body, inReplyTo: reply, autoPopulateReplyMetadata: true).id
            }
            print("Posted \(id)" + (reply.map { " in reply to \($0)" } ?? "") + ".")
        } catch { throw CLIError.from(error) }
    }
}

/// Prints tweets as JSON lines or a readable listing.
func printTweets(_ data: Data, statusesKey: String? = nil, json: Bool) throws {
    var value = try JSONValue.parse(data)
    if let k = statusesKey, let inner = value[k] { value = inner }
    guard case .array(let items) = value else { throw CLIError("The answer was not a list of tweets.") }
    if json {
        for item in items { print(item.serialized) }
        return
    }
    printListing(try V1Decoder().timeline(from: Data(value.serialized.utf8)).tweets)
}

/// Prints an API v2 answer's posts as JSON lines (the `data` items, as the API gave them) or a
/// readable listing (joined with their includes).
func printPosts(_ data: Data, json: Bool) throws {
    if json {
        if case .array(let items)? = try JSONValue.parse(data)["data"] { for item in items { print(item.serialized) } }
        return
    }
    let page = try V2Decoder().posts(from: data)
    for e in page.errors { FileHandle.standardError.write(Data("linnet: \(Sanitizer.visible(e.description, keepNewlines: false))\n".utf8)) }
    printListing(page.tweets)
}

/// The readable form: author, age and id, then the text, for each tweet.
func printListing(_ tweets: [Tweet]) {
    let now = Date().timeIntervalSince1970
    for t in tweets {
        let c = t.content
        let rt = t.retweetedStatus != nil ? "  (retweeted by @\(TweetCard.clean(t.user.screenName)))" : ""
        print("@\(TweetCard.clean(c.user.screenName)) · \(Format.age(created: c.createdAt, now: now)) · \(t.id)\(rt)")
        for line in c.displayText.text.split(separator: "\n", omittingEmptySubsequences: false) { print("  " + line) }
        print("")
    }
}

/// `linnet timeline [home|mentions|user NAME]`.
struct TimelineCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "timeline", abstract: "Print a timeline: home, mentions, or user NAME.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "home, mentions or user.") var which: String = "home"
    @Argument(help: "The screen name, for user.") var name: String?
    @Option(help: "How many tweets (1–200).") var count = 20
    @Flag(help: "One JSON object per line, as the API gave it.") var json = false

    func run() async throws {
        guard (1...200).contains(count) else { throw CLIError("--count takes 1 to 200.", code: .usage) }
        var params = [("count", String(count)), ("tweet_mode", "extended")]
        let path: String
        switch which {
        case "home": path = "statuses/home_timeline"
        case "mentions": path = "statuses/mentions_timeline"
        case "user":
            guard let name else { throw CLIError("`linnet timeline user` needs a screen name.", code: .usage) }
            path = "statuses/user_timeline"
            params.append(("screen_name", name.hasPrefix("@") ? String(name.dropFirst()) : name))
        default: throw CLIError("Unknown timeline \"\(which)\": use home, mentions or user NAME.", code: .usage)
        }
        do {
            let (client, account) = try global.client()
            if client.api == .v2 {
                // v2 names users by id: a user's posts are searched for with from:. The
                // signed-in user's id is asked for only when neither the account nor the
                // token names it (each request is billed on pay-per-use).
                let known = account?.userID.flatMap(UserID.init) ?? client.auth.tokenUserID
                var me: UserID?
                if which != "user" {
                    if let known { me = known } else { me = try await client.v2Me().id }
                }
                let paging = [("max_results", String(max(which == "user" ? 10 : 5, min(100, count))))] + TwitterClient.V2Query.posts
                let data: Data
                switch which {
                case "home": data = try await client.call("GET", "/2/users/\(me!)/timelines/reverse_chronological", paging)
                case "mentions": data = try await client.call("GET", "/2/users/\(me!)/mentions", paging)
                default:
                    let who = name.map { $0.hasPrefix("@") ? String($0.dropFirst()) : $0 } ?? ""
                    data = try await client.call("GET", "/2/tweets/search/recent", [("query", "from:" + who)] + paging)
                }
                try printPosts(data, json: json)
                return
            }
            try printTweets(try await client.call("GET", path, params), json: json)
        } catch { throw CLIError.from(error) }
    }
}

/// `linnet search QUERY`.
struct SearchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "search", abstract: "Search recent tweets.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The query (Twitter's search operators work).") var query: String
    @Option(help: "How many tweets (1–100).") var count = 20
    @Flag(help: "One JSON object per line, as the API gave it.") var json = false

    func run() async throws {
        guard (1...100).contains(count) else { throw CLIError("--count takes 1 to 100.", code: .usage) }
        do {
            let (client, _) = try global.client()
            if client.api == .v2 {
                let data = try await client.call(
                    "GET", "/2/tweets/search/recent",
                    [("query", query), ("max_results", String(max(10, count)))] + TwitterClient.V2Query.posts)
                try printPosts(data, json: json)
                return
            }
            let data = try await client.call(
                "GET", "search/tweets", [("q", query), ("count", String(count)), ("result_type", "recent"), ("tweet_mode", "extended")])
            try printTweets(data, statusesKey: "statuses", json: json)
        } catch { throw CLIError.from(error) }
    }
}

/// `linnet api METHOD PATH [key=value …]`: any endpoint, signed, JSON out.
struct APICommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "api", abstract: "Call any v1.1 endpoint (GET statuses/show id=20) and print its JSON.",
        discussion: "Exit status 0 for a 2xx answer; otherwise the error is printed and the status says what kind.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "GET, POST or DELETE.") var method: String
    @Argument(help: "The path, as statuses/home_timeline or /1.1/statuses/home_timeline.json.") var path: String
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
            let client = appOnly ? try global.appOnlyClient() : try global.client().0
            let r = try await client.send(m, path, params)
            if (200..<300).contains(r.status) {
                if raw {
                    FileHandle.standardOutput.write(r.body)
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
