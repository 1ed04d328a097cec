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

/// `linnet post TEXT`.
struct PostCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "post", abstract: "Post a tweet (or a reply); `-` reads the text from stdin.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The text, or - to read it from stdin.") var text: String
    @Option(help: "The id of the tweet to reply to.") var replyTo: String?
    @Option(
        name: .customLong("media"), help: ArgumentHelp("A photo, GIF or video to attach (up to 4 photos; repeatable).", valueName: "file"))
    var media: [String] = []
    @Option(
        name: .customLong("alt"), help: ArgumentHelp("Alt text for the --media file in the same place (repeatable).", valueName: "text"))
    var alt: [String] = []
    @Flag(help: "Print the weighted length and what remains, and post nothing.") var dryRun = false

    func run() async throws {
        var body = text
        if text == "-" {
            guard let data = Stream.readAll(0) else { throw CLIError("stdin could not be read.") }
            guard let s = String(validating: data, as: UTF8.self) else { throw CLIError("stdin is not UTF-8 text.") }
            body = s.hasSuffix("\n") ? String(s.dropLast()) : s
        }
        let length = TweetLength(body)
        let remaining = length.remaining()
        if dryRun {
            print("weighted length \(length.weightedLength), \(remaining) remaining" + (length.isValid ? "" : " (not postable)"))
            if !length.isValid { throw CLIError(Reducer.refusal(body) ?? "not postable") }
            return
        }
        guard alt.count <= media.count else { throw CLIError("There are more --alt texts than --media files.", code: .usage) }
        var files: [MediaFile] = []
        for (i, path) in media.enumerated() {
            switch MediaFile.inspect(path: path) {
            case .failure(let e): throw CLIError(e.description, code: .usage)
            case .success(var f):
                if let why = MediaFile.refusal(adding: f, to: files) { throw CLIError(why, code: .usage) }
                if i < alt.count {
                    guard alt[i].count <= MediaFile.altTextLimit else {
                        throw CLIError("Alt text is at most \(MediaFile.altTextLimit) characters.", code: .usage)
                    }
                    f.altText = alt[i]
                }
                files.append(f)
            }
        }
        if files.isEmpty || !body.allSatisfy(\.isWhitespace), let why = Reducer.refusal(body) {
            throw CLIError(why + " (weighted length \(length.weightedLength) of 280)")
        }
        let reply = try replyTo.map { r -> TweetID in
            guard let id = TweetID(r) else { throw CLIError("--reply-to takes a tweet id (digits), not \(r).", code: .usage) }
            return id
        }
        do {
            let (client, _) = try global.client()
            // An app's bearer token cannot post: said before anything is sent.
            if client.auth.isAppOnly { throw CLIError(SyncEngine.appOnlyWrites, code: .auth) }
            var mediaIDs: [String] = []
            for f in files {
                let data: Data
                do { data = try Data(contentsOf: URL(fileURLWithPath: f.path)) } catch {
                    throw CLIError("\(f.path) could not be read: \(error). Nothing was posted.")
                }
                do {
                    mediaIDs.append(try await client.uploadMedia(data, mimeType: f.mimeType, altText: f.altText))
                } catch {
                    throw CLIError("Could not upload \(f.path): \(CLIError.from(error).description) Nothing was posted.")
                }
            }
            let id: TweetID
            if client.api == .v2 {
                id = try await client.v2Create(text: body, replyTo: reply, mediaIDs: mediaIDs)
                try? (client.usage as? UsageLedger)?.save()
            } else {
                // Twitter drops in_reply_to_status_id unless the reply mentions the author; let it add them.
                id = try await client.update(body, inReplyTo: reply, autoPopulateReplyMetadata: true, mediaIDs: mediaIDs).id
            }
            let attached = files.isEmpty ? "" : " with \(files.count) file" + (files.count == 1 ? "" : "s")
            print("Posted \(id)" + (reply.map { " in reply to \($0)" } ?? "") + attached + ".")
        } catch { throw CLIError.from(error) }
    }
}

