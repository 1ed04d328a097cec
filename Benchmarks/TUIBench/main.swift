// The TUI's costs: render + diff of a 200x60 frame over 100k stored tweets, bytes written to a
// real pseudo-terminal for a one-line scroll and for a tweet arriving above the reader, and the
// time from launch to the first frame with 100k cached tweets. Prints `bench: <name> <value> <unit>`.
// Knobs: TUIBENCH_TWEETS and TUIBENCH_ROUNDS size the render run; TUIBENCH_DUMP=FILE saves the
// bytes read from the pseudo-terminal; TUIBENCH_TRACE=FILE has the launch child note its steps.
import CursesTerminal
import Foundation
import LinnetCore
import LinnetTestSupport
import Screen
import Timeline
import TwitterAPI

let account = "bench_reader"
/// Tweets in the cache the launch figure starts from.
let cachedTweets = 100_000

func seconds(_ d: Duration) -> Double { Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18 }

/// Recorded stream lines, read on first use (the launch child never needs them).
enum Recorded {
    static let lines =
        (try? Fixtures.data("api/streaming/lines.json"))?.split(separator: UInt8(ascii: "\n")).filter { !$0.isEmpty }.map { Data($0) } ?? []
}

/// `n` distinct tweets from the recorded stream, with fresh ids (newest last).
func makeTweets(_ n: Int, from first: UInt64 = 1_000_000_000) -> [Tweet] {
    let decoder = V1Decoder()
    return (0..<n).compactMap { i in
        guard case .tweet(let o)? = try? decoder.streamMessage(from: Recorded.lines[i % Recorded.lines.count]) else { return nil }
        return Tweet(
            id: TweetID(first + UInt64(i)), createdAt: o.createdAt, user: o.user, text: o.text, displayRange: o.displayRange,
            entities: o.entities, inReplyToStatusID: o.inReplyToStatusID, inReplyToUserID: o.inReplyToUserID,
            inReplyToScreenName: o.inReplyToScreenName, retweetedStatus: o.retweetedStatus, quotedStatus: o.quotedStatus,
            retweetCount: o.retweetCount, favoriteCount: o.favoriteCount, lang: o.lang)
    }
}

/// A fixed clock: a day after the newest recorded tweet.
let now: Double = 1_600_000_000

func scene(_ store: TimelineStore, width: Int, height: Int, moves: Int = 0) async -> (AppState, Context) {
    let c = Context(snapshot: await store.snapshot())
    var s = AppState(account: account, width: width, height: height, now: now)
    _ = Reducer.reduce(&s, .storeChanged, c)
    for _ in 0..<moves { _ = Reducer.reduce(&s, .keys([.char("j")]), c) }
    return (s, c)
}

/// Frames for a one-line scroll at 80x24: the body window moves down the tall rendering by one
/// row; also the bytes of the row that comes in.
func scrollFrames() async -> (Screen, Screen, Int) {
    let store = TimelineStore()
    await store.merge(page: makeTweets(200), into: .home, request: PageRequest(count: 200))
    let (s, c) = await scene(store, width: 80, height: 40)
    let tall = Views.render(s, c)
    func text(_ y: Int) -> String {
        var l = tall.line(y)
        while l.last == " " { l.removeLast() }
        return l
    }
    // Start where the row that scrolls in holds text (not the blank between cards).
    let offset = (0..<10).first { !text(23 + $0).isEmpty } ?? 0
    func frame(from top: Int) -> Screen {
        var f = Screen(width: 80, height: 24)
        f.copyRow(0, of: tall, to: 0)
        f.copyRow(39, of: tall, to: 23)
        for y in 1...22 { f.copyRow(y + top, of: tall, to: y) }
        return f
    }
    return (frame(from: offset), frame(from: offset + 1), text(23 + offset).utf8.count)
}

/// Frames before and after a tweet arrives above a reader three tweets down.
func arrivalFrames() async -> (Screen, Screen) {
    let store = TimelineStore()
    await store.merge(page: makeTweets(200), into: .home, request: PageRequest(count: 200))
    var (s, c) = await scene(store, width: 80, height: 24, moves: 3)
    let before = Views.render(s, c)
    await store.add(makeTweets(1, from: 2_000_000_000)[0], to: [.home])
    c = Context(snapshot: await store.snapshot())
    _ = Reducer.reduce(&s, .storeChanged, c)
    return (before, Views.render(s, c))
}

// MARK: - The child, on the pseudo-terminal

