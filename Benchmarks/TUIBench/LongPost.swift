import Foundation
import LinnetCore
import LinnetTestSupport
import Screen
import Timeline
import TwitterAPI

/// The longest post Linnet keeps (256 KB of text: short words and full stops, and no URL
/// entities, so the links twitter-text finds are looked for) at 160x50: its first frame, enter
/// into the reader, and the slowest page key through the whole post, each a key's answer with
/// its frame.
func longPostFigures() async {
    let store = TimelineStore()
    var post = makeTweets(1)[0]
    post = Tweet(
        id: TweetID(3_000_000_000), createdAt: post.createdAt + 60, user: post.user,
        text: String(repeating: "ab. cd ", count: Tweet.maxTextBytes / 7))
    await store.merge(page: makeTweets(50, from: 2_000_000_000) + [post], into: .home, request: PageRequest(count: 51))
    let c = Context(snapshot: await store.snapshot())
    var s = AppState(account: account, width: 160, height: 50, now: now)
    let clock = ContinuousClock()
    let t0 = clock.now
    _ = Reducer.reduce(&s, .storeChanged, c)
    _ = Views.render(s, c)
    let first = clock.now - t0
    let t1 = clock.now
    _ = Reducer.reduce(&s, .keys([.enter]), c)
    _ = Views.render(s, c)
    let enter = clock.now - t1
    guard s.reading?.id == post.id else {
        print("TUIBench: enter did not open the reader on the long post")
        return
    }
    var slowest = Duration.zero
    var pages = 0
    while pages < 5_000 {
        let top = s.reading?.top
        let t = clock.now
        _ = Reducer.reduce(&s, .keys([.char(" ")]), c)
        _ = Views.render(s, c)
        slowest = max(slowest, clock.now - t)
        pages += 1
        if s.reading?.top == top { break }
    }
    print("a 256 KB post at 160x50: first frame, enter and \(pages) page keys through the reader")
    bench("tui_long_post_first_frame_ms", seconds(first) * 1000, "ms", decimals: 1, goal: .atMost(100))
    bench("tui_long_post_enter_ms", seconds(enter) * 1000, "ms", decimals: 1, goal: .atMost(100))
    bench("tui_long_post_slowest_page_key_ms", seconds(slowest) * 1000, "ms", decimals: 1, goal: .atMost(100))
}
