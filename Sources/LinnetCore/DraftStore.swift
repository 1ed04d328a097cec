import Foundation
import PrivateFiles
import TwitterAPI

/// Unsent drafts on disk (`$XDG_STATE_HOME/linnet/<account>/draft.json`), written atomically
/// with mode 0600, so a crash or a quit never loses what was typed.
public struct DraftStore: Sendable {
    public let fileURL: URL

    public init(directory: URL) { fileURL = directory.appendingPathComponent("draft.json") }

    public static func defaultDirectory(account: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        let base: String
        if let s = environment["XDG_STATE_HOME"], !s.isEmpty {
            base = s
        } else {
            base = (environment["HOME"] ?? NSTemporaryDirectory()) + "/.local/state"
        }
        return URL(fileURLWithPath: base).appendingPathComponent("linnet").appendingPathComponent(PrivateFile.folderName(for: account))
    }

    /// Saves the drafts; none removes the file.
    public func save(_ drafts: [DraftRecord]) throws {
        guard !drafts.isEmpty else {
            try? FileManager.default.removeItem(at: fileURL)
            return
        }
        try PrivateFile.write(try JSONEncoder().encode(drafts), to: fileURL)
    }

    /// The saved drafts (none when there is no file or it cannot be read).
    public func load() -> [DraftRecord] {
        PrivateFile.removeLeftovers(in: fileURL.deletingLastPathComponent(), for: [fileURL.lastPathComponent])
        guard let data = FileManager.default.contents(atPath: fileURL.path) else { return [] }
        return ((try? JSONDecoder().decode([DraftRecord].self, from: data)) ?? []).filter { !$0.text.isEmpty }
    }
}
