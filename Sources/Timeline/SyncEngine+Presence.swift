import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// Reading pays for what is shown: the pane on screen is polled at its pace, mentions and
/// messages too (they ring the notices), other panes and an absent reader rarely; coming back,
/// or bringing a pane to the front, reads it at once (a page, and a gap marker for the rest).
extension SyncEngine {
    public func setPresence(away: Bool, showing: TimelineID?) {
        let wasAway = self.away
        let before = self.showing
        self.away = away
        self.showing = showing
        // The first word (before: nil) changes nothing: the pollers have just started.
        guard !away, let s = showing, before != nil, wasAway || s != before, pollers[s] != nil else { return }
        // Flicking between panes reads nothing new: a read within `freshSeconds` (or the
        // configured least time between polls) is fresh enough. Back from away, it never is.
        if !wasAway, let last = lastPollAt[s], now() - last < max(options.freshSeconds, options.minimumPollSeconds) { return }
        pollers[s]?.cancel()
        pollers[s] = nil
        startPolling(s)
    }

    /// The wait before a timeline's next poll, lengthened while no one looks at it.
    func presenceWait(_ id: TimelineID, _ wait: Double) -> Double {
        if id == .mentions || Self.isMessages(id) { return wait }
        if away { return max(wait, options.awayPollSeconds) }
        if let s = showing, s != id { return max(wait, options.backgroundPollSeconds) }
        return wait
    }

    public var presence: (away: Bool, showing: TimelineID?) { (away, showing) }
}
