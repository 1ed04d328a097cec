import Screen
import Synchronization

/// A terminal in memory for driving the app loop in tests: keys come from a script, one batch
/// per turn of the loop, and every frame presented is kept. When the script runs out the
/// terminal reports itself closed, which ends the loop the way a dropped ssh session does.
public final class MemoryTerminal: Terminal, @unchecked Sendable {
    public var colorDepth: ColorDepth = .none
    public private(set) var size: (width: Int, height: Int)
    public private(set) var frames: [Screen] = []
    public private(set) var bells = 0
    /// Times a whole redraw was asked for, and times the process was stopped (ctrl-z).
    public private(set) var invalidations = 0
    public private(set) var stops = 0
    private var script: [[Key]]
    /// Called before each batch of keys is handed over (the turn number counts from 0).
    private let beforeTurn: ((Int) -> Void)?
    private var turn = 0

    public init(width: Int, height: Int, script: [[Key]], beforeTurn: ((Int) -> Void)? = nil) {
        size = (width, height)
        self.script = script
        self.beforeTurn = beforeTurn
    }

    public var isClosed: Bool { script.isEmpty }

    /// Batches of keys not handed over yet.
    public var remaining: Int { script.count }

    /// The text of the last frame presented.
    public var lastText: String { frames.last?.text ?? "" }

    /// Called as each frame is presented, before it is kept.
    public var onPresent: ((Screen) -> Void)?

    public func present(_ screen: Screen) {
        onPresent?(screen)
        frames.append(screen)
    }

    /// The longest wait each read was allowed, in order.
    public private(set) var timeouts: [Double] = []

    public func readKeys(timeout: Double) -> [Key] {
        timeouts.append(timeout)
        guard !script.isEmpty else { return [] }
        beforeTurn?(turn)
        turn += 1
        return script.removeFirst()
    }

    /// The terminal's answers to the question at start, handed to the app at its next read.
    public var startReply: [UInt8]?
    public func takeStartReply() -> [UInt8]? {
        defer { startReply = nil }
        return startReply
    }

    public func bell() { bells += 1 }
    public func invalidate() { invalidations += 1 }
    /// Times the terminal was handed back (to an editor or a password prompt) and taken again.
    public private(set) var suspends = 0
    public private(set) var resumes = 0
    public func suspend() { suspends += 1 }
    public func resume() { resumes += 1 }
    /// What was put on the clipboard, in order.
    public private(set) var copies: [String] = []
    public func copyToClipboard(_ text: String) { copies.append(text) }
    public private(set) var notifications: [(title: String, body: String)] = []
    public func notify(title: String, body: String) { notifications.append((title, body)) }
    /// A cell's pixels as the terminal says (a test changes it, then sends `.resize`).
    public var cellPixels: (width: Int, height: Int)?
    /// Whether a stop (ctrl-z) succeeds, as with a job-control shell.
    public var canStop = true
    public func stopProcess() -> Bool {
        stops += 1
        return canStop
    }

    public func resize(width: Int, height: Int) { size = (width, height) }
}
