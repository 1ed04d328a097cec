import Screen

/// A pass's runs: the cells after one written that share its style, gathered and written at
/// once, and the cursor they leave.
extension FrameWriter.Pass {
    /// The cells after the one at `x` (`n` wide) in the style just written, up to `limit`,
    /// each one scalar as wide as the terminal measures it (as `write` finds them): their
    /// bytes appended, the pen, link and cursor already right for them. Returns the columns
    /// taken. Each cell's checks in `write` cost 200 to 560 instructions, most of a frame's
    /// writing.
    mutating func oneScalarRun(
        after x: Int, _ n: Int, _ y: Int, _ style: Style, to limit: Int, full: Bool, reached: Int,
        into out: inout [UInt8]
    ) -> Int {
        let w = screen.width
        // The bottom-right cell is left to `write`, which leaves it alone without `xenl`.
        let corner = y == screen.height - 1 && !writer.abilities.lastColumnSafe
        var k = x + n
        guard k < limit else { return 0 }
        // Gathered on the stack and appended once: appended byte by byte, each checked the
        // array's storage (about 70 instructions a byte written, most of a band's move).
        screen.cells.withUnsafeBufferPointer { c in
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 4 * (limit - k)) { bytes in
                guard let b = bytes.baseAddress else { return }
                var used = 0
                // Printable ASCII first, read as words; the loop below takes what it stops at.
                if !full {
                    used = screen.asciiRun(row: y, from: k, to: corner ? min(limit, w - 1) : limit, style: style, into: b)
                    k += used
                }
                let row = y * w
                while k < limit {
                    let cell = c[row + k]
                    guard cell.style == style, !cell.isContinuation else { break }
                    // A blank a clear left there is skipped by `write`.
                    if full, cell == .blank, k >= reached { break }
                    var m = 1
                    while k + m < w, c[row + k + m].isContinuation { m += 1 }
                    if corner, k + m == w { break }
                    if let byte = cell.printableASCII {
                        guard m == 1 else { break }
                        b[used] = byte
                        used += 1
                    } else {
                        guard let v = CursesTerminal.single(cell, in: screen, cells: m) else { break }
                        used += FrameWriter.encode(v, b + used)
                    }
                    k += m
                }
                out.append(contentsOf: UnsafeBufferPointer(start: b, count: used))
            }
        }
        advance(k - x - n)
        return k - x - n
    }

    /// The cursor after `n` cells were written at it; not known at the right margin.
    mutating func advance(_ n: Int) {
        guard at >= 0 else { return }
        let next = at + n
        at = next % screen.width == 0 ? -1 : next
    }

    /// A scalar as UTF-8; control characters (never put on a screen) as U+FFFD.
    func utf8(_ v: UInt32, into out: inout [UInt8]) {
        var four: UInt32 = 0
        withUnsafeMutableBytes(of: &four) { bytes in
            let b = bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
            out.append(contentsOf: UnsafeBufferPointer(start: b, count: FrameWriter.encode(v, b)))
        }
    }
}
