import Screen
import Timeline
import TweetText
import TwitterAPI

/// Where things go on the screen for a state; shared by `reduce` (scrolling) and `render`.
public struct Layout: Equatable, Sendable {
    public static let minWidth = 40, minHeight = 10

    public var tabs: Rect
    public var body: Rect
    public var compose: Rect?
    public var status: Rect
    public var tooSmall: Bool

    public init(_ s: AppState, replyLines: Int = 0) {
        tooSmall = s.width < Self.minWidth || s.height < Self.minHeight
        tabs = Rect(x: 0, y: 0, width: s.width, height: 1)
        status = Rect(x: 0, y: s.height - 1, width: s.width, height: 1)
        var bodyHeight = s.height - 2
        if let c = s.compose {
            let rows = min(8, max(2, c.editor.layout(width: max(1, s.width - 2)).rows.count))
            // A refusal is shown whole above the footer: the box grows by its lines (up to 6).
            let errorRows = c.error.map { min(6, TextLayout.wrap([Span($0, Style())], width: max(1, s.width - 2)).count) } ?? 0
            let h = min(bodyHeight - 3, rows + 2 + replyLines + errorRows)
            compose = Rect(x: 0, y: s.height - 1 - h, width: s.width, height: h)
            bodyHeight -= h
        }
        body = Rect(x: 0, y: 1, width: s.width, height: max(0, bodyHeight))
    }
}
