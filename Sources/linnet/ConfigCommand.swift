import ArgumentParser
import Bedrock
import CursesTerminal
import FoundationEssentials
import LinnetCore
import Screen
import Timeline

#if canImport(Glibc)
    import Glibc
#endif

extension GlobalOptions {
    /// config.toml (or --config), read once; a problem names file and line.
    func config() throws -> Config {
        let url = configFile.map { URL(fileURLWithPath: $0) } ?? Config.defaultFile()
        // The default file may be missing (defaults); a file named on the command line may not.
        if let named = configFile, !FileManager.default.fileExists(atPath: named) {
            throw CLIError("--config \(named): no such file.", code: .usage)
        }
        do { return try Config.load(url) } catch { throw CLIError(error.description) }
    }

    func settings(_ config: Config, account: String) -> (App.Settings, String?) {
        Self.settings(config, theme: theme, account: account)
    }

    /// App settings from the config file and the flags.
    static func settings(_ config: Config, theme: String?, account: String) -> (App.Settings, String?) {
        var s = App.Settings()
        var notice: String?
        // `auto`: as the terminal answered last time, else COLORFGBG, until it answers (asked
        // as curses starts, not waited for).
        let env = ProcessEnvironment.values
        let themeName = Theme.resolve(theme ?? config.theme) {
            TerminalMemory.recall(environment: env).flatMap(TerminalBackground.parse).map(Contrast.isLight)
                ?? env["COLORFGBG"].flatMap { TerminalBackground.isLight(colorFGBG: $0) }
        }
        s.themeAuto = (theme ?? config.theme) == "auto"
        s.backgroundIsLight = { TerminalBackground.parse($0).map(Contrast.isLight) }
        do { s.theme = try Theme.load(themeName) } catch { notice = "Theme not loaded, using the default: \(error)" }
        s.keyMap = config.keyMap
        s.confirmBeforePost = config.confirmBeforePost
        s.bellOnMention = config.bellOnMention
        s.bellOnMessage = config.bellOnMessage
        s.desktopNotifications = config.desktopNotifications
        s.filters = config.filters
        s.panes = config.panes.compactMap(Config.pane)
        s.drafts = DraftStore(directory: DraftStore.defaultDirectory(account: account))
        return (s, notice)
    }
}

/// `linnet config`: the effective settings, defaults included.
struct ConfigCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config", abstract: "Print the effective configuration (config.toml with its defaults filled in).")
    @OptionGroup var global: GlobalOptions

    func run() async throws {
        let c = try global.config()
        print("# \(global.configFile ?? Config.defaultFile().path)")
        print(c.rendered, terminator: "")
        // A theme that cannot be loaded is said, with the names that can.
        do { _ = try Theme.load(Theme.resolve(global.theme ?? c.theme) { nil }) } catch {
            throw CLIError(
                "theme \"\(global.theme ?? c.theme)\" cannot be used: \(error) (themes: \(Theme.available().joined(separator: ", ")))")
        }
    }
}
