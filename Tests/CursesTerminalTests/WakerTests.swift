import Glibc
import Testing

@testable import CursesTerminal

/// The pipe that wakes the key reader: emptied whole by one drain, whatever woke it.
@Suite struct WakerTests {
    static func readable(_ w: Waker) -> Bool {
        var p = pollfd(fd: w.readFD, events: Int16(POLLIN), revents: 0)
        return poll(&p, 1, 0) > 0
    }

    @Test func aDrainEmptiesThePipeAndSaysWhetherItWasWoken() {
        let w = Waker()
        #expect(!w.drain())
        w.wake()
        #expect(Self.readable(w))
        #expect(w.drain())
        #expect(!Self.readable(w))
        #expect(!w.drain())
        // More wakes than one read takes (64 bytes a read): all gone after one drain.
        for _ in 0..<1000 { w.wake() }
        #expect(w.drain())
        #expect(!Self.readable(w))
    }
}
