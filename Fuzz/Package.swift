// swift-tools-version: 6.1
// Fuzz targets on libFuzzer, in their own package so the main build stays light (as
// Benchmarks/). `Trellis` is a symlink to the repository root. Built and run by `tools/fuzz`
// with `-sanitize=fuzzer,address`; each target is a library-style executable whose
// `LLVMFuzzerTestOneInput` libFuzzer's own main calls.
import PackageDescription

let fuzzTarget: [SwiftSetting] = [.unsafeFlags(["-parse-as-library"])]

let package = Package(
    name: "TrellisFuzz",
    platforms: [.macOS(.v14)],
    dependencies: [.package(path: "Trellis")],
    targets: [
        .target(name: "FuzzDriver", path: "Targets/Driver"),
        .executableTarget(
            name: "fuzz-json",
            dependencies: ["FuzzDriver", .product(name: "TrellisProtocol", package: "Trellis")],
            path: "Targets/JSON", swiftSettings: fuzzTarget),
        .executableTarget(
            name: "fuzz-batch",
            dependencies: ["FuzzDriver", .product(name: "TrellisCore", package: "Trellis")],
            path: "Targets/Batch", swiftSettings: fuzzTarget),
        .executableTarget(
            name: "fuzz-request",
            dependencies: ["FuzzDriver", .product(name: "TrellisServer", package: "Trellis"),
                           .product(name: "TrellisProtocol", package: "Trellis")],
            path: "Targets/Request", swiftSettings: fuzzTarget),
        // Targets/Dynamics/DynamicsScenario.swift links to the tests' copy, which replays kept inputs.
        .executableTarget(
            name: "fuzz-dynamics",
            dependencies: ["FuzzDriver", .product(name: "TrellisServer", package: "Trellis"),
                           .product(name: "TrellisProtocol", package: "Trellis")],
            path: "Targets/Dynamics", swiftSettings: fuzzTarget),
    ]
)
