import ArgumentParser
import CursesTerminal
import Foundation
import LinnetCore
import Screen
import Timeline
import TwitterAPI
import TwitterSimulator

/// Starts curses, runs the app until it quits, and restores the terminal.
@MainActor
func runTUI(store: TimelineStore, engine: SyncEngine, settings: App.Settings, notice: String?) async {
    let terminal = CursesTerminal(noColor: ProcessInfo.processInfo.environment["NO_COLOR"].map { !$0.isEmpty } ?? false)
    let waker = terminal.waker
    let app = App(terminal: terminal, store: store, engine: engine, settings: settings, wake: { waker.wake() })
    await app.run(startupNotice: notice)
    terminal.end()
}
