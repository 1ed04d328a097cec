import Bedrock
import FoundationEssentials
import PrivateFiles
import TwitterAPI

#if canImport(Glibc)
    import Glibc
#endif

/// Unsent drafts on disk (`$XDG_STATE_HOME/linnet/<account>/draft.json`), written atomically
/// with mode 0600, so a crash or a quit never loses what was typed.
public struct DraftStore: Sendable {
    public let fileURL: URL

    public init(directory: URL) { fileURL = directory.appendingPathComponent("draft.json") }

    public static func defaultDirectory(account: String, environment: [String: String] = ProcessEnvironment.values) -> URL {
        let base: String
        if let s = environment["XDG_STATE_HOME"], !s.isEmpty {
            base = s
        } else {
            base = (environment["HOME"] ?? Path.home()) + "/.local/state"
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

    /// What was found on disk, and what was wrong with it in words.
    public struct Loaded: Equatable, Sendable {
        public var drafts: [DraftRecord]
        public var problem: String?
    }

    /// The saved drafts. A file that cannot be read as drafts is moved aside (never overwritten
    /// by the next save) and named in `problem`.
    public func read() -> Loaded {
        PrivateFile.removeLeftovers(in: fileURL.deletingLastPathComponent(), for: [fileURL.lastPathComponent])
        let data: Data
        do {
            guard let d = try PrivateFile.read(fileURL, limit: 16 << 20) else { return Loaded(drafts: []) }
            data = d
        } catch {
            return Loaded(drafts: [], problem: setAside("it cannot be read: \(error.description)"))
        }
        do {
            return Loaded(drafts: try JSONDecoder().decode([DraftRecord].self, from: data).filter { !$0.text.isEmpty })
        } catch {
            return Loaded(drafts: [], problem: setAside("it is damaged (\(data.count) bytes that are not Linnet's drafts)"))
        }
    }

    /// The saved drafts (see `read` for what went wrong, if anything).
    public func load() -> [DraftRecord] { read().drafts }

    private func setAside(_ why: String) -> String {
        let aside = fileURL.path + ".unreadable-\(Int(Date().timeIntervalSince1970))"
        if rename(fileURL.path, aside) == 0 {
            return "The drafts file \(fileURL.path) was not used: \(why). It was moved to \(aside), so nothing in it is lost."
        }
        return "The drafts file \(fileURL.path) was not used: \(why)."
    }
}
