/// The bytes a frame is made of: cursor moves, their numbers, and scalars as UTF-8.
extension FrameWriter {
    /// CUP to (x, y), counted from 0.
    static func cursorMove(_ x: Int, _ y: Int, into out: inout [UInt8]) {
        out += [0x1B, 0x5B]
        decimal(y + 1, into: &out)
        out.append(0x3B)
        decimal(x + 1, into: &out)
        out.append(0x48)
    }

    static func decimal(_ n: Int, into out: inout [UInt8]) {
        if n >= 10 { decimal(n / 10, into: &out) }
        out.append(UInt8(0x30 + n % 10))
    }

    /// Writes a scalar's UTF-8 (4 bytes at most) at `to` and says how many; a control
    /// character, a surrogate or a value past Unicode as U+FFFD.
    @inline(__always) static func encode(_ v: UInt32, _ to: UnsafeMutablePointer<UInt8>) -> Int {
        let control = v < 0x20 || (v >= 0x7F && v < 0xA0)
        let u = control || (v >= 0xD800 && v < 0xE000) || v > 0x10FFFF ? 0xFFFD : v
        switch u {
        case ..<0x80:
            to[0] = UInt8(u)
            return 1
        case ..<0x800:
            to[0] = UInt8(0xC0 | u >> 6)
            to[1] = UInt8(0x80 | u & 0x3F)
            return 2
        case ..<0x10000:
            to[0] = UInt8(0xE0 | u >> 12)
            to[1] = UInt8(0x80 | u >> 6 & 0x3F)
            to[2] = UInt8(0x80 | u & 0x3F)
            return 3
        default:
            to[0] = UInt8(0xF0 | u >> 18)
            to[1] = UInt8(0x80 | u >> 12 & 0x3F)
            to[2] = UInt8(0x80 | u >> 6 & 0x3F)
            to[3] = UInt8(0x80 | u & 0x3F)
            return 4
        }
    }
}
