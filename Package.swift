// swift-tools-version: 6.1
// Trellis: a headless, multi-process collection view. The targets follow the layers of
// DESIGN.md; arrows point down only (CLI/server → client/server libs → protocol → core →
// dynamics → geometry; the protocol → json, which depends on nothing).
import PackageDescription

let package = Package(
    name: "Trellis",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "TrellisGeometry", targets: ["TrellisGeometry"]),
        .library(name: "TrellisJSON", targets: ["TrellisJSON"]),
        .library(name: "TrellisCore", targets: ["TrellisCore"]),
        .library(name: "TrellisDynamics", targets: ["TrellisDynamics"]),
        .library(name: "TrellisProtocol", targets: ["TrellisProtocol"]),
        .library(name: "TrellisTransport", targets: ["TrellisTransport"]),
        .library(name: "TrellisServer", targets: ["TrellisServer"]),
        .library(name: "TrellisClient", targets: ["TrellisClient"]),
        .executable(name: "trellisd", targets: ["trellisd"]),
        .executable(name: "trellis", targets: ["trellis"]),
        .executable(name: "trellis-web", targets: ["trellis-web"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        // Tests only: property checks (generated inputs, shrunk when one fails, fixed seeds).
        .package(url: "https://github.com/x-sheep/swift-property-based.git", from: "2.0.0"),
        // The browser viewer only (TrellisWeb, trellis-web and their tests): HTTP, WebSockets and
        // the NIO channel to trellisd's socket. Nothing else depends on them, so trellisd and
        // trellis never build swift-nio. No traits: neither swift-configuration nor the
        // full-Foundation extras are used.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CLibUV",
            path: "Sources/CLibUV",
            pkgConfig: "libuv",
            providers: [.apt(["libuv1-dev"])]
        ),
        .target(name: "TrellisGeometry"),
        // JSON's value, parser, writer and limits (issue 26): below the protocol, beside the
        // engine, so whoever only speaks JSON (the browser bridge) need not import the engine.
        .target(name: "TrellisJSON"),
        .target(name: "TrellisDynamics", dependencies: ["TrellisGeometry"]),
        // No wire types in the engine: item payloads are opaque `ItemPayload` bytes, behaviour
        // settings typed specs (`DynamicBehaviorSpec`).
        .target(name: "TrellisCore", dependencies: ["TrellisGeometry", "TrellisDynamics"]),
        .target(name: "TrellisProtocol", dependencies: ["TrellisJSON", "TrellisCore", "TrellisDynamics"]),
        // The one copy of libuv plumbing (the loop, framed NDJSON over a pipe, the listener,
        // timers, signals, the tty), below both the server and the clients: the only target
        // that depends on CLibUV.
        .target(name: "TrellisTransport", dependencies: ["TrellisProtocol", "CLibUV"]),
        .target(
            name: "TrellisServer",
            dependencies: [
                "TrellisProtocol", "TrellisCore", "TrellisTransport",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // TrellisTransport: the terminal viewer's tty, socket, signals and timers run on its loop.
        .target(name: "TrellisClient", dependencies: ["TrellisProtocol", "TrellisCore", "TrellisTransport"]),
        .executableTarget(
            name: "trellisd",
            dependencies: [
                "TrellisServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "trellis",
            dependencies: [
                // TrellisServer: `trellis run` executes scripts in process through the server's
                // own method table, so embedded and --socket runs give the same results.
                "TrellisClient", "TrellisCore", "TrellisServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // The browser viewer (issue 17): a WebSocket per browser, each bridged to its own
        // read-only attach on trellisd's socket, and the one page that mirrors the scene.
        .target(
            name: "TrellisWeb",
            dependencies: [
                // Not TrellisCore: the bridge relays the protocol's JSON and never runs an engine.
                "TrellisProtocol",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Hummingbird", package: "hummingbird"),
                // HTTPServerBuilder and URI, which Hummingbird does not re-export.
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "NIOCore", package: "swift-nio"),
                // The gate that reads a WebSocket handshake's head before the upgrader does.
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            // The page's files, compiled in as byte arrays (PackageResources.viewer_html, …):
            // the binary needs no resource bundle beside it at run time.
            resources: [
                .embedInCode("Page/viewer.html"),
                .embedInCode("Page/viewer.css"),
                .embedInCode("Page/viewer.js"),
                .embedInCode("Page/samples.js"),
                .embedInCode("Page/controls.js"),
                .embedInCode("Page/chart.js"),
                .embedInCode("Page/timeline.js"),
            ]
        ),
        .executableTarget(
            name: "trellis-web",
            dependencies: [
                "TrellisWeb", "TrellisProtocol",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
        .testTarget(name: "TrellisGeometryTests", dependencies: ["TrellisGeometry"]),
        .testTarget(name: "TrellisDynamicsTests", dependencies: ["TrellisDynamics"]),
        // Seeded property checks on swift-property-based's generators, shared by the test targets.
        // Seeded property checks, and the real trellisd the client and web tests start.
        .target(name: "TrellisTestSupport", dependencies: ["TrellisClient", .product(name: "PropertyBased", package: "swift-property-based")],
                path: "Tests/TrellisTestSupport"),
        .testTarget(name: "TrellisCoreTests", dependencies: ["TrellisCore", "TrellisTestSupport",
                                                          .product(name: "PropertyBased", package: "swift-property-based")]),
        // TrellisGeometry: its seeded SplitMix64 drives the random documents.
        .testTarget(name: "TrellisJSONTests", dependencies: ["TrellisJSON", "TrellisGeometry", "TrellisTestSupport",
                                                          .product(name: "PropertyBased", package: "swift-property-based")]),
        .testTarget(name: "TrellisProtocolTests", dependencies: ["TrellisProtocol", "TrellisTestSupport",
                                                              .product(name: "PropertyBased", package: "swift-property-based")]),
        .testTarget(name: "TrellisServerTests", dependencies: ["TrellisServer", "TrellisTransport", "TrellisTestSupport",
                                                            .product(name: "PropertyBased", package: "swift-property-based")]),
        // The libuv handle types on a real loop (timers, signals, the listener and its streams).
        .testTarget(name: "TrellisTransportTests", dependencies: ["TrellisTransport"]),
        .testTarget(name: "TrellisClientTests", dependencies: ["TrellisClient", "TrellisCore", "TrellisTestSupport"]),
        // A real trellisd, a real trellis-web, a real WebSocket client and a real headless browser.
        .testTarget(name: "TrellisWebTests", dependencies: [
            "TrellisWeb", "TrellisClient", "TrellisProtocol", "TrellisCore", "TrellisTestSupport",
            .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
            .product(name: "Logging", package: "swift-log"),
        ]),
    ]
)
