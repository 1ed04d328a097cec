import Foundation
import FuzzHarnesses

#if FUZZING
    import CFuzz

    /// The harness named by `LINNET_FUZZ` (framer, json, text, toml, cache, oauth).
    let harness: Harness = {
        let name = ProcessInfo.processInfo.environment["LINNET_FUZZ"] ?? ""
        guard let h = Harness(rawValue: name) else {
            fatalError("set LINNET_FUZZ to one of \(Harness.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return h
    }()

    /// One input, as libFuzzer calls it.
    @_cdecl("LLVMFuzzerTestOneInput")
    public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
        harness.run(size == 0 ? [] : Array(UnsafeBufferPointer(start: data, count: size)))
        return 0
    }

    /// The program's entry point (SwiftPM points `main` here): hands over to libFuzzer.
    @_cdecl("LinnetFuzz_main")
    func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
        var count = argc
        var values = argv
        return LLVMFuzzerRunDriver(&count, &values) { data, size in fuzzOne(data, size) }
    }
#else
    /// Without libFuzzer: `LinnetFuzz HARNESS FILE|FOLDER…` runs each input once (to replay a
    /// crash found by `make fuzz`).
    @main struct Replay {
        static func main() {
            let args = CommandLine.arguments.dropFirst()
            guard let name = args.first, let h = Harness(rawValue: name) else {
                print("usage: LinnetFuzz \(Harness.allCases.map(\.rawValue).joined(separator: "|")) FILE|FOLDER...")
                exit(2)
            }
            var count = 0
            for path in args.dropFirst() {
                var isDir: ObjCBool = false
                guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir) else { continue }
                let files =
                    isDir.boolValue
                    ? ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted().map { path + "/" + $0 } : [path]
                for f in files {
                    guard let d = FileManager.default.contents(atPath: f) else { continue }
                    h.run([UInt8](d))
                    count += 1
                }
            }
            print("\(name): \(count) inputs, no crash")
        }
    }
#endif
