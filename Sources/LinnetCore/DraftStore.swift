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

    struct Stored: Codable {
        var text: String
        var replyTo: String?
    }

    /// Saves a draft, or removes the saved one when `text` is nil or blank.
    public func save(text: String?, replyTo: TweetID?) throws {
        guard let text, !text.allSatisfy(\.isWhitespace) else {
            try? FileManager.default.removeItem(at: fileURL)
            return
        }
        let dir = fileURL.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let data = try JSONEncoder().encode(Stored(text: text, replyTo: replyTo?.description))
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

    /// The saved draft, if any.
    public func load() -> (text: String, replyTo: TweetID?)? {
        guard let data = FileManager.default.contents(atPath: fileURL.path),
            let d = try? JSONDecoder().decode(Stored.self, from: data), !d.text.isEmpty
        else { return nil }
        return (d.text, d.replyTo.flatMap(TweetID.init))
    }
}
