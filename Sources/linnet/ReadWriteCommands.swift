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
            // Twitter drops a reply's in_reply_to_status_id unless it mentions the author: the
            // server is asked to fill them in.
            let id = try await client.face().publish(Draft(text: body, replyTo: reply, fillInMentions: true, mediaIDs: mediaIDs)).id
            try? client.usage?.persist()
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

/// Prints a page of a feed, exactly `count` posts where the server sent more (a page's least
/// size may be above it): as the API gave them, or read into the shared model. Returns how
/// many were printed.
@discardableResult
func printFeed(_ client: TwitterClient, _ feed: Feed, count: Int, me: UserID?, as listing: Listing) async throws -> Int {
    let face = client.face()
    defer { try? client.usage?.persist() }
    if listing == .apiJSON {
        let items = try await face.rawItems(feed, PageAsk(count: count), me: me).prefix(count)
        for item in items { print(item.serialized) }
        return items.count
    }
    let page = try await face.page(feed, PageAsk(count: count), me: me)
    for p in page.problems { Stream.error("linnet: item \(p.index) skipped: \(p.reason)\n") }
    for n in page.notes { Stream.error("linnet: \(Sanitizer.visible(n, keepNewlines: false))\n") }
    return printListing(Array(page.tweets.prefix(count)), as: listing)
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
        func bare(_ n: String) -> String { n.hasPrefix("@") ? String(n.dropFirst()) : n }
        let feed: Feed
        switch which {
        case "home": feed = .home
        case "mentions": feed = .mentions
        case "user":
            guard let name else { throw CLIError("`linnet timeline user` needs a screen name.", code: .usage) }
            feed = .user(bare(name))
        // No name: the reader's own likes.
        case "likes": feed = .likes(name.map(bare) ?? "")
        default: throw CLIError("Unknown timeline \"\(which)\": use home, mentions, user NAME or likes [NAME].", code: .usage)
        }
        do {
            let (client, account) = try global.client()
            // The reader's id where the account or the token names it (a lookup is billed).
            let me = account?.userID.flatMap(UserID.init) ?? client.auth.tokenUserID
            try await printFeed(client, feed, count: count, me: me, as: listing)
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
            if try await printFeed(client, .search(query), count: count, me: nil, as: listing) == 0 { Self.sayNone(query) }
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
