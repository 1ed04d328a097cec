// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Linnet",
    products: [
        .executable(name: "linnet", targets: ["linnet"])
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.6.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "5.0.1"),
        .package(url: "https://github.com/swhitty/FlyingFox", from: "0.27.1"),
    ],
    targets: [
        // System libraries. ncursesw has no pkgConfig on purpose: SwiftPM drops its -D flags
        // (docs/BINDINGS.md N1), so the shim defines them itself.
        .systemLibrary(name: "CNcursesw", path: "Sources/CNcursesw"),
        // libcurl's headers only: the library is opened when the first transfer needs it.
        // Opening a library with dlopen when it is first needed, for the three below.
        .target(name: "CLoading"),
        .target(name: "CCurl", dependencies: ["CLoading"], path: "Sources/CCurl"),
        // libcrypto's headers only: the library is opened when the first signature needs it.
        .target(name: "COpenSSL", dependencies: ["CLoading"], path: "Sources/COpenSSL"),

        .target(name: "Bedrock"),
        .target(name: "TweetText", dependencies: ["Bedrock"]),
        .target(name: "Locking", dependencies: ["Bedrock"]),
        .systemLibrary(name: "CSpawn", path: "Sources/CSpawn"),
        .systemLibrary(name: "CScan", path: "Sources/CScan"),
        .systemLibrary(name: "CBuildInfo", path: "Sources/CBuildInfo"),
        .systemLibrary(name: "CYAML", path: "Sources/CYAML", providers: [.apt(["libyaml-dev"])]),
        .target(name: "PlainYAML", dependencies: ["CYAML"]),
        .target(name: "Spawn", dependencies: ["CSpawn", "Bedrock"]),
        .target(name: "TwitterAPI", dependencies: ["Bedrock", "Locking", "TweetText", "COpenSSL", "CCurl", "CScan"]),
        .target(name: "PrivateFiles", dependencies: ["Bedrock"]),
        // Filters' regular expressions: RE2 (Debian's libre2) matches in time linear in the text.
        .target(name: "RE2Shim", linkerSettings: [.linkedLibrary("re2")]),
        .target(name: "Timeline", dependencies: ["Bedrock", "Locking", "TwitterAPI", "PrivateFiles", "CScan"]),
        .target(name: "TOML", dependencies: ["Bedrock", "TweetText"]),
        // Pictures: Debian's decoders and encoders (C, for libjpeg's setjmp) and libchafa, opened
        // when the first picture needs them (the codecs' headers only at build time).
        .target(name: "CImageCodecs", dependencies: ["CLoading"]),
        // libchafa linked, for the tests alone: what they compare the loaded one with.
        .systemLibrary(
            name: "CChafa", path: "Sources/CChafa", pkgConfig: "chafa", providers: [.apt(["libchafa-dev", "libglib2.0-dev"])]),
        .target(name: "Pictures", dependencies: ["Bedrock", "CImageCodecs", "PrivateFiles", "Locking"]),
        .target(name: "Screen", dependencies: ["Bedrock", "Locking", "TweetText", "PrivateFiles", "TOML"]),
        .target(
            name: "LinnetCore",
            dependencies: [
                "Bedrock", "Locking",
                "Timeline", "Screen", "TOML", "TweetText", "TwitterAPI", "Spawn", "PrivateFiles", "RE2Shim", "Pictures",
            ]),
        .target(name: "CursesTerminal", dependencies: ["Bedrock", "Screen", "TweetText", "CNcursesw", "Spawn", "PrivateFiles"]),
        .target(
            name: "TwitterSimulator",
            dependencies: [
                "Bedrock", "TweetText", "COpenSSL", "PrivateFiles", "Locking", "Pictures",
                .product(name: "FlyingSocks", package: "FlyingFox"),
            ]),
        .target(
            name: "LinnetTestSupport",
            dependencies: ["Locking", "TwitterAPI", "TwitterSimulator", "Screen", "Spawn", .product(name: "Yams", package: "Yams")]),
        .executableTarget(
            name: "linnet",
            dependencies: [
                "TwitterAPI", "TweetText", "TwitterSimulator", "Timeline", "Screen", "LinnetCore", "CursesTerminal", "Locking", "Pictures",
                "CBuildInfo", "PlainYAML", "Bedrock", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            // Read by the release link (the Makefile's RELEASE_BUILD), not built.
            exclude: ["hot-order.txt"]),
        .systemLibrary(name: "CMallocInfo", path: "Benchmarks/CMallocInfo"),
        .systemLibrary(name: "CPty", path: "Benchmarks/CPty"),
        .executableTarget(
            name: "TUIBench",
            dependencies: [
                "LinnetCore", "CursesTerminal", "Screen", "Timeline", "TwitterAPI", "LinnetTestSupport", "CPty", "CMallocInfo", "Spawn",
            ],
            path: "Benchmarks/TUIBench"),
        .executableTarget(
            name: "DecodeBench", dependencies: ["TwitterAPI", "Timeline", "LinnetTestSupport", "CMallocInfo", "Spawn"],
            path: "Benchmarks/DecodeBench"),

        .executableTarget(
            name: "StoreBench", dependencies: ["Timeline", "TwitterAPI", "LinnetCore", "LinnetTestSupport", "CMallocInfo"],
            path: "Benchmarks/StoreBench"),
        .executableTarget(
            name: "SimLoadBench", dependencies: ["TwitterAPI", "Timeline", "Spawn", "LinnetTestSupport"], path: "Benchmarks/SimLoadBench"),
        .executableTarget(name: "TextBench", dependencies: ["TweetText"], path: "Benchmarks/TextBench"),
        .executableTarget(name: "PictureBench", dependencies: ["Pictures", "LinnetTestSupport", "Spawn"], path: "Benchmarks/PictureBench"),
        .executableTarget(
            name: "CostBench", dependencies: ["TwitterAPI", "Timeline", "TwitterSimulator", "LinnetTestSupport", "Locking"],
            path: "Benchmarks/CostBench", exclude: ["day.txt"]),
        // Fuzzing: the harnesses (replayed by the tests), and the libFuzzer driver `make fuzz` builds.
        .target(name: "FuzzHarnesses", dependencies: ["TwitterAPI", "TweetText", "Timeline", "Screen", "LinnetCore", "TwitterSimulator"]),
        .systemLibrary(name: "CFuzz", path: "Sources/CFuzz"),
        .executableTarget(name: "LinnetFuzz", dependencies: ["FuzzHarnesses", "CFuzz"]),
        // Saves the cache and drafts in a loop for the kill -9 test to interrupt.
        .executableTarget(name: "SaveLoop", dependencies: ["LinnetCore", "Timeline", "TwitterAPI"], path: "Tests/Helpers/SaveLoop"),

        .testTarget(name: "SpawnTests", dependencies: ["Spawn"]),
        .testTarget(name: "TweetTextTests", dependencies: ["TweetText", "Bedrock", "LinnetTestSupport"]),
        .testTarget(name: "TwitterAPITests", dependencies: ["TwitterAPI", "LinnetTestSupport", "TwitterSimulator"]),
        .testTarget(name: "ScreenTests", dependencies: ["Screen", "TweetText", "LinnetTestSupport", "TwitterSimulator"]),
        .testTarget(name: "TOMLTests", dependencies: ["TOML"]),
        .testTarget(
            name: "PicturesTests",
            dependencies: [
                "Pictures", "LinnetCore", "Screen", "CursesTerminal", "TwitterAPI", "TwitterSimulator", "LinnetTestSupport", "Spawn",
                "Timeline", "CImageCodecs", "CChafa",
            ]),
        .testTarget(name: "CursesTerminalTests", dependencies: ["CursesTerminal", "Screen", "TweetText"]),
        .testTarget(
            name: "LinnetCoreTests",
            dependencies: ["LinnetCore", "Locking", "Screen", "TOML", "Timeline", "TwitterAPI", "LinnetTestSupport", "Pictures"],
            exclude: ["Golden"]),
        .testTarget(
            name: "TUITests",
            dependencies: [
                "TweetText", "TwitterAPI", "TwitterSimulator", "Timeline", "LinnetTestSupport", "Spawn", "CursesTerminal", "Screen",
            ]),
        .testTarget(name: "TimelineTests", dependencies: ["Timeline", "TwitterAPI", "LinnetCore", "LinnetTestSupport"]),
        .testTarget(
            name: "TwitterClientTests",
            dependencies: ["Locking", "TwitterAPI", "TwitterSimulator", "LinnetTestSupport", "Spawn", "CCurl", "COpenSSL"]),
        .testTarget(
            name: "SyncTests", dependencies: ["Locking", "Timeline", "TwitterAPI", "TwitterSimulator", "LinnetTestSupport", "LinnetCore"]),
        .testTarget(name: "FuzzReplayTests", dependencies: ["FuzzHarnesses", "Locking"]),
        .testTarget(
            name: "HostileTests",
            dependencies: [
                "Locking", "Timeline", "TwitterAPI", "LinnetCore", "PrivateFiles", "LinnetTestSupport", "Spawn", "SaveLoop", "PlainYAML",
            ]),
        .testTarget(
            name: "TwitterSimulatorTests", dependencies: ["TwitterSimulator", "TwitterAPI", "LinnetTestSupport"]),
    ]
)
