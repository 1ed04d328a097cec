import Synchronization
import Testing

@testable import Timeline

/// A change of sync status wakes the reader at once (it used to show up to a second late).
@Suite struct SyncBoardTests {
    @Test func everyChangeOfStatusWakesTheWatchers() {
        let board = SyncBoard()
        let wakes = Atomic<Int>(0)
        board.watch { wakes.add(1, ordering: .relaxed) }
        board.update(.home) { $0.state = .loading }
        #expect(wakes.load(ordering: .relaxed) == 1)
        board.update(.home) { $0.state = .loading }  // no change: no wake
        #expect(wakes.load(ordering: .relaxed) == 1)
        board.update(.mentions) { $0.state = .rateLimited(until: 5) }
        board.forget(.home)
        #expect(wakes.load(ordering: .relaxed) == 3)
    }
}
