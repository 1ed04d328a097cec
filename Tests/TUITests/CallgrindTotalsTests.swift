import Foundation
import LinnetTestSupport
import Testing

/// The bench's counts as callgrind writes them: each event by its name, zeros left off a line's
/// end read as zeros, and the caches it simulates accepted by valgrind.
@Suite struct CallgrindTotalsTests {
    func written(_ text: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("linnet-totals-\(UUID().uuidString).out").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func eventsAreReadByTheirNames() throws {
        let path = try written(
            """
            # callgrind format
            version: 1
            events: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw
            fn=(1) main
            5 12 3
            summary: 64701205 16525333 9410532 532255 974238 875045 393310 587564 525377
            totals: 64701205 16525333 9410532 532255 974238 875045 393310 587564 525377

            """)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let totals = try #require(callgrindTotals(path))
        #expect(totals.count == 9)
        #expect(totals["Ir"] == 64_701_205)
        #expect(totals["ILmr"] == 393_310)
        #expect(totals["DLmw"] == 525_377)
        #expect(callgrindTotal(path) == 64_701_205)
    }

    @Test func zerosLeftOffTheEndAreZeros() throws {
        let path = try written("events: Ir ILmr DLmr DLmw\ntotals: 1200 7\n")
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(callgrindTotals(path) == ["Ir": 1200, "ILmr": 7, "DLmr": 0, "DLmw": 0])
    }

    @Test func countsWithoutNamesMoreThanNamesOrUnreadableAreNotRead() throws {
        for text in ["totals: 1200 7\n", "events: Ir\ntotals: 1200 7\n", "events: Ir\n", "events: Ir ILmr DLmr\ntotals: 1200 x 7\n"] {
            let path = try written(text)
            defer { try? FileManager.default.removeItem(atPath: path) }
            #expect(callgrindTotals(path) == nil, "\(text)")
        }
    }

    /// `seq` twice as far does about twice the work: a count per number, the simulated caches'
    /// events among the counts.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/valgrind")))
    func simulatedCachesAreCounted() throws {
        let perNumber = try #require(eventsPerItem(executable: "/usr/bin/seq", arguments: [], n: 20_000, stripping: false, caches: true))
        for event in ["Ir", "ILmr", "DLmr", "DLmw"] { #expect(perNumber[event] != nil, "\(event)") }
        let instructions = try #require(perNumber["Ir"])
        #expect(instructions > 10 && instructions < 10_000)
        // Without the simulation, instructions alone.
        let plain = try #require(eventsPerItem(executable: "/usr/bin/seq", arguments: [], n: 20_000, stripping: false))
        #expect(plain.keys.sorted() == ["Ir"])
        #expect(abs((plain["Ir"] ?? 0) - instructions) < instructions * 0.01)
    }
}
