import Foundation
import LinnetTestSupport
import Pictures
import Spawn

/// Pictures: Linnet's decode + scale + render of a 1200x675 JPEG to 80x24 cells against the
/// `chafa` command on the same file (its own loader, the same libchafa), same run, same size and
/// format; and the bytes a photo costs on the wire in each protocol.
func scene(_ w: Int, _ h: Int) -> Bitmap {
    var px = [UInt8](repeating: 255, count: w * h * 4)
    for y in 0..<h {
        for x in 0..<w {
            // A gradient with a disc: colours that change, as a photo's do.
            let dx = x - w / 2
            let dy = y - h / 2
            let disc = dx * dx + dy * dy < (h / 4) * (h / 4)
            let i = (y * w + x) * 4
            px[i] = disc ? 230 : UInt8(x * 255 / w)
            px[i + 1] = disc ? 20 : UInt8(y * 255 / h)
            px[i + 2] = disc ? 20 : 180
        }
    }
    return Bitmap(width: w, height: h, rgba: px)
}

let dir = benchDirectory("linnet-picture-bench")
try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: dir) }
let jpeg = PictureEncoder.jpeg(scene(1200, 675))!
let file = dir.appendingPathComponent("photo.jpg")
try Data(jpeg).write(to: file)

let cell = (width: 10, height: 20)
let rounds = 40

func linnet(_ mode: PictureMode) throws -> (seconds: Double, bytes: Int) {
    var bytes = 0
    let start = Date()
    for _ in 0..<rounds {
        let data = [UInt8](try Data(contentsOf: file))
        let h = try PictureDecoder.probe(data)
        let fit = PictureRenderer.fit(width: h.width, height: h.height, columns: 80, rows: 24, cell: cell)
        let need = mode == .symbols ? (fit.columns * 8, fit.rows * 16) : (fit.columns * cell.width, fit.rows * cell.height)
        let b = try PictureDecoder.decode(data, atLeast: need)
        let p = try PictureRenderer.render(b, columns: fit.columns, rows: fit.rows, mode: mode, colors: .truecolor, cell: cell)
        bytes = mode == .symbols ? p.cells.count : p.bytes.count
    }
    return (Date().timeIntervalSince(start) / Double(rounds), bytes)
}

func chafa(_ format: String) throws -> (seconds: Double, bytes: Int) {
    var bytes = 0
    let start = Date()
    for _ in 0..<rounds {
        let r = try ChildProcess.run(
            "/usr/bin/chafa",
            [
                "-f", format, "--size", "80x24", "--symbols", "block+space-wide-ambiguous", "--font-ratio", "0.5", "--animate", "off",
                "--polite", "on", "-c", "full", file.path,
            ],
            environment: ["TERM": format == "sixels" ? "mlterm" : "xterm-256color", "PATH": "/usr/bin"])
        bytes = r.output.count
    }
    return (Date().timeIntervalSince(start) / Double(rounds), bytes)
}

let ours = try linnet(.symbols)
let theirs = try chafa("symbols")
bench("picture_linnet_symbols_us", ours.seconds * 1e6, "µs")
bench("picture_chafa_cli_symbols_us", theirs.seconds * 1e6, "µs")
bench("picture_vs_chafa_cli_ratio", ours.seconds / theirs.seconds, "x", decimals: 2, goal: .atMost(1.0))
let oursSixel = try linnet(.sixel)
let theirsSixel = try chafa("sixels")
bench("picture_sixel_vs_chafa_cli_ratio", oursSixel.seconds / theirsSixel.seconds, "x", decimals: 2, goal: .atMost(1.0))
for mode in [PictureMode.sixel, .kitty, .iterm] {
    bench("picture_bytes_\(mode.rawValue)_80x24", Double(try linnet(mode).bytes) / 1024, "KiB", decimals: 1)
}
