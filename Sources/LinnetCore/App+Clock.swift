import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// When the loop wakes with nothing to do: only when what the screen shows may change by
/// itself. An idle reader wakes once a minute (ages move on the minute); each wake is a
/// context switch here and, over ssh, a packet at both ends.
extension App {
    /// Seconds until the next such change, at most `longest`.
    public func untilNextChange(longest: Double) -> Double {
        // Posted by the last turn's own effects (a notice, an editor's text): at once.
        if !inbox.isEmpty { return 0 }
        let now = settings.clock.now()
        var next = longest
        func upTo(_ moment: Double) {
            // A little after (the wait is cut to the millisecond), so that the wake finds it past.
            if moment > now { next = min(next, moment - now + 0.05) }
        }
        upTo(state.shownNow + 60)
        if let n = state.notice { upTo(n.at + Reducer.noticeLifetime) }
        for st in engine.board.statuses.values { if let at = st.lastErrorAt { upTo(at + Reducer.noticeLifetime * 2) } }
        if let until = state.revealMutedUntil { upTo(until) }
        for at in pictureFailedAt.values { upTo(at + 60) }
        // The reader going away (no key for a while) slows the engine's polling.
        if focused, toldPresence?.away == false, let key = lastKeyAt { upTo(key + Self.awayAfter) }
        // The usage ledger reaches the disk every half minute while it is kept.
        if engine.options.ledger != nil { upTo(lastLedgerSave + 30) }
        if let w = terminal.wakeWithin { next = min(next, w) }
        // Drafts reach the disk a couple of seconds after the typing that changed them.
        if Reducer.draftRecords(state) != savedDrafts { upTo(max(now, lastDraftSave + 2)) }
        return max(0.01, next)
    }

    /// Seconds east of UTC at `when`, as this machine's time zone has it.
    static func utcOffset(at when: Double) -> Int {
        var t = time_t(when.isFinite ? max(-1e15, min(1e15, when)) : 0)
        var parts = tm()
        guard localtime_r(&t, &parts) != nil else { return 0 }
        return Int(parts.tm_gmtoff)
    }
}
