import Foundation
import LinnetCore
import Screen
import Testing
import Timeline
import TwitterAPI

/// A notice too long for the room beside the states is shown on the status line alone, ending
/// at a word; the messages key shows the last 100 whole.
@Suite struct MessagesTests {
    @Test func longNoticesAreReadableInFull() async {
        let store = await Scene.store()
        let c = Scene.context(await store.snapshot())
        var s = Scene.state(80, 24)
        _ = Reducer.reduce(&s, .storeChanged, c)
        let long = "Theme not loaded, using the default: /tmp/u/themes/solarized-custom.toml:12: fg must be a colour name, #rrggbb or 0-255"
        _ = Reducer.reduce(&s, .notice(long, isError: true), c)
        let screen = Views.render(s, c)
        let line = screen.line(22)
        #expect(line.hasPrefix(" Theme not loaded, using the default:"), "\(line)")
        #expect(line.contains("… (L: all of it)"), "\(line)")
        #expect(screen.line(23).contains("Home:"), "the status bar stays: \(screen.line(23))")
        // The messages view has it whole, wrapped.
        _ = Scene.run(&s, c, [.keys([.char("L")])])
        #expect(s.keyMode == .help)
        // (Wrapped lines are joined without the frame's side bars to compare.)
        let text = Views.render(s, c).text.split(separator: "\n").map { $0.replacingOccurrences(of: "▌", with: "") }
            .joined(separator: " ").split(separator: " ").joined(separator: " ")
        #expect(text.contains("/tmp/u/themes/solarized- custom.toml:12: fg must be a colour name, #rrggbb or 0-255"), "\(text)")
        _ = Scene.run(&s, c, [.keys([.escape])])
        #expect(!s.showLog)
        // Only the last 100 are kept.
        for i in 0..<120 { _ = Reducer.reduce(&s, .notice("note \(i)", isError: false), c) }
        #expect(s.noticeLog.count == 100 && s.noticeLog.last?.text == "note 119")
    }
}
