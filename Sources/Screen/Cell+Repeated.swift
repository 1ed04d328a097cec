extension Cell {
    /// `count` copies of a cell: the first copied in doubling blocks (memcpy) of under 2 KB,
    /// which glibc copies with vector moves. From its `rep movsb` threshold (2,048 bytes times
    /// the vector size over 16: 2 KB with SSE2, 4 KB with AVX2) it takes `rep movsb`, counted a
    /// byte an instruction. A frame's 8,000 cells were stored field by field, 6 instructions
    /// each; 1 KB blocks cost 19k a frame, blocks of 127 cells 16k (measured with AVX2).
    static func repeated(_ cell: Cell, count n: Int) -> [Cell] {
        Array(unsafeUninitializedCapacity: n) { buffer, count in
            guard let base = buffer.baseAddress, n > 0 else { return }
            base.initialize(to: cell)
            var done = 1
            while done < n {
                let k = min(done, n - done, 127)
                (base + done).initialize(from: base, count: k)
                done += k
            }
            count = n
        }
    }
}