func child(_ args: [String]) async {
    switch args.first {
    case "frames":
        // Keys a, b, c, d show frames 0…3.
        var frames: [Screen]
        if args.dropFirst().first == "scroll" {
            let f = await scrollFrames()
            // A, B (scrolled one line), B without its new line, and B again: the last step
            // draws only the line that came in, the baseline for the scroll.
            var blanked = f.1
            blanked.fill(Rect(x: 0, y: 22, width: 80, height: 1), style: blanked[0, 22].style)
            frames = [f.0, f.1, blanked, f.1]
        } else {
            let f = await arrivalFrames()
            frames = [f.0, f.1]
        }
        let terminal = CursesTerminal(noColor: false)
        // A parent gone (its end of the terminal closed) ends the child, as it ends the app.
        while !terminal.isClosed {
            for key in terminal.readKeys(timeout: 5) {
                guard case .char(let c) = key else { continue }
                if c == "q" {
                    terminal.end()
                    return
                }
                if let i = "abcd".firstIndex(of: c).map({ "abcd".distance(from: "abcd".startIndex, to: $0) }), i < frames.count {
                    terminal.present(frames[i])
                }
            }
        }
        terminal.end()
    case "launch":
        // What starting with a cache does before any network call: load, restore, draw.
        let clock = ContinuousClock()
        let t0 = clock.now
        let store = TimelineStore()
        var marks: [String] = []
        let keep = args.count > 2 ? Int(args[2]) ?? cachedTweets : cachedTweets
        let cache = args.count > 1 ? TimelineCache(directory: URL(fileURLWithPath: args[1]), keepPerTimeline: keep) : nil
        if let cache, case .loaded(let snapshot) = cache.load(headOnly: true) {
            marks.append("load \(clock.now - t0)")
            await store.restore(snapshot)
            marks.append("restore \(clock.now - t0)")
        }
        let terminal = CursesTerminal(noColor: false)
        marks.append("initscr \(clock.now - t0)")
        let (s, c) = await scene(store, width: terminal.size.width, height: terminal.size.height)
        marks.append("scene \(clock.now - t0)")
        terminal.present(Views.render(s, c))
        marks.append("present \(clock.now - t0)")
        // Then the rest, as the app does before it goes to the network.
        if let cache, case .loaded(let snapshot) = cache.load() { await store.restore(snapshot) }
        marks.append("full \(clock.now - t0)")
        if let trace = ProcessInfo.processInfo.environment["TUIBENCH_TRACE"] {
            try? marks.joined(separator: "\n").write(toFile: trace, atomically: true, encoding: .utf8)
        }
        while !terminal.isClosed, !terminal.readKeys(timeout: 5).contains(.char("q")) {}
        terminal.end()
    default:
        break
    }
}

// MARK: - The parent

/// Runs this program as a child on an 80x24 pseudo-terminal; sends each key and counts the
/// bytes written until the output goes quiet. Also the seconds until `marker` first appeared.
func onPty(_ args: [String], keys: [UInt8], marker: String? = nil) -> (bytes: [Int], firstMarker: Double?) {
    let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    var env = ProcessInfo.processInfo.environment
    env["TERM"] = "xterm-256color"
    env["LANG"] = "C.UTF-8"
    let start = ContinuousClock.now
    let p = PtyProgram([exe, "child"] + args, environment: env, rows: 24, cols: 80)
    p.dump = ProcessInfo.processInfo.environment["TUIBENCH_DUMP"]
    let firstMarker = marker.flatMap { p.waitFor($0, seconds: 10) }.map { seconds($0 - start) }
    p.drain(quiet: marker == nil ? 1500 : 3000)
    var counts: [Int] = []
    for k in keys {
        p.send([k])
        counts.append(p.drain(quiet: 400).bytes)
    }
    p.stop(quit: Array("q".utf8))
    return (counts, firstMarker)
}

