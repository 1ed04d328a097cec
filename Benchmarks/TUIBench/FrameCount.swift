import CPty
import CursesTerminal
import Foundation
import LinnetCore
import LinnetTestSupport
import Screen
import Timeline
import TwitterAPI

/// Texts in several scripts, wide characters and emoji among them, put before every other
/// recorded tweet's text so that a frame holds them all.
let mixedScripts = [
    "漢字とかなが混ざった長い文章を折り返して表示できるか確かめる 👨‍👩‍👧 ",
    "한국어 문장과 🇯🇵🇫🇷 깃발 ", "مرحبا بالعالم — ", "Zoë e\u{301}te\u{301} 👍🏽 ", "中文的句子，还有全角标点。",
]

/// `TUIBench --count frame N`: N keys (`j` ten times, then `k` ten times, over and over) at
/// 200x60, each reduced, rendered and presented through ncurses to a pseudo-terminal whose
/// other end is read and dropped; for callgrind. The start-up is the same whatever N is.
/// `scrolling`: 160x50, the recorded texts alone and `j` alone, from a selection already at the
/// bottom: every key brings a card into view and moves the pane's rows (the reader's 1,000 keys).
/// `cold` (with `scrolling`): before each key, 4 MB written over, more than the last level of
/// the caches callgrind simulates holds, so that the key's code and data come from memory, as
/// after a reader's pause (but for the code the first level still holds from the turn before).
func countFrames(_ n: Int, scrolling: Bool = false, cold: Bool = false) async {
    var master: Int32 = -1
    var slave: Int32 = -1
    var size =
        scrolling
        ? winsize(ws_row: 50, ws_col: 160, ws_xpixel: 0, ws_ypixel: 0) : winsize(ws_row: 60, ws_col: 200, ws_xpixel: 0, ws_ypixel: 0)
    guard openpty(&master, &slave, nil, nil, &size) == 0 else { fatalError("openpty failed") }
    dup2(slave, 0)
    dup2(slave, 1)
    let other = master
    let reader = Thread {
        var buffer = [UInt8](repeating: 0, count: 65536)
        while read(other, &buffer, buffer.count) > 0 {}
    }
    reader.start()
    setenv("TERM", "xterm-256color", 1)
    let store = TimelineStore()
    // Scrolling: the recorded texts as the reader's bench caches them.
    let tweets = makeTweets(2000).enumerated().map { i, t in
        i % 2 == 0 || scrolling
            ? t
            : Tweet(
                id: t.id, createdAt: t.createdAt, user: t.user, text: mixedScripts[i / 2 % mixedScripts.count] + t.text,
                retweetCount: t.retweetCount, favoriteCount: t.favoriteCount)
    }
    await store.merge(page: tweets, into: .home, request: PageRequest(count: tweets.count))
    var (s, c) = await scene(store, width: Int(size.ws_col), height: Int(size.ws_row))
    // As the app does: the reducer lays a card out in the frame's theme, once for both.
    if scrolling { c.cardTheme = .fallback }
    let terminal = CursesTerminal(noColor: false)
    terminal.present(Views.render(s, c))
    guard scrolling else {
        for i in 0..<n {
            _ = Reducer.reduce(&s, .keys([.char(i % 20 < 10 ? "j" : "k")]), c)
            terminal.present(Views.render(s, c))
        }
        terminal.end()
        return
    }
    // As the app's turn: a clock tick and the key reduced, the frame written, then the next
    // cards laid out.
    var last: Screen?
    var filler = [UInt8](repeating: 0, count: cold ? 4 << 20 : 0)
    for _ in 0..<(30 + n) {
        if cold { emptyCaches(&filler) }
        keyToFrame(&s, &c, &last, terminal)
        Reducer.layOutNeighbours(s, c)
    }
    terminal.end()
}

/// One byte of each 64-byte line of `other` changed (a line written is a line in the cache).
@inline(never) func emptyCaches(_ other: inout [UInt8]) {
    other.withUnsafeMutableBufferPointer { b in
        for i in stride(from: 0, to: b.count, by: 64) { b[i] &+= 1 }
    }
}

/// The heights the counted turns keep, as the app keeps one for its life.
private let heights = CardHeights()

/// A key reduced, rendered and written, with the heights kept from the turns before as the
/// app keeps them (counted alone by `--toggle-collect`). The app's turn also makes its
/// context and runs the effects before the write; those are not counted here.
@inline(never) func keyToFrame(_ s: inout AppState, _ c: inout Context, _ last: inout Screen?, _ terminal: CursesTerminal) {
    c.heights = heights
    heights.begin(c)
    _ = Reducer.reduce(&s, .tick(now: now), c)
    _ = Reducer.reduce(&s, .keys([.char("j")]), c)
    let frame = Views.render(s, c, previous: last)
    terminal.present(frame)
    last = frame
}

/// `tui_frame_instructions_200x60` on main before #29's work (bdb19d9, DECISIONS.md); the goal
/// is half of it.
let mainFrameInstructions = 9_457_598.0

/// The figures callgrind counts in this program's `--count` runs, and where the release link
/// put the code a key runs.
func countFigures(linnet: String?) {
    // Instructions for a key's frame (reduce, render, diff, ncurses' bytes), counted by callgrind.
    if let perFrame = instructionsPerItem(executable: CommandLine.arguments[0], arguments: ["--count", "frame"], n: 100) {
        bench("tui_frame_instructions_200x60", perFrame, "instructions", goal: .atMost(mainFrameInstructions / 2))
        print("bench: tui_frame_instructions_200x60_main \(Int(mainFrameInstructions)) instructions (before #29)")
    }
    // The key the latency figure sends, once the selection is at the bottom: a card comes in.
    if let perKey = instructionsPerItem(executable: CommandLine.arguments[0], arguments: ["--count", "scroll"], n: 100) {
        print("bench: tui_scroll_key_instructions_160x50 \(Int(perKey)) instructions")
    }
    // Of which its reduce, render and write (most of what the key latency waits for), each key
    // after the caches are emptied (what is written over them is not counted): the lines of
    // code and data it then fetches from memory, a key's cost after a pause (DECISIONS.md).
    if let before = eventsPerItem(
        executable: CommandLine.arguments[0], arguments: ["--count", "cold"], n: 100, within: "*keyToFrame*", caches: true),
        let instructions = before["Ir"], let code = before["ILmr"], let read = before["DLmr"], let written = before["DLmw"]
    {
        print("bench: tui_scroll_key_instructions_before_write_160x50 \(Int(instructions)) instructions")
        print(
            "bench: tui_scroll_key_memory_lines_160x50 \(Int(code + read + written)) lines (code \(Int(code)), data read \(Int(read)), written \(Int(written)))"
        )
    }
    if let linnet, let hot = hotCodePages(linnet: linnet) {
        print(
            "bench: tui_key_code_pages \(hot.pages) pages (\(hot.found) of the \(hot.listed) functions a key runs, laid out by the release link)"
        )
    }
}
