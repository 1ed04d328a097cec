extension Cell {
    /// `count` copies of a cell: the first copied in doubling blocks (memcpy) of at most 2 KB,
    /// which glibc copies with vector moves (from its `rep movsb` threshold, 2 KB or more by
    /// the vector size, it takes `rep movsb`, counted a byte an instruction). A frame's 8,000
    /// cells were stored field by field, 6 instructions each; 1 KB blocks cost 19k a frame.
    static func repeated(_ cell: Cell, count n: Int) -> [Cell] {
        Array(unsafeUninitializedCapacity: n) { buffer, count in
            guard let base = buffer.baseAddress, n > 0 else { return }
            base.initialize(to: cell)
            var done = 1
            while done < n {
                let k = min(done, n - done, 128)
                (base + done).initialize(from: base, count: k)
                done += k
            }
            count = n
        }
    }
}
