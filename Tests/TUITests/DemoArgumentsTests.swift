import Foundation
import Testing

extension TerminalTests {
    /// `linnet demo …` is parsed by the demo's command alone when it accepts the arguments, and
    /// the whole way otherwise: each case as the root's parse answered it (no terminal here, so
    /// an accepted command line ends at the demo's own checks).
    @Suite struct DemoArgumentsTests {
        static let noTerminal = "linnet demo draws a full-screen interface and needs a terminal"

        func demo(_ args: [String]) async throws -> (status: Int32, output: String) {
            try await runProcess(DemoEndToEndTests.binary, ["demo"] + args)
        }

        @Test func acceptedArgumentsReachTheDemo() async throws {
            guard DemoEndToEndTests.binaryIsBuilt() else { return }
            let tier = try await demo(["--seed", "3", "--tier", "nope"])
            #expect(tier.status == 2)
            #expect(tier.output.contains("--tier is one of self-serve, basic, pro, enterprise, not nope."), "\(tier.output)")
            let budget = try await demo(["--api", "v1.1", "--budget-per-day", "5"])
            #expect(budget.status == 2)
            #expect(budget.output.contains("--budget-per-day takes a number of dollars, with --api v2"), "\(budget.output)")
            // A repeated option: the last one counts (v2, where a budget applies).
            let repeated = try await demo(["--api", "v1.1", "--api", "v2", "--budget-per-day", "5"])
            #expect(repeated.status == 2 && repeated.output.contains(Self.noTerminal), "\(repeated.output)")
            for args in [["--seed", "3", "--theme", "light"], ["--theme", "a", "--theme", "b", "--port", "0"], []] {
                let r = try await demo(args)
                #expect(r.status == 2 && r.output.contains(Self.noTerminal), "\(args): \(r.output)")
                // A failure in the command's run is worded by the root, as it was.
                #expect(r.output.contains("Usage: linnet <options> <subcommand>"), "\(args): \(r.output)")
            }
        }

        /// What the demo's command refuses is parsed again from the root: its usage line, its
        /// help, and the root's own options after the command name, which the root takes.
        @Test func refusedArgumentsAreTheRootsToAnswer() async throws {
            guard DemoEndToEndTests.binaryIsBuilt() else { return }
            let unknown = try await demo(["--nope"])
            #expect(unknown.status == 2)
            #expect(unknown.output.contains("Unknown option '--nope'"), "\(unknown.output)")
            #expect(unknown.output.contains("Usage: linnet demo ["), "\(unknown.output)")
            let missing = try await demo(["--seed"])
            #expect(missing.status == 2 && missing.output.contains("Missing value for '--seed <seed>'"), "\(missing.output)")
            #expect(missing.output.contains("Usage: linnet demo ["), "\(missing.output)")
            let help = try await demo(["--help"])
            #expect(help.status == 0 && help.output.contains("USAGE: linnet demo"), "\(help.output)")
            let search = try await demo(["--search", "x"])
            #expect(search.status == 2 && search.output.contains(Self.noTerminal), "\(search.output)")
            // The demo's own parse leaves completion scripts alone: the root writes its own.
            let script = try await demo(["--generate-completion-script", "bash"])
            let root = try await runProcess(DemoEndToEndTests.binary, ["--generate-completion-script", "bash"])
            #expect(script.status == 0 && root.status == 0 && script.output.contains("_linnet()"), "\(script.output.prefix(300))")
            #expect(script.output == root.output)
        }
    }
}