/// How `timeline` and `search` print.
enum Listing: EnumerableFlag {
    /// Author, age and id, then the text.
    case text
    /// Linnet's JSON of each tweet, one per line: the same whichever API.
    case json
    /// Each item as the API gave it, one per line.
    case apiJSON

    static func help(for value: Listing) -> ArgumentHelp? {
        switch value {
        case .text: return "Readable text (the default)."
        case .json: return "One JSON object per line in Linnet's own form, the same on v1.1 and v2."
        case .apiJSON: return "One JSON object per line, as the API gave it."
        }
    }
    static func name(for value: Listing) -> NameSpecification { value == .text ? .customLong("text") : .long }
}

/// Prints a v1.1 answer's tweets (`statusesKey` for search's envelope).
@discardableResult
func printTweets(_ data: Data, statusesKey: String? = nil, as listing: Listing) throws -> Int {
    var value = try JSONValue.parse(data)
    if let k = statusesKey, let inner = value[k] { value = inner }
    guard case .array(let items) = value else { throw CLIError("The answer was not a list of tweets.") }
    if listing == .apiJSON {
        for item in items { print(item.serialized) }
        return items.count
    }
    let page = try V1Decoder().timeline(from: Data(value.serialized.utf8))
    for p in page.problems { Stream.error("linnet: item \(p.index) skipped: \(p.reason)\n") }
    return printListing(page.tweets, as: listing)
}

/// Prints a v2 answer's posts (joined with their includes), after reporting what X bills for
/// them to the account's ledger; `owner` is whose own list it is (owned reads).
@discardableResult
func printPosts(_ data: Data, client: TwitterClient, owner: UserID? = nil, limit: Int? = nil, as listing: Listing) throws -> Int {
    var page = try V2Decoder().posts(from: data)
    if let limit { page.tweets = Array(page.tweets.prefix(limit)) }
    page.billed.owner = owner
    client.bill(page.billed)
    if listing == .apiJSON {
        guard case .array(let items)? = try JSONValue.parse(data)["data"] else { return 0 }
        for item in items.prefix(limit ?? .max) { print(item.serialized) }
        return min(items.count, limit ?? .max)
    }
    for e in page.errors { Stream.error("linnet: \(Sanitizer.visible(e.description, keepNewlines: false))\n") }
    return printListing(page.tweets, as: listing)
}

/// The readable form (author, age and id, then the text) or Linnet's JSON, for each tweet.
@discardableResult
func printListing(_ tweets: [Tweet], as listing: Listing = .text) -> Int {
    if listing != .text {
        for t in tweets { print(t.linnetJSON.serialized) }
        return tweets.count
    }
    let now = Date().timeIntervalSince1970
    for t in tweets {
        let c = t.content
        let rt = t.retweetedStatus != nil ? "  (retweeted by @\(TweetCard.clean(t.user.screenName)))" : ""
        print("@\(TweetCard.clean(c.user.screenName)) · \(Format.age(created: c.createdAt, now: now)) · \(t.id)\(rt)")
        for line in c.displayText.text.split(separator: "\n", omittingEmptySubsequences: false) { print("  " + line) }
        print("")
    }
    return tweets.count
}

