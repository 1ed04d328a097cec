import ArgumentParser
import TwitterAPI

/// The `linnet` command: a terminal Twitter reader.
@main
struct Linnet: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "linnet",
        abstract: "A full-screen terminal Twitter reader.",
        discussion: """
            Linnet reads and writes through the Twitter API v1.1. The simulator, the
            timeline view and login arrive in later releases; this build carries the
            text engine, the OAuth signer and the API models.
            """,
        version: LinnetVersion.string)

    func run() throws {
        print(Linnet.helpMessage())
    }
}
