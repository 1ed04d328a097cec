import Foundation
import Testing

extension TerminalTests {
    /// The demo under tmux, as a local session and as one sshd started (`SSH_CONNECTION` set):
    /// the selected card is on a background band locally, marked by the gutter bar alone over ssh.
    @Suite(.serialized) struct SelectionBandEndToEndTests {
        /// The rows of the selected card as tmux holds them, colours as escapes (`capture-pane -e`).
        static func selectedRows(ssh: Bool) async throws -> [String] {
            let port = DemoEndToEndTests.freePort()
            let stateDir = FileManager.default.temporaryDirectory.appendingPathComponent("linnet-band-\(port)").path
            defer { try? FileManager.default.removeItem(atPath: stateDir) }
            // swift test sets NO_COLOR, which leaves no band to see.
            let session =
                ssh
                ? "env -u NO_COLOR XDG_CONFIG_HOME=\(stateDir)/config SSH_CONNECTION='127.0.0.1 50000 127.0.0.1 22'"
                : "env -u NO_COLOR -u SSH_CONNECTION -u SSH_TTY XDG_CONFIG_HOME=\(stateDir)/config"
            let tmux = try await Tmux.start(
                "\(session) \(DemoEndToEndTests.binary) demo --port \(port) --tweets-per-minute 0 --state-dir \(stateDir); sleep 60",
                width: 100, height: 30)
            defer { tmux.kill() }
            // In colour: the first frame may come before the terminal's answers chose the theme.
            func coloured() async -> String { (try? await tmux.colouredScreen()) ?? "" }
            let (ok, screen) = try await tmux.wait(30) { plain in
                guard plain.contains("Home: streaming"), plain.contains("▌") else { return false }
                return await coloured().contains("\u{1B}[38;5;")
            }
            #expect(ok, "no timeline appeared in colour:\n\(screen)")
            return await coloured().components(separatedBy: "\n").filter { $0.contains("▌") }
        }

        /// Whether a captured row sets a background colour (SGR 40–47, 48;…, 100–107).
        static func setsBackground(_ row: String) -> Bool {
            row.split(separator: "\u{1B}").contains { seq in
                guard seq.hasPrefix("["), let end = seq.firstIndex(of: "m") else { return false }
                let params = seq[seq.index(after: seq.startIndex)..<end].split(separator: ";", omittingEmptySubsequences: false).map {
                    Int($0) ?? 0
                }
                var i = 0
                while i < params.count {
                    let p = params[i]
                    if (40...48).contains(p) || (100...107).contains(p) { return true }
                    // A foreground's 38;5;N or 38;2;R;G;B: its numbers are no attributes.
                    if p == 38 { i += params.dropFirst(i + 1).first == 2 ? 5 : 3 } else { i += 1 }
                }
                return false
            }
        }

        @Test func aBandLocallyAndTheBarAloneOverSSH() async throws {
            guard DemoEndToEndTests.binaryIsBuilt() else { return }
            let local = try await Self.selectedRows(ssh: false)
            let remote = try await Self.selectedRows(ssh: true)
            #expect(local.count >= 2 && local.allSatisfy(Self.setsBackground), "\(local)")
            #expect(remote.count == local.count && !remote.contains(where: Self.setsBackground), "\(remote)")
        }
    }
}
