import Screen
import Timeline

extension Config {
    /// Whether the selected card is drawn on a band: as set, else on a local terminal only.
    public func selectionBandShown(remote: Bool) -> Bool { selectionBand ?? !remote }

    /// The effective settings as TOML (what `linnet config` prints).
    public var rendered: String {
        var out = """
            theme = \(AccountStore.quote(theme))
            confirm_before_post = \(confirmBeforePost)
            bell_on_mention = \(bellOnMention)
            bell_on_message = \(bellOnMessage)
            desktop_notifications = \(desktopNotifications)
            panes = [\(panes.map(AccountStore.quote).joined(separator: ", "))]
            keep_per_timeline = \(keepPerTimeline)
            escape_delay_ms = \(escapeDelayMilliseconds)
            mouse = \(mouse)
            images = \(AccountStore.quote(images))
            media_cache_mb = \(mediaCacheMegabytes)
            thumbnails = \(thumbnails)
            \(budgetPerDay.map { "budget_per_day = \($0)\n" } ?? "")\(hyperlinks.map { "hyperlinks = \($0)\n" } ?? "")\(selectionBand.map { "selection_band = \($0)\n" } ?? "")
            [poll]
            minimum_seconds = \(Int(minimumPollSeconds))

            [prices]

            """
        for (name, field) in UsagePrices.names { out += "\(name) = \(prices[keyPath: field])\n" }
        out += "\n[filters]\n"
        for (name, list) in [
            ("words", filters.words), ("phrases", filters.phrases), ("hashtags", filters.hashtags), ("users", filters.users),
            ("regex", filters.patterns),
        ] {
            out += "\(name) = [\(list.map(AccountStore.quote).joined(separator: ", "))]\n"
        }
        for mode in KeyMode.allCases {
            let bindings = keyMap.bindings.filter { $0.mode == mode }
            guard !bindings.isEmpty || KeyMap.standard.bindings.contains(where: { $0.mode == mode }) else { continue }
            out += "\n[keys.\(mode.rawValue)]\n"
            func name(_ b: Binding) -> String { AccountStore.quote(b.keys.map(\.description).joined(separator: " ")) }
            for b in bindings { out += "\(name(b)) = \(AccountStore.quote(b.command.rawValue))\n" }
            // Defaults this file unbound, so the output reads back as the same key map.
            for b in KeyMap.standard.bindings where b.mode == mode && !bindings.contains(where: { $0.keys == b.keys }) {
                out += "\(name(b)) = \"none\"\n"
            }
        }
        return out
    }
}
