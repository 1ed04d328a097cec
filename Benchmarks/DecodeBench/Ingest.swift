import Foundation
import Timeline
import TwitterAPI

/// One round of the fixture as a `delimited=length` stream body, in the 16 KB pieces the
/// network layer hands over (libcurl's largest write, as arrays), with the places of each
/// tweet's own id digits, so every round can carry new ids (same length, rising) and the store
/// holds each tweet once, as it would from a live stream.
struct FixtureStream {
    static let pieceBytes = 16_384
    private(set) var pieces: [[UInt8]] = []
    private var idPlaces: [[Int]] = []
    let tweetsPerRound: Int
    static let idDigits = 18

    init(lines: [Data]) throws {
        var body: [UInt8] = []
        for line in lines {
            let bytes = [UInt8](line)
            guard let id = try JSONValue.parse(line)["id_str"]?.stringValue, id.utf8.count == Self.idDigits else {
                throw DecodeError("a fixture line has no 18-digit id_str")
            }
            let frameStart = body.count + String(bytes.count).utf8.count + 2
            body += Array("\(bytes.count)\r\n".utf8) + bytes + [13, 10]
            let digits = [UInt8](id.utf8)
            var places: [Int] = []
            var i = 0
            while i + digits.count <= bytes.count {
                if bytes[i] == digits[0], Array(bytes[i..<i + digits.count]) == digits {
                    places.append(frameStart + i)
                    i += digits.count
                } else {
                    i += 1
                }
            }
            idPlaces.append(places)
        }
        pieces = stride(from: 0, to: body.count, by: Self.pieceBytes).map { Array(body[$0..<min($0 + Self.pieceBytes, body.count)]) }
        tweetsPerRound = lines.count
    }

    /// Writes round `round`'s ids into the pieces, in place: 10^17 + the message's sequence
    /// number (kept off the benchmark's clock; an id may cross from one piece to the next).
    mutating func number(round: Int) {
        var digits = [UInt8](repeating: 0, count: Self.idDigits)
        for (i, places) in idPlaces.enumerated() {
            var v = UInt64(100_000_000_000_000_000) + UInt64(round * tweetsPerRound + i)
            for k in stride(from: Self.idDigits - 1, through: 0, by: -1) {
                digits[k] = UInt8(ascii: "0") + UInt8(v % 10)
                v /= 10
            }
            for p in places {
                let (piece, at) = p.quotientAndRemainder(dividingBy: Self.pieceBytes)
                if at + Self.idDigits <= Self.pieceBytes {
                    pieces[piece].withUnsafeMutableBufferPointer { b in
                        digits.withUnsafeBufferPointer { d in
                            _ = UnsafeMutableBufferPointer(rebasing: b[at..<at + Self.idDigits]).update(fromContentsOf: d)
                        }
                    }
                } else {
                    for k in 0..<Self.idDigits { pieces[(p + k) / Self.pieceBytes][(p + k) % Self.pieceBytes] = digits[k] }
                }
            }
        }
    }
}

/// Framer, decoder and store on one task, as the engine runs a stream: the body handed over in
/// its pieces, each message decoded as it is framed and added to
/// home, capped as the app caps it. Returns tweets stored and seconds.
func ingest(_ stream: FixtureStream, rounds: Int, cap: Int = 5000) async throws -> (tweets: Int, seconds: Double) {
    var stream = stream
    let store = TimelineStore(cap: cap)
    let decoder = V1Decoder()
    var framer = StreamFramer(framing: .delimited)
    var tweets = 0
    let clock = ContinuousClock()
    var d = Duration.zero
    for round in 0..<rounds {
        stream.number(round: round)
        let start = clock.now
        defer { d += clock.now - start }
        for piece in stream.pieces {
            for event in framer.feed(piece) {
                guard case .message(let m) = event, case .tweet(let t) = try decoder.streamMessage(bytes: m) else { continue }
                await store.add(t, to: [.home])
                tweets += 1
            }
        }
    }
    let held = await store.snapshot().timelines[.home]?.ids.count ?? 0
    // The store trims back to the cap once a stream passes it by a sixteenth.
    precondition(held >= min(cap, tweets) && held <= cap + cap / 16, "the store holds \(held) tweets, cap \(cap)")
    return (tweets, Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18)
}

/// Runs async work to its end from top-level code, which the main thread runs: the work is
/// detached so that waiting here does not block it.
func waitFor<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) -> T {
    let box = ResultBox<T>()
    let done = DispatchSemaphore(value: 0)
    Task.detached {
        do { box.result = .success(try await work()) } catch { box.result = .failure(error) }
        done.signal()
    }
    done.wait()
    switch box.result! {
    case .success(let v): return v
    case .failure(let e): fatalError("benchmark failed: \(e)")
    }
}

private final class ResultBox<T>: @unchecked Sendable { var result: Result<T, any Error>? }