/// `linnet timeline [home|mentions|user NAME|likes [NAME]]`.
struct TimelineCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "timeline", abstract: "Print a timeline: home, mentions, user NAME, or likes [NAME].")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "home, mentions, user or likes.", completion: .list(["home", "mentions", "user", "likes"])) var which: String = "home"
    @Argument(help: "The screen name, for user (and for likes: yours when left out).") var name: String?
    @Option(help: "How many tweets (1–200).") var count = 20
    @Flag var listing: Listing = .text

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
        case "likes":
            path = "favorites/list"
            if let name { params.append(("screen_name", name.hasPrefix("@") ? String(name.dropFirst()) : name)) }
        default: throw CLIError("Unknown timeline \"\(which)\": use home, mentions, user NAME or likes [NAME].", code: .usage)
        }
        do {
            let (client, account) = try global.client()
            if client.api == .v2 {
                // The signed-in user's id is asked for only when neither the account nor the
                // token names it (each request is billed on pay-per-use).
                let known = account?.userID.flatMap(UserID.init) ?? client.auth.tokenUserID
                var me: UserID?
                if which != "user" && !(which == "likes" && name != nil) {
                    if let known { me = known } else { me = try await client.v2Me().id }
                }
                // Exactly --count posts: a page of at least the operation's minimum, cut to it.
                func paging(_ template: String) -> [(String, String)] {
                    [("max_results", TwitterClient.V2Query.maxResults(count, for: template))] + TwitterClient.V2Query.posts
                }
                switch which {
                case "home":
                    let template = "/2/users/{id}/timelines/reverse_chronological"
                    let data = try await client.call("GET", "/2/users/\(me!)/timelines/reverse_chronological", paging(template))
                    try printPosts(data, client: client, limit: count, as: listing)
                case "mentions":
                    let data = try await client.call("GET", "/2/users/\(me!)/mentions", paging("/2/users/{id}/mentions"))
                    try printPosts(data, client: client, owner: me, limit: count, as: listing)
                case "likes":
                    var whose = me ?? UserID(0)
                    if let name { whose = try await client.v2User(named: name.hasPrefix("@") ? String(name.dropFirst()) : name).id }
                    let data = try await client.call("GET", "/2/users/\(whose)/liked_tweets", paging("/2/users/{id}/liked_tweets"))
                    try printPosts(data, client: client, owner: whose, limit: count, as: listing)
                default:
                    // v2 names users by id: one lookup, then the user's own posts.
                    let who = name.map { $0.hasPrefix("@") ? String($0.dropFirst()) : $0 } ?? ""
                    let user = try await client.v2User(named: who)
                    let data = try await client.call("GET", "/2/users/\(user.id)/tweets", paging("/2/users/{id}/tweets"))
                    try printPosts(data, client: client, owner: user.id, limit: count, as: listing)
                }
                try? (client.usage as? UsageLedger)?.save()
                return
            }
            try printTweets(try await client.call("GET", path, params), as: listing)
        } catch { throw CLIError.from(error) }
    }
}

/// `linnet search QUERY`.
struct SearchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "search", abstract: "Search recent tweets.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The query (Twitter's search operators work).") var query: String
    @Option(help: "How many tweets (1–100).") var count = 20
    @Flag var listing: Listing = .text

    func run() async throws {
        guard (1...100).contains(count) else { throw CLIError("--count takes 1 to 100.", code: .usage) }
        do {
            let (client, _) = try global.client()
            if client.api == .v2 {
                let data = try await client.call(
                    "GET", "/2/tweets/search/recent",
                    [("query", query), ("max_results", TwitterClient.V2Query.maxResults(count, for: "/2/tweets/search/recent"))]
                        + TwitterClient.V2Query.posts)
                let shown = try printPosts(data, client: client, limit: count, as: listing)
                try? (client.usage as? UsageLedger)?.save()
                if shown == 0 { Self.sayNone(query) }
                return
            }
            let data = try await client.call(
                "GET", "search/tweets", [("q", query), ("count", String(count)), ("result_type", "recent"), ("tweet_mode", "extended")])
            if try printTweets(data, statusesKey: "statuses", as: listing) == 0 { Self.sayNone(query) }
        } catch { throw CLIError.from(error) }
    }
}

extension SearchCommand {
    /// No results is not an error, but is said (on stderr, so the output stays empty).
    static func sayNone(_ query: String) {
        Stream.error(
            "linnet: no tweets found for \"\(Sanitizer.visible(query, keepNewlines: false))\" (search reaches back about 7 days).\n")
    }
}
