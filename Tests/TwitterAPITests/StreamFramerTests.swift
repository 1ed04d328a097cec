import Foundation
import LinnetTestSupport
import Testing
import TwitterSimulator

@testable import TwitterAPI

@Suite struct StreamFramerTests {
    func messages(_ events: [StreamFramer.Event]) -> [String] {
        events.compactMap { if case .message(let m) = $0 { return String(decoding: m, as: UTF8.self) } else { return nil } }
    }

    @Test func publishedParserVectors() {
        var f = StreamFramer(framing: .delimited)
        #expect(messages(f.feed(Array("4\r\ntest".utf8))) == ["test"])
        var g = StreamFramer(framing: .delimited)
        let events = g.feed(Array("4\r\ntest\r\n5\r\ntest2".utf8))
        #expect(messages(events) == ["test", "test2"])
        #expect(events.filter { $0 == .keepAlive }.count == 1)
    }

    /// The fixture's 72 messages, framed as the API frames them, delivered in every chunking.
    @Test(arguments: [1, 2, 3, 7, 64, 1000, 100_000])
    func anyChunkingGivesTheSameMessages(chunk: Int) throws {
        let lines = try Fixtures.data("api/streaming/lines.json").split(separator: UInt8(ascii: "\n")).filter { !$0.isEmpty }
        var wire: [UInt8] = Array("\r\n\r\n".utf8)
        for line in lines {
            wire += Array("\(line.count + 2)\r\n".utf8) + Array(line) + [13, 10]
            wire += Array("\r\n".utf8)  // a keep-alive between messages
        }
        var f = StreamFramer(framing: .delimited)
        var got: [[UInt8]] = []
        var keepAlives = 0
        var i = 0
        while i < wire.count {
            for e in f.feed(wire[i..<min(wire.count, i + chunk)]) {
                switch e {
                case .message(let m): got.append(Array(m))
                case .keepAlive: keepAlives += 1
                case .malformed(let why): Issue.record("unexpected malformed: \(why)")
                }
            }
            i += chunk
        }
        #expect(got == lines.map { Array($0) })
        #expect(keepAlives == lines.count + 2)
        #expect(f.pendingByteCount == 0)
    }

    @Test func lineFramingAndKeepAlives() {
        var f = StreamFramer(framing: .lines)
        let events = f.feed(Array("{\"a\":1}\r\n\r\n{\"b\":".utf8)) + f.feed(Array("2}\r\n".utf8))
        #expect(messages(events) == ["{\"a\":1}", "{\"b\":2}"])
        #expect(events.contains(.keepAlive))
    }

    @Test func malformedLengthIsReportedAndSkipped() {
        var f = StreamFramer(framing: .delimited)
        let events = f.feed(Array("12x!\r\n{\"broken\r\n6\r\nok\r\n\r\n".utf8))
        #expect(events.contains { if case .malformed = $0 { return true } else { return false } })
        #expect(messages(events).last == "ok\r\n" || messages(events).last == "ok")
    }

