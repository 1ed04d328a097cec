import LinnetCore
import Testing

@testable import Pictures

/// The shelf of made pictures: bounded, the oldest dropped first, never one still on screen.
@Suite struct PictureShelfTests {
    static func picture(_ bytes: Int) -> RenderedPicture {
        RenderedPicture(mode: .kitty, columns: 10, rows: 5, cells: [], bytes: [UInt8](repeating: 0x41, count: bytes))
    }

    static func ask(_ n: Int) -> PictureAsk { PictureAsk(url: "https://pbs.twimg.com/media/\(n).jpg", columns: 10, rows: 5) }

    @Test func theOldestGoFirstButNotThoseOnScreen() {
        var shelf = PictureShelf()
        let size = 4 << 20
        // Asks 0 and 1 are on screen and the oldest; twenty more pictures of 4 MiB follow.
        shelf.onScreen = [Self.ask(0), Self.ask(1)]
        for n in 0..<22 { shelf.put(Self.ask(n), .success(Self.picture(size))) }
        #expect(shelf[Self.ask(0)] != nil && shelf[Self.ask(1)] != nil)
        // The rest keep to the bound: the newest that fit beside the two on screen.
        let kept = (2..<22).filter { shelf[Self.ask($0)] != nil }
        #expect(kept == Array(16..<22), "\(kept)")
        #expect((kept.count + 2) * size <= PictureShelf.byteLimit)
        // Off screen, they go like any other, the oldest first: one makes room for the next.
        shelf.onScreen = []
        shelf.put(Self.ask(22), .success(Self.picture(size)))
        #expect(shelf[Self.ask(0)] == nil && shelf[Self.ask(1)] != nil && shelf[Self.ask(16)] != nil)
    }

    /// A screen's pictures past the bound all stay: each frame would ask for them again.
    @Test func picturesOnScreenStayEvenPastTheBound() {
        var shelf = PictureShelf()
        shelf.onScreen = Set((0..<3).map(Self.ask))
        for n in 0..<3 { shelf.put(Self.ask(n), .success(Self.picture(16 << 20))) }
        #expect((0..<3).allSatisfy { shelf[Self.ask($0)] != nil })
    }
}
