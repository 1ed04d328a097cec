import FoundationEssentials
import PrivateFiles

#if canImport(Glibc)
    import Glibc
#endif

/// The world as saved to `--state FILE`: JSON, versioned.
struct SimulatorState: Codable {
    static let currentVersion = 1
    var version: Int
    var users: [SimUser]
    var tweets: [SimTweet]
    var deleted: [UInt64]
    var consumers: [String: World.Consumer]
    var accessTokens: [String: World.AccessToken]
    var credentials: SimulatorCredentials

    static func load(_ path: String) throws -> SimulatorState {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw SimulatorError("cannot read the state file \(path)")
        }
        let state: SimulatorState
        do {
            state = try JSONDecoder().decode(SimulatorState.self, from: data)
        } catch {
            throw SimulatorError(
                "the state file \(path) is not a Linnet simulator state (it may be corrupt or from another program); move it aside or pass another --state"
            )
        }
        guard state.version == currentVersion else {
            throw SimulatorError("the state file \(path) has version \(state.version); this simulator reads version \(currentVersion)")
        }
        return state
    }

    /// Written to a temporary file, then renamed over the old one.
    func save(_ path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = try encoder.encode(self)
        do { try PrivateFile.write(data, to: URL(fileURLWithPath: path), privateFolder: false) } catch {
            throw SimulatorError(error.description)
        }
    }
}

extension World {
    func state() -> SimulatorState {
        SimulatorState(
            version: SimulatorState.currentVersion, users: users.values.sorted { $0.id < $1.id },
            tweets: createdIDs.compactMap { tweets[$0] }, deleted: deleted.sorted(), consumers: consumers,
            accessTokens: accessTokens, credentials: credentials)
    }

    func closeAllStreams() {
        for id in Array(subscribers.keys) { unsubscribe(id) }
    }
}
