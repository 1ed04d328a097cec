import Foundation
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
        return URL(fileURLWithPath: base).appendingPathComponent("linnet").appendingPathComponent(account)
    }

    /// Saves the drafts; none removes the file.
    public func save(_ drafts: [DraftRecord]) throws {
        guard !drafts.isEmpty else {
            try? FileManager.default.removeItem(at: fileURL)
            return
        }
        let dir = fileURL.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let data = try JSONEncoder().encode(drafts)
        let temp = dir.appendingPathComponent(".draft.\(getpid()).tmp")
        guard FileManager.default.createFile(atPath: temp.path, contents: data, attributes: [.posixPermissions: 0o600]) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: temp.path])
        }
        if rename(temp.path, fileURL.path) != 0 {
            let e = errno
            try? FileManager.default.removeItem(at: temp)
            throw POSIXError(POSIXErrorCode(rawValue: e) ?? .EIO)
        }
    }

    /// The saved drafts (none when there is no file or it cannot be read).
    public func load() -> [DraftRecord] {
        guard let data = FileManager.default.contents(atPath: fileURL.path) else { return [] }
        return ((try? JSONDecoder().decode([DraftRecord].self, from: data)) ?? []).filter { !$0.text.isEmpty }
    }
}
