/// Builds the initial world from a seed: people writing in several scripts, who follows whom,
/// and a backlog of tweets with links, mentions, hashtags, emoji, replies, threads, retweets,
/// quotes, long tweets, and a few hostile ones that try terminal escapes and bidi tricks.
enum WorldGenerator {
    struct Output {
        var users: [SimUser]
        var tweets: [SimTweet]
        var consumers: [String: World.Consumer]
        var accessTokens: [String: World.AccessToken]
        var credentials: SimulatorCredentials
    }

    static let people: [(String, String)] = [
        ("Ada Byron", "ada"), ("山田 花子", "hanako"), ("王小明", "xiaoming"), ("ليلى حسن", "layla"),
        ("נועה כהן", "noa"), ("Иван Петров", "ivan"), ("Ελένη Παππά", "eleni"), ("प्रिया शर्मा", "priya"),
        ("김민준", "minjun"), ("José Núñez", "jose"), ("Zoë Brontë", "zoe"), ("Ngozi Okafor", "ngozi"),
        ("Søren Kierkegård", "soren"), ("Aroha Ngata", "aroha"), ("Mateus Álvares", "mateus"),
        ("Björk G", "bjork"), ("Thảo Nguyễn", "thao"), ("Kofi Mensah", "kofi"), ("Ayşe Yılmaz", "ayse"),
        ("Grace Hopper", "grace"),
    ]
    static let words = [
        "terminal", "stream", "coffee", "release", "build", "tests", "swift", "curses", "linnet", "birds",
        "morning", "deploy", "weekend", "latency", "keyboard", "shell", "pager", "editor", "cache", "rain",
    ]
    static let hashtags = ["swift", "linux", "ssh", "tui", "opensource", "birdwatching", "日本語", "مرحبا"]
    static let foreign = [
        "今日はとても良い天気ですね。ターミナルで読むツイートは最高です。",
        "我今天在终端里读推特，速度很快。",
        "مرحبا بالعالم، هذه تغريدة من المحاكي.",
        "שלום עולם, זה ציוץ מהסימולטור.",
        "Привет из терминала! Всё работает.",
        "오늘도 터미널에서 트윗을 읽어요.",
        "Γεια σου κόσμε από το τερματικό.",
    ]
    /// 140 of one ideograph, made once (`String(repeating:count:)` costs about 44k instructions).
    static let ideographs = ["漢", "字", "語"].map { String(repeating: $0, count: 140) }
    static let emoji = ["👩‍💻", "👨‍👩‍👧‍👦", "🐦", "🇯🇵", "🏳️‍🌈", "☕️", "🧑🏽‍🚀", "✨"]
    static let hostile = [
        "\u{1B}[31mALERT\u{1B}[0m your terminal is mine \u{1B}]0;pwned\u{7}",
        "invoice_\u{202E}fdp.exe looks harmless",
        "clear this \u{1B}[2J\u{1B}[H screen",
        "bell\u{7}\u{7} and a \u{9B}31mC1 escape",
        "link \u{1B}]8;;http://evil.invalid\u{1B}\\click\u{1B}]8;;\u{1B}\\ here",
    ]

    static let fixedStart: UInt64 = 1_767_225_600_000  // 2026-01-01T00:00:00Z

    /// The world of the seed. With `backlogEndsAt`, the same world dated to end then: made at
    /// `fixedStart`, then moved (nothing drawn depends on when the backlog starts).
    static func generate(config: SimulatorConfiguration, rng: inout SimRandom) -> Output {
        var (users, tweets) = backlog(config: config, start: fixedStart, rng: &rng)
        if let end = config.backlogEndsAt {
            let span = (tweets.map(\.createdAtMs).max() ?? fixedStart) - fixedStart
            let endMs = UInt64(max(0, end * 1000))
            if endMs > span + fixedStart { move(&users, &tweets, by: endMs - span - fixedStart) }
        }
        return finish(users: users, tweets: tweets, credentials: credentials(seed: config.seed))
    }

    /// The demo user's id from the seed's first number (the backlog's first draw).
    static func demoID(_ draw: UInt64) -> UInt64 { 1_000_000 + draw % 1_000_000 }

    /// The apps' keys and the demo user's tokens, known before the world is made; from a
    /// stream of their own, so the world's numbers are the seed's alone.
    static func credentials(seed: UInt64) -> SimulatorCredentials {
        var first = SimRandom(seed: seed)
        let id = demoID(first.next())
        var rng = SimRandom(seed: seed ^ 0x6B65_7973_6B65_7973)
        return SimulatorCredentials(
            consumerKey: rng.token(25), consumerSecret: rng.token(50), xauthConsumerKey: rng.token(25),
            xauthConsumerSecret: rng.token(50), accessToken: "\(id)-" + rng.token(40), accessTokenSecret: rng.token(45),
            screenName: demoName, userID: id, password: demoPassword)
    }

    static let demoName = "linnet_demo"
    static let demoPassword = "linnet-demo"

