import FoundationEssentials
import Pictures
import TwitterAPI

/// How pictures are made on this terminal: the protocol, the colours, a cell's pixels, and
/// where the files come from.
public struct PictureSetup: Sendable {
    public var mode: PictureMode
    public var colors: PictureColors
    public var cellWidth: Int
    public var cellHeight: Int
    public var fetcher: MediaFetcher
    /// Whether pictures made with `other` would be made otherwise with this.
    func differs(from other: PictureSetup?) -> Bool {
        guard let other else { return true }
        return mode != other.mode || colors != other.colors || cellWidth != other.cellWidth || cellHeight != other.cellHeight
    }

    public init(mode: PictureMode, colors: PictureColors, cell: (width: Int, height: Int)?, fetcher: MediaFetcher) {
        self.mode = mode
        self.colors = colors
        // Unknown: a common 1:2 cell, as most fonts are.
        cellWidth = cell?.width ?? 10
        cellHeight = cell?.height ?? 20
        self.fetcher = fetcher
    }

    /// The pixels `columns` x `rows` cells show: symbols about 8x16 dots a cell at best, pixel
    /// protocols the cell's own pixels.
    func pixels(columns: Int, rows: Int) -> (width: Int, height: Int) {
        mode == .symbols ? (columns * 8, rows * 16) : (columns * cellWidth, rows * cellHeight)
    }

    /// Fetches, decodes, scales and draws one picture for its room (off the main thread).
    public func make(_ ask: PictureAsk) async -> Result<RenderedPicture, PictureFailure> {
        let cell = (width: cellWidth, height: cellHeight)
        let px = pixels(columns: ask.columns, rows: ask.rows)
        let bytes: [UInt8]
        switch await fetcher.bytes(ask.url, pixels: max(px.width, px.height)) {
        case .success(let b): bytes = b
        case .failure(let f): return .failure(f)
        }
        do {
            let header = try PictureDecoder.probe(bytes)
            let fit = PictureRenderer.fit(width: header.width, height: header.height, columns: ask.columns, rows: ask.rows, cell: cell)
            let bitmap = try PictureDecoder.decode(bytes, atLeast: pixels(columns: fit.columns, rows: fit.rows))
            let picture = try PictureRenderer.render(bitmap, columns: fit.columns, rows: fit.rows, mode: mode, colors: colors, cell: cell)
            return .success(picture)
        } catch {
            return .failure(error)
        }
    }
}

extension App {
    /// After a resize: a font zoom changes a cell's pixels (the kernel's window size says so),
    /// and pixel pictures made for the old size would be drawn too large or too small.
    func refreshCellSize() {
        guard let setup = settings.pictures, let cell = terminal.cellPixels,
            cell.width != setup.cellWidth || cell.height != setup.cellHeight
        else { return }
        settings.pictures?.cellWidth = cell.width
        settings.pictures?.cellHeight = cell.height
        forgetPictures()
    }

    /// Pictures made for another setup (a cell's size, a protocol) are made again, and those
    /// still being made are not taken when they come.
    func forgetPictures() {
        pictureGeneration += 1
        pictureShelf = PictureShelf()
        picturesAsked = []
        pictureFailedAt = [:]
    }

    /// Pictures the last frame wanted and nobody has made yet: made off the main thread, each
    /// once; the result comes back as an action.
    func askForPictures(_ asks: [PictureAsk]) {
        guard let setup = settings.pictures else { return }
        let now = settings.clock.now()
        for ask in asks {
            // A failure is tried again after a minute (the network may be back).
            if case .failed? = pictureShelf[ask], let at = pictureFailedAt[ask], now - at >= 60 {
                pictureShelf.forget(ask)
                pictureFailedAt[ask] = nil
            }
        }
        // Those on screen stay on the shelf, however much newer ones take.
        pictureShelf.onScreen = Set(asks)
        // Two at a time: each holds a file and its pixels while it is made; the rest are asked
        // for again by the frames that still show them.
        for ask in asks where pictureShelf[ask] == nil && !picturesAsked.contains(ask) && picturesAsked.count < 2 {
            picturesAsked.insert(ask)
            let inbox = self.inbox
            let wake = self.wake
            let generation = pictureGeneration
            Task.detached {
                let result = await setup.make(ask)
                inbox.post(.pictureLoaded(ask, result, generation: generation))
                wake()
            }
        }
    }

    /// Pictures made since the last turn, onto the shelf the views read; one made for a cell
    /// size that has changed since it was asked for is dropped (its failure said nowhere).
    func shelve(_ actions: inout [Action]) {
        actions.removeAll { if case .pictureLoaded(_, _, let g) = $0 { g != pictureGeneration } else { false } }
        for case .pictureLoaded(let ask, let result, _) in actions {
            guard picturesAsked.remove(ask) != nil else { continue }
            pictureShelf.put(ask, result)
            if case .failure = result { pictureFailedAt[ask] = settings.clock.now() }
        }
    }
}