func parent(linnet: String?) async throws {
    if ProcessInfo.processInfo.environment["TUIBENCH_ONLY"] == "feel", let linnet { return try await feelFigures(linnet: linnet) }
    if ProcessInfo.processInfo.environment["TUIBENCH_ONLY"] == "keys", let linnet {
        return try await feelFigures(linnet: linnet, keysOnly: true)
    }
    if ProcessInfo.processInfo.environment["TUIBENCH_ONLY"] == "launch" { return try await launchFigures() }
    if ProcessInfo.processInfo.environment["TUIBENCH_ONLY"] == "longpost" { return await longPostFigures() }
    if ProcessInfo.processInfo.environment["TUIBENCH_ONLY"] == "ssh", let linnet {
        let dir = benchDirectory("linnet-ssh")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let text = dir.appendingPathComponent("tweets.txt")
        try Data(makeTweets(10_000).map { "@\($0.user.screenName): \($0.text)\n" }.joined().utf8).write(to: text)
        try sshFigures(linnet: URL(fileURLWithPath: linnet).standardizedFileURL.path, dir: dir, text: text)
        return firstFrameInstructions(linnet: linnet, text: text)
    }
    // Render + diff over 100k stored tweets at 200x60.
    let held = Int(ProcessInfo.processInfo.environment["TUIBENCH_TWEETS"] ?? "") ?? 100_000
    let store = TimelineStore(cap: 200_000)
    await store.merge(page: makeTweets(held), into: .home, request: PageRequest(count: held))
    var (s, c) = await scene(store, width: 200, height: 60)
    var last = Views.render(s, c)
    let rounds = Int(ProcessInfo.processInfo.environment["TUIBENCH_ROUNDS"] ?? "") ?? 300
    let clock = ContinuousClock()
    var changed = 0
    var reduceTime = Duration.zero
    var renderTime = Duration.zero
    var diffTime = Duration.zero
    for i in 0..<rounds {
        let t0 = clock.now
        _ = Reducer.reduce(&s, .keys([.char(i % 20 < 10 ? "j" : "k")]), c)
        let t1 = clock.now
        let frame = Views.render(s, c)
        let t2 = clock.now
        // The runs a terminal would write, as `present` works them out.
        if !Screen.diff(from: last, to: frame).isEmpty { changed += 1 }
        last = frame
        renderTime += clock.now - t1
        diffTime += clock.now - t2
        reduceTime += t1 - t0
    }
    let perFrame = seconds(renderTime) / Double(rounds)
    print("reduce of a key over 100k tweets held: \(String(format: "%.0f", seconds(reduceTime) / Double(rounds) * 1e6)) µs")
    print("bench: tui_reduce_key_100k_us \(String(format: "%.0f", seconds(reduceTime) / Double(rounds) * 1e6)) us")
    print(
        "render+diff of a 200x60 frame, 100k tweets held: \(String(format: "%.0f", perFrame * 1e6)) µs (\(changed) of \(rounds) frames changed)"
    )
    bench("tui_render_diff_200x60_us", perFrame * 1e6, "us", goal: .atMost(150))
    print("bench: tui_diff_200x60_us \(String(format: "%.0f", seconds(diffTime) / Double(rounds) * 1e6)) us")
    if ProcessInfo.processInfo.environment["TUIBENCH_ONLY"] == "render" { return }
    countFigures(linnet: linnet)
    print("bench: tui_core_share_at_10fps \(String(format: "%.2f", perFrame * 10 * 100)) %")

    // Bytes on a real pseudo-terminal.
    let (_, _, incoming) = await scrollFrames()
    let scroll = onPty(["frames", "scroll"], keys: Array("abcd".utf8))
    let lineAlone = scroll.bytes[3]
    print(
        "one-line scroll at 80x24: \(scroll.bytes[1]) bytes written (first frame \(scroll.bytes[0])); the line that came in is \(incoming) bytes of text and \(lineAlone) bytes to draw on its own"
    )
    print("bench: tui_scroll_one_line_bytes \(scroll.bytes[1]) bytes")
    print("bench: tui_scroll_line_text_bytes \(incoming) bytes")
    print("bench: tui_scroll_line_drawn_bytes \(lineAlone) bytes")
    print("bench: tui_scroll_bytes_ratio_to_text \(String(format: "%.2f", Double(scroll.bytes[1]) / Double(max(1, incoming)))) x")
    print("bench: tui_scroll_bytes_ratio_to_drawn_line \(String(format: "%.2f", Double(scroll.bytes[1]) / Double(max(1, lineAlone)))) x")
    print("bench: tui_full_frame_bytes \(scroll.bytes[0]) bytes")
    let arrival = onPty(["frames", "arrival"], keys: [UInt8(ascii: "a"), UInt8(ascii: "b")])
    print("a tweet arriving above the reader: \(arrival.bytes[1]) bytes written")
    print("bench: tui_new_tweet_above_bytes \(arrival.bytes[1]) bytes")

    try await launchFigures()
    await longPostFigures()
    if let linnet { try await feelFigures(linnet: linnet) } else { print("feel: no linnet binary given; no pseudo-terminal figures") }
}

let semaphore = DispatchSemaphore(value: 0)
let arguments = CommandLine.arguments
Task.detached {
    if arguments.count == 4, arguments[1] == "--count", ["frame", "scroll", "cold"].contains(arguments[2]), let n = Int(arguments[3]) {
        await countFrames(n, scrolling: arguments[2] != "frame", cold: arguments[2] == "cold")
    } else if arguments.count > 1 && arguments[1] == "child" {
        await child(Array(arguments.dropFirst(2)))
    } else {
        do { try await parent(linnet: arguments.count > 1 ? arguments[1] : nil) } catch { print("TUIBench failed: \(error)") }
    }
    semaphore.signal()
}
semaphore.wait()
