import Glibc
import Synchronization

/// Wakes a terminal waiting for keys, from any thread (the store changed, a request finished).
public final class Waker: Sendable {
    let readFD: Int32
    let writeFD: Int32

    public init() {
        var fds: [Int32] = [0, 0]
        _ = pipe(&fds)
        readFD = fds[0]
        writeFD = fds[1]
        for fd in fds { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
    }

    deinit {
        close(readFD)
        close(writeFD)
    }

    public func wake() {
        var b: UInt8 = 1
        _ = write(writeFD, &b, 1)
    }

    /// Empties the pipe; true when something had woken it.
    func drain() -> Bool {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 64) { buffer in
            var any = false
            while read(readFD, buffer.baseAddress, buffer.count) > 0 { any = true }
            return any
        }
    }
}
