import Locking
import Testing

/// The two-generation cache behind the card cache and the measured texts.
@Suite struct GenerationsTests {
    /// An entry not asked for again is kept through one turn and gone after two; one found in
    /// the older half moves back and is held once; the count never passes the limit.
    @Test func keptThroughOneTurnGoneAfterTwo() {
        for (stores, kept) in [(4, true), (7, true), (8, false), (20, false)] {
            var g = Generations<Int, String>(limit: 8)
            for k in 0...stores {
                g.keep(k, "v\(k)")
                #expect(g.count <= 8)
            }
            #expect(g.turns == stores / 4)
            #expect(g.find(0) == (kept ? "v0" : nil), "after \(stores) more stores")
            // Held once: the older half less it, the newer half with it.
            if kept { #expect(g.count == 5) }
        }
    }

    /// What is asked for between stores stays however many pass through; storing a kept key
    /// again replaces its value without a turn.
    @Test func askedForStays() {
        var g = Generations<Int, Int>(limit: 8)
        g.keep(-1, 0)
        for k in 0..<100 {
            g.keep(k, k)
            #expect(g.find(-1) == 0, "after \(k + 1) stores")
            #expect(g.count <= 8)
        }
        #expect(g.turns > 20)
        let turns = g.turns
        g.keep(-1, 5)
        #expect(g.find(-1) == 5 && g.turns == turns)
        #expect(g.find(0) == nil && g.find(99) == 99)
        // Kept again while in the older half: the new value, held once.
        var h = Generations<Int, Int>(limit: 8)
        for k in 0...4 { h.keep(k, k) }
        h.keep(0, 50)
        #expect(h.find(0) == 50 && h.count == 5 && h.turns == 1)
    }
}
