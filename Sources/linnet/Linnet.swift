import ArgumentParser
import TwitterAPI

/// The `linnet` command: a terminal Twitter reader.
@main
struct Linnet: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "linnet",
        abstract: "A full-screen terminal Twitter reader.",
        discussion: """
            Linnet reads and writes through the Twitter API v1.1. `linnet sim` runs a simulated
            v1.1 server on loopback for trying Linnet without keys.
            """,
        version: LinnetVersion.string,
        subcommands: [DemoCommand.self, SimCommand.self])
}
