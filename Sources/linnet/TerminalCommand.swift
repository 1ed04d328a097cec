import ArgumentParser
import Bedrock
import CursesTerminal
import FoundationEssentials
import Screen
import TweetText

#if canImport(Glibc)
    import Glibc
#endif

/// `linnet terminal`: what the terminal says about itself, as the reader asks it at start.
struct TerminalCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "terminal",
        abstract: "Show what the terminal says: background, pictures, cell size, widths.",
        discussion: """
            Asks the terminal what the reader asks at start, and waits for the answers (a round trip): its background (OSC 11), whether it \
            draws kitty graphics (a kitty graphics query) or sixel (DA1), and how many cells it gives each kind of \
            cluster terminals disagree on (written concealed, then the cursor's place asked). The answers may be written to a file (standard \
            input must be the terminal).
            """)

    func run() throws {
        guard isatty(0) == 1 else { throw CLIError("linnet terminal: standard input must be a terminal") }
        let env = ProcessEnvironment.values
        let reply = TerminalProbe.reply()
        var lines: [String] = []
        if let (r, g, b) = TerminalBackground.parse(reply) {
            lines.append("background  rgb(\(r), \(g), \(b)), \(Contrast.isLight((r, g, b)) ? "light" : "dark")")
        } else {
            lines.append("background  not said (COLORFGBG: \(env["COLORFGBG"] ?? "unset"))")
        }
        let tmux = TmuxPassthrough.ask(environment: env)
        let through = env["TMUX"] == nil ? "" : tmux.map { " (tmux passes them to \($0.terminalType))" } ?? " (inside tmux, no passthrough)"
        lines.append("pictures    \(TerminalProbe.pictureMode(reply: reply, environment: env, tmux: tmux))" + through)
        lines.append(
            "  kitty graphics \(TerminalProbe.drawsKittyGraphics(reply) ? "yes" : "no"), sixel \(TerminalProbe.drawsSixel(reply) ? "yes" : "no")"
        )
        lines.append("cell        " + (TerminalProbe.cellPixels().map { "\($0.width)x\($0.height) pixels" } ?? "size not said"))
        let columns = TerminalProbe.cursorColumns(reply)
        lines.append("widths      cells the terminal gave / per scalar / as one cluster")
        for (i, sample) in ClusterKinds.samples.enumerated() {
            let c = Character(sample.text)
            let measured = i < columns.count ? String(columns[i] - 1) : "?"
            lines.append(
                "  \(Self.name(sample.kind))  \(measured) / \(DisplayWidth.of(c, mode: .perScalar)) / \(DisplayWidth.of(c, mode: .grapheme))"
            )
        }
        if case .measured(let joined)? = TerminalProbe.widthMode(reply) {
            let names = ClusterKinds.samples.filter { joined.contains($0.kind) }.map { Self.name($0.kind).trimmed() }
            lines.append("joined      " + (names.isEmpty ? "none: every scalar its own width" : names.joined(separator: ", ")))
        } else {
            lines.append("joined      not measured: today's rules (per scalar)")
        }
        print(lines.joined(separator: "\n"))
    }

    static func name(_ k: ClusterKinds) -> String {
        let names: [(ClusterKinds, String)] = [
            (.zwj, "zwj sequence"), (.flag, "flag        "), (.vs16, "vs-16       "), (.vs15, "vs-15       "),
            (.keycap, "keycap      "), (.skinTone, "skin tone   "),
        ]
        return names.first { $0.0 == k }?.1 ?? "?"
    }
}
