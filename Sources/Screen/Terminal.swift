import TweetText

/// Where frames go and keys come from: curses on a real terminal, a recording one in tests.
public protocol Terminal: AnyObject {
    /// Columns and rows now.
    var size: (width: Int, height: Int) { get }
    /// Colours the terminal can show.
    var colorDepth: ColorDepth { get }
    /// Shows a frame, writing only what changed since the last.
    func present(_ screen: Screen)
    /// Waits up to `timeout` seconds for keys or a wake-up; returns every key already typed
    /// (a paste arrives as one batch).
    func readKeys(timeout: Double) -> [Key]
    /// Rings the terminal bell (a mention arrived).
    func bell()
    /// The terminal went away (the ssh connection dropped) or the process was asked to stop
    /// (SIGHUP, SIGTERM): the app saves drafts and cache and ends.
    var isClosed: Bool { get }
    /// Hands the terminal back in its normal mode (for a program that asks the user something,
    /// such as a password manager), then takes it again and redraws.
    func suspend()
    func resume()
    /// Forgets what is on the screen: the next frame is drawn whole (ctrl-l, after an outside
    /// program wrote over it).
    func invalidate()
    /// Stops the process as ctrl-z does in a shell: the terminal handed back first, taken
    /// again and redrawn whole when the shell continues it. False when there is no job control
    /// to continue it (started straight from tmux or ssh without a shell): nothing is done.
    func stopProcess() -> Bool
    /// Pastes arrive marked (bracketed paste), so a burst of typed keys is never taken for one.
    var bracketedPaste: Bool { get }
    /// Puts text on the clipboard of the terminal the user sits at (OSC 52), over ssh and
    /// through tmux too.
    func copyToClipboard(_ text: String)
    /// A desktop notification, where the terminal shows them (OSC 9, OSC 777).
    func notify(title: String, body: String)
    /// How the terminal advances over a grapheme cluster (per scalar, or per cluster in mode 2027).
    var widthMode: WidthMode { get }
    /// Seconds within which `readKeys` must be called again although nothing arrives (a paste
    /// whose end never came is let go after a while); nil when nothing waits.
    var wakeWithin: Double? { get }
    /// A cell's size in pixels as the terminal says now (it changes with the font's size);
    /// nil where it does not say.
    var cellPixels: (width: Int, height: Int)? { get }
    /// The terminal's answers to the question asked at start (background, pictures), once,
    /// when they have all come; nil before and after.
    func takeStartReply() -> [UInt8]?
}

extension Terminal {
    public var isClosed: Bool { false }
    public func suspend() {}
    public func resume() {}
    public func invalidate() {}
    public func stopProcess() -> Bool { false }
    public var bracketedPaste: Bool { false }
    public func copyToClipboard(_ text: String) {}
    public func notify(title: String, body: String) {}
    public var widthMode: WidthMode { .perScalar }
    public var wakeWithin: Double? { nil }
    public var cellPixels: (width: Int, height: Int)? { nil }
    public func takeStartReply() -> [UInt8]? { nil }
}
