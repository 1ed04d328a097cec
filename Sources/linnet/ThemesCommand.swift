import ArgumentParser
import Screen

/// `linnet themes`: the themes Linnet can use, and where each comes from.
struct ThemesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "themes",
        abstract: "List the themes and where each comes from.",
        discussion: """
            A theme named in config.toml or by --theme is looked for in $XDG_CONFIG_HOME/linnet/themes \
            (~/.config/linnet/themes), then $LINNET_THEMES, then linnet/themes in each folder of $XDG_DATA_DIRS \
            (/usr/local/share, /usr/share), then among the themes built into Linnet. The first found wins.
            """)

    func run() throws {
        let list = Theme.sources()
        let width = list.map(\.name.count).max() ?? 0
        for (name, origin) in list {
            print(name + String(repeating: " ", count: width - name.count) + "  " + origin)
        }
    }
}
