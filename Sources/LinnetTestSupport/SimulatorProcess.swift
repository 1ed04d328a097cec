import Foundation
import Spawn

/// `linnet sim` in a process of its own (for the benchmarks), read until it says where it
/// listens. The simulator is stopped again if it never says so.
public final class SimulatorProcess: @unchecked Sendable {
    public struct NotStarted: Error, CustomStringConvertible {
        public let description: String
    }

    public let child: ChildProcess
    /// `http://127.0.0.1:PORT`.
    public let base: String
    public var port: UInt16? { UInt16(base.split(separator: ":").last ?? "") }

    /// Starts `linnet sim --port 0` with `arguments`, waiting up to `seconds` for each piece of its banner.
    public init(linnet: String, arguments: [String], seconds: Double = 30) throws {
        child = try ChildProcess(linnet, ["sim", "--port", "0"] + arguments, stderr: .inherit)
        var banner = ""
        while !banner.contains("Press Ctrl-C") {
            guard let d = child.read(timeout: seconds), !d.isEmpty else { break }
            banner += String(decoding: d, as: UTF8.self)
        }
        guard let line = banner.split(separator: "\n").first(where: { $0.contains("listening on") }),
            let url = line.split(separator: " ").last.map(String.init), url.hasPrefix("http://")
        else {
            child.send(SIGTERM)
            _ = child.wait()
            throw NotStarted(description: "linnet sim did not start: \(banner)")
        }
        base = url
    }

    public func stop() {
        child.send(SIGTERM)
        _ = child.wait()
    }
}
