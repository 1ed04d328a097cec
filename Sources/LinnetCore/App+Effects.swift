import FoundationEssentials
import Screen
import Timeline
import TwitterAPI

#if canImport(Glibc)
    import Glibc
#endif

/// The effects the reducer asks for, carried out: store and engine calls, files, the terminal.
extension App {
    func perform(_ effect: Effect) {
        let engine = self.engine
        let store = self.store
        let inbox = self.inbox
        let wake = self.wake
        switch effect {
        case .open(let id): effects.add { await engine.open(id) }
        case .close(let id): effects.add { await engine.close(id) }
        case .perform, .postThread, .sendMessage, .loadOlderMessages, .loadProfile, .people, .loadPeople, .loadLists:
            performNetwork(effect)
        case .refresh(let id):
            effects.add {
                if case .wait(_, let message) = await engine.refresh(id) {
                    inbox.post(.refreshAnswered(id, message))
                } else {
                    inbox.post(.notice(Words.refreshing(Views.title(id)), isError: false))
                }
                wake()
            }
        case .loadOlder(let id): effects.add { Task { await engine.loadOlder(id) } }
        case .fillGap(let id, let below): effects.add { Task { await engine.loadOlder(id, below: below) } }
        case .setAnchor(let id, let tweet): effects.add { await store.setAnchor(id, at: tweet) }
        case .markRead(let id, let tweet): effects.add { await store.markRead(id, upTo: tweet) }
        case .markConversationRead(let id): effects.add { await store.markConversationRead(id) }
        case .saveDrafts(let records): saveDrafts(records)
        case .setTheme(let name):
            do {
                settings.theme = try Theme.load(name)
                settings.themeAuto = false
                inbox.post(.notice(Words.theme(settings.theme.name), isError: false))
            } catch {
                inbox.post(.notice(Words.themeNotChanged("\(error)"), isError: true))
            }
            lastFrame = nil
        case .switchAccount(let name): pendingSwitch = name
        case .redraw:
            terminal.invalidate()
            lastFrame = nil
        case .copy(let text, let what):
            let (clean, cut) = Clipboard.text(text)
            terminal.copyToClipboard(clean)
            inbox.post(.notice(cut ? Words.copiedCut(what, bytes: Clipboard.limit) : Words.copied(what), isError: false))
        case .openLink(let url):
            openLink(url)
        case .stopProcess:
            if !terminal.stopProcess() { inbox.post(.notice(Words.cannotSuspend, isError: true)) }
            lastFrame = nil
        case .editInEditor(let text):
            editInEditor(text)
            lastFrame = nil
        case .quit: break
        case .bell: terminal.bell()
        case .notify(let title, let body): terminal.notify(title: title, body: body)
        // Answered at once: the prompt waits on nothing but the disk.
        case .listFiles(let prefix): dispatch(.filesListed(prefix: prefix, settings.files.complete(prefix)))
        case .inspectFile(let path): dispatch(.fileInspected(path: path, settings.files.inspect(path)))
        }
    }
}