    /// A length line is decimal digits alone, leading zeros and leading spaces allowed (X's
    /// `delimited=length` writes the byte count of the message and its CRLF): whatever else it
    /// holds makes it malformed, and the next frame is read.
    @Test(arguments: [
        ("9", true), ("09", true), ("0000000009", true), (" 9", true), ("  9", true), ("9 ", false), ("+9", false), ("9a", false),
        ("0x9", false), ("00000000009", false), ("９", false),
    ])
    func lengthLinesAreDigitsAlone(_ line: String, _ read: Bool) {
        var f = StreamFramer(framing: .delimited)
        let events = f.feed(Array("\(line)\r\n\(read ? "{\"a\":1}\r\n" : "")3\r\nabc".utf8))
        let malformed = events.filter { if case .malformed = $0 { true } else { false } }.count
        #expect(malformed == (read ? 0 : 1), "\(line)")
        #expect(messages(events) == (read ? ["{\"a\":1}", "abc"] : ["abc"]), "\(line)")
    }

    @Test func oversizedFramesAreRefused() {
        var f = StreamFramer(framing: .delimited, maxMessageBytes: 100)
        let events = f.feed(Array("5000\r\n".utf8))
        #expect(events.count == 1)
        guard case .malformed = events[0] else {
            Issue.record("expected malformed")
            return
        }
    }
}

@Suite struct ReconnectPolicyTests {
    @Test func networkErrorsBackOffLinearlyTo16Seconds() {
        var p = ReconnectPolicy()
        #expect(p.failed(.closed) == 0)
        var delays: [Double] = []
        for _ in 0..<70 { delays.append(p.failed(.network)) }
        #expect(Array(delays.prefix(4)) == [0.25, 0.5, 0.75, 1.0])
        #expect(delays.max() == 16)
        #expect(delays.last == 16)
    }

    @Test func httpErrorsBackOffExponentiallyFrom5To320() {
        var p = ReconnectPolicy()
        let delays = (0..<9).map { _ in p.failed(.http(503)) }
        #expect(delays == [5, 10, 20, 40, 80, 160, 320, 320, 320])
    }

    @Test func rateLimitsStartAtAMinuteAndDouble() {
        var p = ReconnectPolicy()
        #expect([p.failed(.rateLimited), p.failed(.rateLimited), p.failed(.rateLimited)] == [60, 120, 240])
        #expect(p.mode == .rateLimited)
    }

    @Test func dataResetsTheBackOff() {
        var p = ReconnectPolicy()
        _ = p.failed(.http(500))
        _ = p.failed(.http(500))
        p.connected()
        #expect(p.attempts == 0 && p.mode == .none)
        #expect(p.failed(.closed) == 0)
        #expect(p.failed(.http(503)) == 5)
    }
}

/// A stream that never ends its line, or announces a giant frame, must not make the framer
/// hold more than its bound, and the stream must go on after it.
@Suite struct HostileFramingTests {
    static func messages(_ events: [StreamFramer.Event]) -> [String] {
        events.compactMap { if case .message(let m) = $0 { String(decoding: m, as: UTF8.self) } else { nil } }
    }

    @Test(arguments: [StreamFramer.Framing.lines, .delimited])
    func aLineThatNeverEndsIsDroppedAsItComes(_ framing: StreamFramer.Framing) {
        var f = StreamFramer(framing: framing, maxMessageBytes: 1 << 16)
        let block = [UInt8](repeating: UInt8(ascii: "7"), count: 4096)
        var malformed = 0
        var most = 0
        for _ in 0..<2048 {  // 8 MiB of digits, no line feed
            for e in f.feed(block) { if case .malformed = e { malformed += 1 } }
            most = max(most, f.pendingByteCount)
        }
        #expect(malformed == 1)
        #expect(most <= (1 << 16) + block.count)
        #expect(f.pendingByteCount == 0)
        // The line ends; the next message is read as usual.
        let tail = framing == .lines ? "777\r\n{\"ok\":1}\r\n" : "777\r\n10\r\n{\"ok\":1}\r\n"
        #expect(Self.messages(f.feed(Array(tail.utf8))) == ["{\"ok\":1}"])
    }

    @Test func aGiantFrameIsSkippedByItsLength() {
        var f = StreamFramer(framing: .delimited, maxMessageBytes: 1000)
        var events = f.feed(Array("5000\r\n".utf8))
        for _ in 0..<50 { events += f.feed([UInt8](repeating: UInt8(ascii: "x"), count: 100)) }
        events += f.feed(Array("4\r\nab\r\n".utf8))
        #expect(events.filter { if case .malformed = $0 { true } else { false } }.count == 1)
        #expect(Self.messages(events) == ["ab"])
        #expect(f.pendingByteCount == 0)
    }

    @Test(arguments: ["9223372036854775807", "99999999999999999999999999", "-5", "18446744073709551616"])
    func absurdLengthsAreMalformed(_ length: String) {
        var f = StreamFramer(framing: .delimited)
        let events = f.feed(Array("\(length)\r\n3\r\nabc".utf8))
        #expect(events.first.map { if case .malformed = $0 { true } else { false } } == true)
        #expect(Self.messages(events) == ["abc"])
    }
}

/// Found by `make fuzz`: a line longer than the bound that arrives whole in one chunk.
@Suite struct FramerFuzzFindings {
    @Test(arguments: [StreamFramer.Framing.lines, .delimited])
    func aWholeLineOverTheBoundIsRefused(_ framing: StreamFramer.Framing) {
        var f = StreamFramer(framing: framing, maxMessageBytes: 100)
        let events = f.feed(Array(String(repeating: "x", count: 150).utf8) + Array("\r\nok\r\n".utf8))
        #expect(events.contains { if case .malformed = $0 { true } else { false } })
        for case .message(let m) in events { #expect(m.count <= 100) }
    }
}

extension StreamFramerTests {
    /// Contiguous bytes take a faster path than other collections: both must frame alike, and
    /// messages handed out must survive the framer compacting its buffer on the next feed.
    @Test func contiguousAndOtherCollectionsFrameAlike() {
        let bodies = (0..<400).map { i in Array("{\"n\":\(i),\"pad\":\"\(String(repeating: "x", count: 300 + i))\"}".utf8) }
        var stream: [UInt8] = []
        for b in bodies { stream += Array("\(b.count + 2)\r\n".utf8) + b + [13, 10] }
        var contiguous = StreamFramer(framing: .delimited)
        var other = StreamFramer(framing: .delimited)
        var fromContiguous: [[UInt8]] = []
        var fromOther: [[UInt8]] = []
        var held: [ArraySlice<UInt8>] = []
        var at = 0
        while at < stream.count {
            let piece = stream[at..<min(at + 4093, stream.count)]
            at += piece.count
            for case .message(let m) in contiguous.feed(piece) {
                fromContiguous.append(Array(m))
                held.append(m)
            }
            for case .message(let m) in other.feed(piece.lazy.map { $0 }) { fromOther.append(Array(m)) }
        }
        #expect(fromContiguous == bodies)
        #expect(fromOther == bodies)
        #expect(held.map(Array.init) == bodies, "slices kept past later feeds still hold their message")
    }
}

extension StreamFramerTests {
    /// Arrays, as the network layer hands chunks over, are framed in place: every event is the
    /// same as from slices of the same bytes, at every chunking, in both framings, with
    /// keep-alives, broken length lines, oversized frames and lines among the messages; and the
    /// messages kept hold their bytes while the chunks they came from are reused. A framer whose
    /// messages are let go of at once joins split messages in the same storage each time, and
    /// frames alike too.
    @Test(arguments: [1, 2, 5, 17, 300, 1021, 4096, 100_000])
    func arraysFrameAsSlicesDo(chunk: Int) {
        for framing in [StreamFramer.Framing.delimited, .lines] {
            var rng = SimRandom(seed: UInt64(chunk))
            var wire: [UInt8] = []
            for i in 0..<300 {
                let body = Array("{\"n\":\(i),\"pad\":\"\(String(repeating: "y", count: Int(rng.next() % 900)))\"}".utf8)
                switch (framing, rng.next() % 10) {
                case (_, 0): wire += Array("\r\n".utf8)
                case (.delimited, 1): wire += Array("12x!\r\n".utf8)
                case (.delimited, 2): wire += Array("2000\r\n".utf8) + Array(repeating: 65, count: 2000)
                case (.lines, 2): wire += Array(repeating: 66, count: 1500) + [13, 10]
                case (.delimited, _): wire += Array("\(body.count + 2)\r\n".utf8) + body + [13, 10]
                case (.lines, _): wire += body + [13, 10]
                }
            }
            var arrays = StreamFramer(framing: framing, maxMessageBytes: 1024)
            var slices = StreamFramer(framing: framing, maxMessageBytes: 1024)
            var unkept = StreamFramer(framing: framing, maxMessageBytes: 1024)
            var fromUnkept: [[UInt8]] = []
            var fromArrays: [StreamFramer.Event] = []
            var fromSlices: [StreamFramer.Event] = []
            var held: [(ArraySlice<UInt8>, [UInt8])] = []
            var at = 0
            while at < wire.count {
                var piece = Array(wire[at..<min(at + chunk, wire.count)])
                for e in arrays.feed(piece) {
                    fromArrays.append(e)
                    if case .message(let m) = e { held.append((m, Array(m))) }
                }
                fromSlices += slices.feed(wire[at..<min(at + chunk, wire.count)])
                for case .message(let m) in unkept.feed(Array(piece)) { fromUnkept.append(Array(m)) }
                // The network layer's buffer written over: what was handed out does not change.
                for k in piece.indices { piece[k] = 0 }
                at += chunk
            }
            #expect(fromArrays == fromSlices, "\(framing) at \(chunk)-byte chunks")
            #expect(fromArrays.count > 250)
            #expect(fromUnkept == fromSlices.compactMap { if case .message(let m) = $0 { Array(m) } else { nil } })
            #expect(held.allSatisfy { Array($0.0) == $0.1 })
            #expect(arrays.pendingByteCount == slices.pendingByteCount)
            #expect(unkept.pendingByteCount == slices.pendingByteCount)
        }
    }
}
