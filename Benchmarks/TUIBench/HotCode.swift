import Foundation
import Spawn

/// The 4 KB pages that the functions `Sources/linnet/hot-order.txt` lists (those a key runs)
/// take in `linnet`, and how many of them it still defines: about 64 when the release link laid
/// them out together, about 216 when it did not (DECISIONS.md, 2026-11-29). Nil without `nm`
/// or the list.
func hotCodePages(linnet: String, list: String = "Sources/linnet/hot-order.txt") -> (pages: Int, found: Int, listed: Int)? {
    guard let text = try? String(contentsOfFile: list, encoding: .utf8),
        let run = try? ChildProcess.run("nm", ["--print-size", "--defined-only", linnet], stderr: .null), run.status == 0
    else { return nil }
    let listed = Set(text.split(separator: "\n").map(String.init))
    var pages = Set<UInt64>()
    var found = Set<String>()
    // "address size type name", the functions (text symbols) alone.
    for line in String(decoding: run.output, as: UTF8.self).split(separator: "\n") {
        let fields = line.split(separator: " ")
        guard fields.count == 4, fields[2] == "t" || fields[2] == "T", listed.contains(String(fields[3])),
            let address = UInt64(fields[0], radix: 16), let size = UInt64(fields[1], radix: 16)
        else { continue }
        found.insert(String(fields[3]))
        for page in (address >> 12)...((address + max(size, 1) - 1) >> 12) { pages.insert(page) }
    }
    return (pages.count, found.count, listed.count)
}
