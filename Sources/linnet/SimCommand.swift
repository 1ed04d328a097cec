import ArgumentParser
import Bedrock
import Dispatch
import FoundationEssentials
import TwitterSimulator

#if canImport(Glibc)
    import Glibc
#endif

/// `linnet sim`: the simulated Twitter v1.1 server, standalone.
struct SimCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sim",
        abstract: "Run a simulated Twitter v1.1 server on loopback.",
        discussion: """
            Prints the base URL and demo credentials, then serves until interrupted (Ctrl-C). \
            The world is built from the seed: the same seed gives the same users, tweets and keys, \
            with the tweets dated to lead up to now (--fixed-dates for the same dates too).
            """)

    @Option(help: "Address to bind (loopback unless you mean otherwise).") var host = "127.0.0.1"
    @Option(help: "Port to bind; 0 picks a free one.") var port: UInt16 = 8080
    @Option(help: "Seed of the generated world.") var seed: UInt64 = 1
    @Option(help: "Number of generated users.") var users = 40
    @Option(help: "New tweets per minute while running.") var tweetsPerMinute: Double = 6
    @Option(help: "Seconds between stream keep-alives.") var keepAlive: Double = 30
    @Option(help: "Rate-limit window in seconds (Twitter's is 900).") var rateLimitWindow: Double = 900
    @Option(help: "Save and load the world here (JSON).") var state: String?
    @Option(help: "Append each API request to this file as a JSON line (no credentials), to check what a client sends.")
    var recordRequests: String?
    @Option(help: "Access level of the simulated keys: self-serve, basic, pro or enterprise (v1.1 only on enterprise).")
    var tier = "enterprise"
    @Flag(help: "Date the backlog from 2026-01-01 on every run instead of leading up to now.") var fixedDates = false
    @Option(help: "Fault: drop every stream after this many messages.") var dropStreamAfter: Int?
    @Option(help: "Fault: the next stream stalls this many seconds.") var stallStream: Double?
    @Option(help: "Fault: delay every answer by this many milliseconds.") var delay = 0
    @Option(help: "Fault: PATH=STATUS[xCOUNT], e.g. /1.1/statuses/home_timeline.json=503x3.")
    var fail: [String] = []

    func run() async throws {
        var config = SimulatorConfiguration()
        config.host = host
        config.port = port
        config.seed = seed
        config.users = users
        config.backlogEndsAt = fixedDates ? nil : Date().timeIntervalSince1970 - 60
        config.tweetsPerMinute = tweetsPerMinute
        config.keepAliveSeconds = keepAlive
        config.rateLimitWindowSeconds = rateLimitWindow
        guard let level = SimulatorConfiguration.Tier(rawValue: tier) else {
            throw ValidationError("--tier must be one of: \(SimulatorConfiguration.Tier.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        config.tier = level
        config.statePath = state
        config.recordRequestsPath = recordRequests
        config.faults.dropStreamAfterMessages = dropStreamAfter
        config.faults.stallStreamSeconds = stallStream
        config.faults.delayMilliseconds = delay
        for spec in fail {
            guard let fault = Self.parseFault(spec) else {
                throw ValidationError("--fail takes PATH=STATUS or PATH=STATUSxCOUNT, not \(spec)")
            }
            config.faults.statusFaults.append(fault)
        }
        let interrupts = InterruptWaiter()
        let server: SimulatorServer
        do {
            server = try await SimulatorServer.start(config)
        } catch {
            throw ValidationError("\(error)")
        }
        let c = server.credentials
        let banner = """
            Linnet simulator listening on \(server.baseURL)
              REST     \(server.baseURL)/1.1/
              OAuth    \(server.baseURL)/oauth/
              streams  \(server.baseURL)/1.1/statuses/filter.json, /1.1/user.json
            Demo credentials (simulated; not valid on Twitter):
              consumer key        \(c.consumerKey)
              consumer secret     \(c.consumerSecret)
              access token        \(c.accessToken)
              access token secret \(c.accessTokenSecret)
              user                @\(c.screenName) (password: \(c.password))
              xAuth consumer      \(c.xauthConsumerKey) / \(c.xauthConsumerSecret)
            Sign in to it (paste this line):
              linnet login --tokens --api-base \(server.baseURL) --consumer-key \(c.consumerKey) --consumer-secret \(c.consumerSecret) --token \(c.accessToken) --token-secret \(c.accessTokenSecret)
            API v2 (\(server.baseURL)/2/):
              OAuth 2.0 client id \(server.configuration.oauth2ClientID) (public client, PKCE)
              redirect URI        \(server.configuration.oauth2RedirectURIs.first ?? "")
              authorize page      \(server.baseURL)/i/oauth2/authorize
              app bearer token    \(server.demoBearerToken())
            Press Ctrl-C to stop.

            """
        // Written unbuffered, so a script reading our output sees it at once.
        Stream.output(banner)
        await interrupts.wait()
        await server.stop()
        print("Simulator stopped.")
    }

    static func parseFault(_ spec: String) -> FaultPlan.StatusFault? {
        let parts = spec.split(separator: "=", maxSplits: 1)
        guard parts.count == 2 else { return nil }
        let rhs = parts[1].split(separator: "x")
        guard let status = Int(rhs[0]), (100...599).contains(status) else { return nil }
        let count = rhs.count > 1 ? Int(rhs[1]) : 1
        guard let count, count > 0 else { return nil }
        return FaultPlan.StatusFault(path: String(parts[0]), status: status, count: count)
    }
}

/// SIGINT and SIGTERM, caught from its creation: one that comes before `wait()` is kept. The
/// banner a script waits for is written after it exists, so a script's stop is never lost
/// (caught only after the banner, a SIGTERM sent at once could come while the signal was
/// ignored and before its source was installed, and the simulator never stopped).
final class InterruptWaiter: @unchecked Sendable {
    private let lock = PlainLock()
    private var fired = false
    private var waiting: CheckedContinuation<Void, Never>?
    private var sources: [any DispatchSourceSignal] = []

    init() {
        signal(SIGINT, SIG_IGN)
        signal(SIGTERM, SIG_IGN)
        let queue = DispatchQueue(label: "linnet.signals")
        sources = [SIGINT, SIGTERM].map { DispatchSource.makeSignalSource(signal: $0, queue: queue) }
        for s in sources {
            s.setEventHandler { [weak self] in self?.fire() }
            s.resume()
        }
    }

    private func fire() {
        lock.lock()
        fired = true
        let c = waiting
        waiting = nil
        lock.unlock()
        c?.resume()
    }

    /// Returns once SIGINT or SIGTERM has come, at once if one already has.
    func wait() async {
        await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
            lock.lock()
            if fired {
                lock.unlock()
                c.resume()
            } else {
                waiting = c
                lock.unlock()
            }
        }
    }
}
