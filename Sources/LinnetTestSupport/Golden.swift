import Foundation

/// Golden text files: a rendered screen compared with the file next to the test; run with
/// `LINNET_RECORD=1` to write the files anew.
public enum Golden {
    public struct Mismatch: Error, CustomStringConvertible {
        public let description: String
    }

    /// Compares `text` with `Golden/<name>.txt` in the folder of `testFile`; returns nil when
    /// equal (or just recorded), otherwise the first differing line.
    public static func check(_ text: String, _ name: String, testFile: String = #filePath) -> String? {
        let dir = URL(fileURLWithPath: testFile).deletingLastPathComponent().appendingPathComponent("Golden")
        let url = dir.appendingPathComponent(name + ".txt")
        let framed = text + "\n"
        if ProcessInfo.processInfo.environment["LINNET_RECORD"] == "1" {
            try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            do {
                try Data(framed.utf8).write(to: url, options: .atomic)
                return nil
            } catch {
                return "could not record \(url.path): \(error)"
            }
        }
        guard let data = FileManager.default.contents(atPath: url.path) else {
            return "no golden file \(url.path); run with LINNET_RECORD=1 to record it"
        }
        let want = String(decoding: data, as: UTF8.self)
        if want == framed { return nil }
        let a = want.split(separator: "\n", omittingEmptySubsequences: false)
        let b = framed.split(separator: "\n", omittingEmptySubsequences: false)
        for i in 0..<max(a.count, b.count) {
            let x = i < a.count ? String(a[i]) : "<none>", y = i < b.count ? String(b[i]) : "<none>"
            if x != y { return "\(name) line \(i + 1):\n  want: \(x)\n  got:  \(y)\n\nwhole screen:\n\(text)" }
        }
        return "\(name) differs"
    }
}
