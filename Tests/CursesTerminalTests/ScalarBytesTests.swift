import Screen
import Testing

@testable import CursesTerminal

/// A scalar's bytes as the writer puts them: UTF-8 as the standard library encodes it, and
/// U+FFFD for what must never reach a terminal (C0 and C1 controls, DEL) or is no scalar.
@Suite struct ScalarBytesTests {
    func written(_ v: UInt32) -> [UInt8] {
        var b = [UInt8](repeating: 0, count: 4)
        let n = b.withUnsafeMutableBufferPointer { FrameWriter.encode(v, $0.baseAddress!) }
        return Array(b.prefix(n))
    }

    @Test func scalarsAreTheirUTF8() {
        let replacement = Array("\u{FFFD}".utf8)
        var values: [UInt32] = [0x20, 0x41, 0x7E, 0xA0, 0xFF, 0x7FF, 0x800, 0xD7FF, 0xE000, 0xFFFD, 0xFFFF, 0x10000, 0x1F600, 0x10FFFF]
        var state: UInt32 = 20_261_129
        for _ in 0..<20_000 {
            state = state &* 1_664_525 &+ 1_013_904_223
            values.append(state % 0x110000)
        }
        var checked = 0
        for v in values {
            guard let scalar = Unicode.Scalar(v) else {
                #expect(written(v) == replacement, "\(v)")
                continue
            }
            let control = v < 0x20 || (0x7F..<0xA0).contains(v)
            #expect(written(v) == (control ? replacement : Array(String(Character(scalar)).utf8)), "U+\(String(v, radix: 16))")
            checked += 1
        }
        #expect(checked > 19_000)
        for v: UInt32 in [0, 0x1B, 0x1F, 0x7F, 0x85, 0x9B, 0x9F, 0xD800, 0xDFFF, 0x110000, 0xFFFF_FFFF] {
            #expect(written(v) == replacement, "\(v)")
        }
    }
}
