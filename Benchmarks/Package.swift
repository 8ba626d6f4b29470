// swift-tools-version: 6.1
// Benchmarks on ordo-one/benchmark, in their own package so the main build stays light.
// `Trellis` is a symlink to the repository root, so the dependency's identity does not
// depend on the name of the directory the repository was cloned into.
// The benchmark plugin runs every executable target whose folder sits in a folder named
// `Benchmarks`, so the load client (`rpc-load`, a plain executable behind `tools/bench rpc`
// and `tools/bench fanout`) lives under `Tools/` instead, as do the dynamics scenes shared by
// the benchmarks and `physics-bench` (the Trellis side of `tools/bench physics`; the Box2D
// side, Tools/Box2DHarness, is C++ that tools/bench compiles with g++). `web-fanout` (behind
// `tools/bench web`) is the one tool that needs hummingbird-websocket's client: only it
// depends on it, so the benchmarks themselves never build swift-nio.
import PackageDescription

let package = Package(
    name: "TrellisBenchmarks",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(path: "Trellis"),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
        // As the root package declares it, so both resolve the same version.
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
    ],
    targets: [
        .executableTarget(
            name: "TrellisBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "TrellisCore", package: "Trellis"),
                .product(name: "TrellisProtocol", package: "Trellis"),
                // recording.seek.10min drives an in-process server (its history and seek).
                .product(name: "TrellisServer", package: "Trellis"),
                "DynamicsScenes",
            ],
            path: "Benchmarks/TrellisBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "rpc-load",
            path: "Tools/RPCLoad"
        ),
        .target(
            name: "DynamicsScenes",
            dependencies: [
                .product(name: "TrellisDynamics", package: "Trellis"),
                .product(name: "TrellisGeometry", package: "Trellis"),
            ],
            path: "Tools/DynamicsScenes"
        ),
        .executableTarget(
            name: "physics-bench",
            dependencies: ["DynamicsScenes"],
            path: "Tools/PhysicsBench"
        ),
        .executableTarget(
            name: "web-fanout",
            dependencies: [.product(name: "HummingbirdWSClient", package: "hummingbird-websocket")],
            path: "Tools/WebFanout"
        ),
    ]
)
