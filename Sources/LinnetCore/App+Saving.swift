import FoundationEssentials
import PrivateFiles

#if canImport(Glibc)
    import Glibc
#endif

/// What the app keeps on disk while it runs: the pane it was on, drafts as they are typed,
/// the usage ledger.
extension App {
    /// `session.json` beside the drafts: the pane the reader was on.
    var sessionURL: URL? { settings.drafts?.fileURL.deletingLastPathComponent().appendingPathComponent("session.json") }

    private struct Session: Codable { var pane: String? }

    func readSession() -> String? {
        guard let url = sessionURL, let data = try? PrivateFile.read(url, limit: 64 * 1024),
            let session = try? JSONDecoder().decode(Session.self, from: data)
        else { return nil }
        return session.pane
    }

    func saveSession() {
        guard let url = sessionURL, state.panes.indices.contains(state.active), let name = Config.paneName(state.pane.id),
            let data = try? JSONEncoder().encode(Session(pane: name))
        else { return }
        try? PrivateFile.write(data, to: url)
    }

    /// Saves the drafts. When that fails on the way out, the quit is called off once, so the
    /// draft is not lost without the user knowing: a second quit goes ahead.
    func saveDrafts(_ records: [DraftRecord]) {
        guard let drafts = settings.drafts else { return }
        do {
            try drafts.save(records)
            savedDrafts = records
            quitDespiteUnsaved = false
        } catch {
            let why = (error as? PrivateFileError)?.description ?? "\(error)"
            if state.quitting && !records.isEmpty && !quitDespiteUnsaved {
                quitDespiteUnsaved = true
                dispatch(.quitCalledOff(why))
            } else if !state.quitting {
                inbox.post(.notice(Words.draftsNotSaved(why), isError: true))
            }
        }
        lastDraftSave = state.now
    }

    /// The usage ledger reaches the disk every half minute, so other Linnet processes of the
    /// account (and `linnet usage`) count what this one read; a failure is said once.
    func autosaveLedger() {
        guard let ledger = engine.options.ledger, state.now - lastLedgerSave >= 30 else { return }
        lastLedgerSave = state.now
        do {
            try ledger.save()
            ledgerSaveFailed = false
        } catch {
            if !ledgerSaveFailed { inbox.post(.notice(Words.usageNotSaved("\(error)"), isError: true)) }
            ledgerSaveFailed = true
        }
    }

    /// While typing, drafts reach the disk every couple of seconds.
    func autosaveDraft() {
        let records = Reducer.draftRecords(state)
        guard records != savedDrafts, state.now - lastDraftSave >= 2 else { return }
        saveDrafts(records)
    }
}
