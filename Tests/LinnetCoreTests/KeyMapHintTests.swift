import Testing

@testable import LinnetCore

/// A hint names the first key bound to a command in a mode, as the map is now: kept named
/// from the bindings, and named again when they change.
@Suite struct KeyMapHintTests {
    static func scanned(_ k: KeyMap, _ command: Command, _ mode: KeyMode) -> String? {
        k.bindings.first { $0.mode == mode && $0.command == command }.map { $0.keys.map(\.description).joined(separator: " ") }
    }

    static func everyHintIsTheFirstBinding(_ k: KeyMap) -> Bool {
        KeyMode.allCases.allSatisfy { mode in Command.allCases.allSatisfy { k.hint($0, in: mode) == scanned(k, $0, mode) } }
    }

    @Test func hintsFollowTheMap() throws {
        var k = KeyMap.standard
        #expect(Self.everyHintIsTheFirstBinding(k))
        #expect(k.hint(.down, in: .timeline) == "j" && k.hint(.top, in: .timeline) == "g g")
        try k.override(mode: .timeline, [(keys: "ctrl-n", command: "down"), (keys: "j", command: "none"), (keys: "z z", command: "quit")])
        #expect(Self.everyHintIsTheFirstBinding(k))
        #expect(k.hint(.down, in: .timeline) != "j")
        try k.override(mode: .timeline, [(keys: "g g", command: "none")])
        #expect(Self.everyHintIsTheFirstBinding(k))
        #expect(k.hint(.top, in: .timeline) != "g g")
    }
}
