import Foundation
import Testing
import TwitterSimulator

/// What a process test of a signed-in user needs: an in-process simulator and XDG folders of
/// its own, so the user's files and the tests' never meet.
struct AccountHome {
    let server: SimulatorServer
    let dir: String
    /// This process's environment with the folders set and no LINNET_ variables.
    let environment: [String: String]
    /// The same folders as `env` assignments, for a command line under tmux.
    var variables: String { "XDG_CONFIG_HOME=\(dir)/config XDG_CACHE_HOME=\(dir)/cache XDG_STATE_HOME=\(dir)/state" }

    /// Nil (with the reason recorded) when the `linnet` binary has not been built.
    static func start(_ label: String, _ tweak: (inout SimulatorConfiguration) -> Void = { _ in }) async throws -> AccountHome? {
        guard TerminalTests.DemoEndToEndTests.binaryIsBuilt() else { return nil }
        var config = SimulatorConfiguration.quiet
        config.keepAliveSeconds = 1
        tweak(&config)
        let server = try await SimulatorServer.start(config)
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
            "linnet-\(label)-\(getpid())-\(Int.random(in: 0..<1_000_000))"
        ).path
        var env = childEnvironment.filter { !$0.key.hasPrefix("LINNET_") }
        env["XDG_CONFIG_HOME"] = dir + "/config"
        env["XDG_CACHE_HOME"] = dir + "/cache"
        env["XDG_STATE_HOME"] = dir + "/state"
        return AccountHome(server: server, dir: dir, environment: env)
    }

    /// For `defer` (after the tmux session is killed, which waits for the reader to end): the
    /// folders go now, before the test process can exit; the simulator stops in a task.
    func end() {
        try? FileManager.default.removeItem(atPath: dir)
        let server = self.server
        Task { await server.stop() }
    }

    /// Runs `linnet` with these folders.
    func linnet(_ args: [String]) async throws -> (status: Int32, output: String) {
        try await runProcess(TerminalTests.DemoEndToEndTests.binary, args, environment: environment)
    }
}
