import FlyingFox
import FlyingSocks
import Foundation

/// FlyingFox's socket pool with TCP_NODELAY set on every socket it waits on (the listener too,
/// whose setting Linux passes to accepted connections). FlyingFox writes a response's head and
/// body separately; with Nagle's algorithm on, the body waited for the client's delayed ACK, about
/// 40 ms per keep-alive request.
struct NoDelayPool: AsyncSocketPool {
    let inner: any AsyncSocketPool

    func prepare() async throws { try await inner.prepare() }
    func run() async throws { try await inner.run() }

    func suspendSocket(_ socket: Socket, untilReadyFor events: Socket.Events) async throws {
        var one: Int32 = 1
        _ = setsockopt(socket.file.rawValue, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        try await inner.suspendSocket(socket, untilReadyFor: events)
    }
}