    /// People, who follows whom, and the backlog's tweets, starting at `start`.
    static func backlog(config: SimulatorConfiguration, start: UInt64, rng: inout SimRandom) -> ([SimUser], [SimTweet]) {
        var users: [SimUser] = []
        let demo = SimUser(
            id: demoID(rng.next()), screenName: demoName, name: "Linnet Demo",
            description: "The account the simulator logs you in as.", location: "localhost",
            password: demoPassword, createdAtMs: start - 86_400_000 * 400, following: [])
        users.append(demo)
        for i in 0..<max(1, config.users) {
            let (name, handle) = people[i % people.count]
            let suffix = i < people.count ? "" : String(i / people.count + 1)
            users.append(
                SimUser(
                    id: 2_000_000 + UInt64(i) * 7919 + rng.next() % 7000, screenName: handle + suffix, name: name,
                    description: "Writes about \(rng.pick(words)) and \(rng.pick(words)).",
                    location: rng.pick(["Tokyo", "Cairo", "Reykjavík", "São Paulo", "Lagos", "Seoul", ""]),
                    password: "password", createdAtMs: start - 86_400_000 * (100 + rng.next() % 2000), following: []))
        }
        // Follow graph: the demo user follows about two thirds; everyone follows a few.
        for i in users.indices {
            var follows: [UInt64] = []
            for j in users.indices where j != i && rng.chance(i == 0 ? 0.66 : 0.2) { follows.append(users[j].id) }
            users[i].following = follows
        }

        var tweets: [SimTweet] = []
        var ms = start
        var seq: UInt64 = 0
        func nextID() -> UInt64 {
            ms += 1000 + rng.next() % 240_000
            seq += 1
            return ((ms - 1_288_834_974_657) << 22) | (1 << 12) | (seq & 0xFFF)
        }
        let byID = Dictionary(users.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        for n in 0..<config.backlogTweets {
            let author = users[1 + Int(rng.next() % UInt64(users.count - 1))]
            let id = nextID()
            // A link's number from its place, not its id: the backlog's ids move with its dates.
            var t = composeTweet(
                id: id, author: author, users: users, demo: demo, rng: &rng, index: n, ms: ms, page: UInt64(n) * 7919 % 100_000)
            // Replies, threads, retweets and quotes refer to earlier tweets.
            if let parent = tweets.last(where: { $0.retweetedID == nil }), n % 9 == 4, let parentAuthor = byID[parent.userID] {
                t.inReplyToStatusID = parent.id
                t.inReplyToUserID = parent.userID
                t.inReplyToScreenName = parentAuthor.screenName
                t.text = "@\(parentAuthor.screenName) " + t.text
                t.hiddenPrefixCount = parentAuthor.screenName.count + 2
            } else if let original = tweets.last(where: { $0.retweetedID == nil && $0.userID != author.id }), n % 11 == 6,
                let originalAuthor = byID[original.userID]
            {
                t = SimTweet(
                    id: id, userID: author.id, text: "RT @\(originalAuthor.screenName): " + original.text,
                    createdAtMs: ms, retweetedID: original.id)
            } else if let quoted = tweets.last(where: { $0.retweetedID == nil }), n % 13 == 7, let quotedAuthor = byID[quoted.userID] {
                t.quotedID = quoted.id
                t.links = [quoteLink(tco: "https://t.co/" + rng.token(10), author: quotedAuthor.screenName, id: quoted.id)]
                t.text = "This, exactly. " + t.links[0].tco
            }
            tweets.append(t)
        }
        return (users, tweets)
    }

    /// Edits, long posts and media on the backlog, and the apps' keys and the demo's tokens.
    static func finish(users: [SimUser], tweets: [SimTweet], credentials c: SimulatorCredentials) -> Output {
        var tweets = tweets
        addEditsAndLongPosts(&tweets)
        addMedia(&tweets)
        return Output(
            users: users, tweets: tweets,
            consumers: [
                c.consumerKey: World.Consumer(secret: c.consumerSecret, xauth: false, name: "Linnet Demo App"),
                c.xauthConsumerKey: World.Consumer(secret: c.xauthConsumerSecret, xauth: true, name: "Linnet xAuth App"),
            ],
            accessTokens: [c.accessToken: World.AccessToken(secret: c.accessTokenSecret, userID: c.userID, consumerKey: c.consumerKey)],
            credentials: c)
    }

    /// One tweet's text, with the kind chosen by `index` so every kind appears in any backlog.
    /// `page`: the number in a link's path.
    static func composeTweet(
        id: UInt64, author: SimUser, users: [SimUser], demo: SimUser, rng: inout SimRandom, index: Int, ms: UInt64, page: UInt64
    ) -> SimTweet {
        var t = SimTweet(id: id, userID: author.id, text: "", createdAtMs: ms)
        let w1 = rng.pick(words)
        let w2 = rng.pick(words)
        switch index % 10 {
        case 0:
            let link = SimLink(
                tco: "https://t.co/" + rng.token(10), expanded: "https://example.com/\(w1)/\(page)",
                display: "example.com/\(w1)/\(page)")
            t.text = "Reading about \(w1) and \(w2): \(link.tco)"
            t.links = [link]
        case 1: t.text = "@\(demo.screenName) what do you think about \(w1)? #\(rng.pick(hashtags))"
        case 2:
            t.text = rng.pick(foreign)
            t.lang = "und"
        case 3: t.text = "\(rng.pick(emoji)) \(w1) day \(rng.pick(emoji)) with @\(rng.pick(users).screenName)"
        case 4:
            // The words are ASCII, so the first 280 bytes are the first 280 characters. Joined
            // as bytes: joining Strings and cutting by graphemes cost 44,000 instructions a post.
            var long = Array("A long one: ".utf8)
            long.reserveCapacity(400)
            for i in 0..<40 {
                if i > 0 { long.append(UInt8(ascii: " ")) }
                long += rng.pick(words).utf8
            }
            t.text = String(decoding: long.prefix(280), as: UTF8.self)
        case 5: t.text = "#\(rng.pick(hashtags)) \(w1) & \(w2) <3 > everything"
        case 6 where index % 20 == 6: t.text = rng.pick(hostile)
        case 7:
            t.text = rng.pick(ideographs)
            t.lang = "ja"
        default: t.text = "Just shipped \(w1) for \(w2). \(rng.pick(emoji))"
        }
        return t
    }

    /// Every 17th plain post was edited once (an older version with a typo stays behind it),
    /// and every 23rd is a long post (API v2's `note_tweet`). No random numbers are drawn, so
    /// the rest of the world is the same as without them.
    static func addEditsAndLongPosts(_ tweets: inout [SimTweet]) {
        let taken = Set(tweets.map(\.id))
        var older: [SimTweet] = []
        // Changed in place: a copy of each post (and its write back) cost 731 copies at start.
        for k in tweets.indices {
            guard tweets[k].retweetedID == nil, tweets[k].quotedID == nil, tweets[k].inReplyToStatusID == nil else { continue }
            if k % 23 == 11 {
                tweets[k].noteText =
                    tweets[k].text
                    + " And there is more to say than fits in one post: the wire sings in the wind, the field below goes gold, "
                    + "and a small brown bird sits on the fence counting the cars that do not stop. It stays until the light goes, "
                    + "then it is gone, and the wire is just a wire again."
            }
            let id = tweets[k].id
            if k % 17 == 8, !taken.contains(id - 1), let space = tweets[k].text.firstIndex(of: " ") {
                var old = tweets[k]
                old.id = id - 1
                old.createdAtMs = Snowflake.ms(old.id)
                old.text = String(old.text[..<space]) + " teh" + String(old.text[space...])
                old.noteText = nil
                old.supersededBy = id
                old.editHistory = [old.id, id]
                tweets[k].editHistory = [old.id, id]
                older.append(old)
            }
        }
        tweets += older
        tweets.sort { $0.id < $1.id }
    }

    /// Photos and videos on some plain posts, with sizes and alt text, so a reader shows media
    /// from the start. No random numbers are drawn: the rest of the world stays as it was.
    static func addMedia(_ tweets: inout [SimTweet]) {
        let alts = [
            "A linnet on a wire against a grey sky", "Two small brown birds on a fence post at dawn",
            "A terminal window full of green text", "Morning light over a field of gorse",
        ]
        for k in tweets.indices {
            let t = tweets[k]
            guard t.retweetedID == nil, t.quotedID == nil, t.noteText == nil, t.supersededBy == nil, t.links.isEmpty,
                t.text.utf8.starts(with: "Just shipped".utf8), t.text.hasPrefix("Just shipped")
            else { continue }
            let key = "3_\(t.id)"
            if k % 7 == 3 {
                tweets[k].media = [SimAttachment(key: key, kind: "photo", altText: alts[k % alts.count], width: 1200, height: 800)]
            } else if k % 11 == 5 {
                tweets[k].media = [
                    SimAttachment(key: key, kind: "photo", altText: alts[k % alts.count], width: 1600, height: 1200),
                    SimAttachment(key: "3_\(t.id)2", kind: "photo", altText: nil, width: 800, height: 800),
                ]
            } else if k % 13 == 9 {
                tweets[k].media = [
                    SimAttachment(
                        key: "7_\(t.id)", kind: "video", altText: nil, width: 1280, height: 720, durationMs: 4_000 + Int(t.id % 176_000))
                ]
            } else if k % 5 == 2 {
                // A poll: 2 to 4 choices, a day or a week to vote; some still open.
                let sets = [["Tabs", "Spaces"], ["vim", "emacs", "nano"], ["coffee", "tea", "water", "none of these"]]
                let choices = sets[k % sets.count]
                let minutes = k % 2 == 0 ? 1440 : 10080
                tweets[k].poll = SimPoll(
                    id: t.id &+ 1, choices: choices, votes: choices.indices.map { (k * 37 + $0 * 101) % 900 },
                    durationMinutes: minutes, endMs: t.createdAtMs + UInt64(minutes) * 60_000)
            }
        }
    }
}
