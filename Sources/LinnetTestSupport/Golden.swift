import Foundation

/// Golden text files: a rendered screen compared with the file next to the test; run with
/// `LINNET_RECORD=1` to write the files anew.
public enum Golden {
    public struct Mismatch: Error, CustomStringConvertible {
        public let description: String
    }

    /// Compares `text` with `Golden/<name>.txt` in the folder of `testFile`; nil when equal,
    /// otherwise a line-by-line diff. With `LINNET_RECORD=1` the file is written anew and the
    /// answer is still a failure ("recorded"), so a recording run can never pass silently.
    public static func check(_ text: String, _ name: String, testFile: String = #filePath) -> String? {
        let dir = URL(fileURLWithPath: testFile).deletingLastPathComponent().appendingPathComponent("Golden")
        let url = dir.appendingPathComponent(name + ".txt")
        let framed = text + "\n"
        if ProcessInfo.processInfo.environment["LINNET_RECORD"] == "1" {
            try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            do {
                try Data(framed.utf8).write(to: url, options: .atomic)
                return "recorded \(url.path); check it, then run again without LINNET_RECORD"
            } catch {
                return "could not record \(url.path): \(error)"
            }
        }
        guard let data = FileManager.default.contents(atPath: url.path) else {
            return "no golden file \(url.path); run with LINNET_RECORD=1 to record it"
        }
        let want = String(decoding: data, as: UTF8.self)
        if want == framed { return nil }
        return "\(name) differs from \(url.lastPathComponent) (- golden, + rendered):\n" + diff(want, framed)
    }

    /// Lines of `a` and `b` side by side: `  ` for equal lines, `- `/`+ ` for the ones that
    /// differ, paired by position (a screen keeps its rows in place).
    public static func diff(_ a: String, _ b: String) -> String {
        let x = a.split(separator: "\n", omittingEmptySubsequences: false)
        let y = b.split(separator: "\n", omittingEmptySubsequences: false)
        var out: [String] = []
        for i in 0..<max(x.count, y.count) {
            let l = i < x.count ? String(x[i]) : nil
            let r = i < y.count ? String(y[i]) : nil
            if l == r {
                out.append(String(format: "%3d   ", i + 1) + (l ?? ""))
            } else {
                if let l { out.append(String(format: "%3d - ", i + 1) + l) }
                if let r { out.append(String(format: "%3d + ", i + 1) + r) }
            }
        }
        return out.joined(separator: "\n")
    }
}
