extension Theme {
    /// The dark default, used when no theme file can be read; `Themes/dark.toml` holds the
    /// same values (a test keeps them equal).
    public static let fallback: Theme = {
        func s(_ fg: String, _ a: Attributes = [], bg: String = "default") -> Style {
            Style(fg: Color(parsing: fg) ?? .default, bg: Color(parsing: bg) ?? .default, a)
        }
        var theme = Theme(
            name: "dark",
            styles: [
                .text: s("default"), .dim: s("#8a8a8a"), .name: s("default", .bold), .handle: s("#5fafd7"),
                .time: s("#8a8a8a"), .mention: s("#5fafd7"), .hashtag: s("#87d787"), .url: s("#afafff", .underline),
                .counts: s("#8a8a8a"), .retweetMarker: s("#87d787"), .replyMarker: s("#d7af5f"), .quote: s("#a8a8a8"),
                .selection: s("default", bg: "#303a4a"), .newMarker: s("#ffd75f", .bold),
                .tabActive: s("#ffffff", .bold, bg: "#005faf"), .tabInactive: s("#bcbcbc", bg: "#262626"),
                .tabBar: s("#bcbcbc", bg: "#262626"),
                .status: s("#bcbcbc", bg: "#262626"), .statusError: s("#ff8787", .bold, bg: "#262626"),
                .statusOK: s("#87d787", bg: "#262626"),
                .border: s("#5f5f5f"), .title: s("#ffffff", .bold), .counter: s("#87d787"), .counterOver: s("#ff5f5f", .bold),
                .overLimit: s("#ffffff", bg: "#870000"), .help: s("#d0d0d0", bg: "#1c1c1c"), .helpKey: s("#ffd75f", .bold, bg: "#1c1c1c"),
                .prompt: s("#ffd75f", .bold), .notice: s("#d7af5f"),
            ])
        // As Themes/dark.toml: a dark terminal, its text a light grey.
        theme.background = .rgb(0, 0, 0)
        theme.foreground = .rgb(0xd0, 0xd0, 0xd0)
        return theme
    }()
}
