import CMallocInfo
import Foundation
import Timeline
import TwitterAPI

/// What a tweet keeps: everything, its text but no entities, or neither (the object, its ids,
/// its place in the store).
enum TweetShape { case full, textOnly, bare }

/// Heap bytes per tweet with `n` distinct tweets held in one timeline (cap above `n`), each
/// decoded afresh from the fixture as a stream delivers it and kept in `shape`.
func heapPerTweet(_ n: Int, _ shape: TweetShape, lines: [Data]) async -> Double {
    let decoder = V1Decoder()
    // Every fixture author interned first, so their bytes are not counted in the tweets'.
    for line in lines { _ = try? decoder.streamMessage(from: line) }
    let store = TimelineStore(cap: n + 1)
    let before = cmi_heap_in_use()
    for i in 0..<n {
        guard case .tweet(let o)? = try? decoder.streamMessage(from: lines[i % lines.count]) else { continue }
        await store.add(reshaped(o, shape, id: TweetID(UInt64(1_000_000_000 + i))), to: [.home])
    }
    let after = cmi_heap_in_use()
    let held = await store.tweetCount
    precondition(held == n, "the store holds \(held) of \(n) tweets")
    return Double(Int(after) - Int(before)) / Double(n)
}

/// Heap bytes the decoder's interned users take, all fixture authors.
func userBytes(lines: [Data]) -> Int {
    let before = cmi_heap_in_use()
    let decoder = V1Decoder()
    for line in lines { _ = try? decoder.streamMessage(from: line) }
    let after = cmi_heap_in_use()
    withExtendedLifetime(decoder) {}
    return Int(after) - Int(before)
}

/// `t` (and the tweets it carries) keeping only what `shape` keeps.
func reshaped(_ t: Tweet, _ shape: TweetShape, id: TweetID? = nil) -> Tweet {
    Tweet(
        id: id ?? t.id, createdAt: t.createdAt, user: t.user, text: shape == .bare ? "" : t.text, displayRange: t.displayRange,
        entities: shape == .full ? t.entities : Entities(), inReplyToStatusID: t.inReplyToStatusID, inReplyToUserID: t.inReplyToUserID,
        inReplyToScreenName: t.inReplyToScreenName, retweetedStatus: t.retweetedStatus.map { reshaped($0, shape) },
        quotedStatus: t.quotedStatus.map { reshaped($0, shape) }, quotedStatusID: t.quotedStatusID, retweetCount: t.retweetCount,
        favoriteCount: t.favoriteCount, isFavorited: t.isFavorited, isRetweeted: t.isRetweeted, isTruncated: t.isTruncated, lang: t.lang,
        extras: t.extras)
}
