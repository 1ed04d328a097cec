import Foundation
import LinnetCore
import Timeline
import TwitterAPI

// Saves a timeline cache and the drafts over and over into the folder named by its argument,
// printing each round's number once both saves of that round are done, until it is killed.
// The kill -9 test (HostileTests) runs it.
let dir = URL(fileURLWithPath: CommandLine.arguments[1])
let cache = TimelineCache(directory: dir.appendingPathComponent("cache"))
let drafts = DraftStore(directory: dir.appendingPathComponent("drafts"))
let user = User(id: UserID(7), screenName: "ann", name: "Ann")
var table = TweetTable()
var ids: [TweetID] = []
for i in 1...600 {
    let id = TweetID(UInt64(1000 + i))
    table[id] = Tweet(id: id, createdAt: 1_800_000_000 + Int64(i), user: user, text: "tweet \(i) " + String(repeating: "word ", count: 30))
    ids.insert(id, at: 0)
}
var round: UInt64 = 0
while true {
    round += 1
    // The round is the anchor, so a load tells which save it came from.
    let view = TimelineView(ids: ids, anchor: TweetID(1000 + round % 600 + 1))
    do {
        try cache.save(TimelineSnapshot(version: round, tweets: table, timelines: [.home: view]))
        try drafts.save([DraftRecord(text: "draft \(round)", replyTo: nil)])
    } catch {
        FileHandle.standardError.write(Data("save-loop: \(error)\n".utf8))
        exit(1)
    }
    FileHandle.standardOutput.write(Data("\(round)\n".utf8))
}
