import FlyingFox
import FlyingSocks
import Foundation

/// Stream frames as the byte sequence FlyingFox sends with chunked transfer encoding, each frame
/// as soon as it is produced.
struct FrameBytes: AsyncBufferedSequence, Sendable {
    typealias Element = UInt8
    let frames: AsyncStream<Data>

    func makeAsyncIterator() -> Iterator { Iterator(inner: frames.makeAsyncIterator()) }

    struct Iterator: AsyncBufferedIteratorProtocol {
        var inner: AsyncStream<Data>.AsyncIterator
        var buffer: [UInt8] = []
        var index = 0

        mutating func next() async throws -> UInt8? {
            if index < buffer.count {
                defer { index += 1 }
                return buffer[index]
            }
            guard let chunk = try await nextBuffer(suggested: 1) else { return nil }
            return chunk.first
        }

        mutating func nextBuffer(suggested count: Int) async throws -> [UInt8]? {
            if index < buffer.count {
                let end = Swift.min(buffer.count, index + Swift.max(1, count))
                defer { index = end }
                return Array(buffer[index..<end])
            }
            while true {
                // The end of the frames ends the body cleanly; an empty frame asks for a drop.
                guard let data = await inner.next() else { return nil }
                guard !data.isEmpty else { throw StreamEnded() }
                buffer = Array(data)
                index = 0
                let end = Swift.min(buffer.count, Swift.max(1, count))
                defer { index = end }
                return Array(buffer[0..<end])
            }
        }
    }
}

/// A stream the server drops (the drop fault): the connection closes without the last chunk, as a
/// dropped connection would.
struct StreamEnded: Error {}

/// A body that stops after `keep` bytes and then fails, which closes the connection mid-answer.
struct ResetBytes: AsyncBufferedSequence, Sendable {
    typealias Element = UInt8
    let bytes: [UInt8]

    func makeAsyncIterator() -> Iterator { Iterator(bytes: bytes) }

    struct Iterator: AsyncBufferedIteratorProtocol {
        let bytes: [UInt8]
        var sent = false

        mutating func next() async throws -> UInt8? { throw StreamEnded() }

        mutating func nextBuffer(suggested count: Int) async throws -> [UInt8]? {
            guard !sent, !bytes.isEmpty else { throw StreamEnded() }
            sent = true
            return bytes
        }
    }
}
