import TrellisCore
import TrellisProtocol

/// Sessions the browser tests watch: manual clocks, coloured items.
enum BrowserSessions {
    /// Twelve colours far apart, so a screenshot tells the cells apart.
    static let palette = [
        "#d7263d", "#f46036", "#f5b700", "#8ac926", "#1b998b", "#2e86de",
        "#3d348b", "#8e44ad", "#e84393", "#6d4c41", "#00a8e8", "#2d6a4f",
    ]

    /// Item `id` labelled with its id in capitals, coloured from the palette by `colour`.
    static func item(_ id: String, colour: Int) -> JSONValue {
        .object(["id": .string(id), "data": .object([
            "label": .string(id.uppercased()), "color": .string(palette[colour % palette.count]),
        ])])
    }

    static func section(_ id: String, items count: Int, prefix: String) -> JSONValue {
        .object(["id": .string(id), "items": .array((0..<count).map { item("\(prefix)\($0)", colour: $0) })])
    }

    /// A manual-clock session; `bounds` defaults to the protocol's 375×812.
    static func create(
        _ harness: BrowserHarness, name: String, layout: [String: JSONValue], sections: [JSONValue], bounds: (Double, Double) = (375, 812)
    ) throws {
        try harness.call("session.create", [
            "name": .string(name), "clock": .string("manual"), "bounds": .array([.number(bounds.0), .number(bounds.1)]),
            "layout": .object(layout), "sections": .array(sections),
        ])
    }

    static func advance(_ harness: BrowserHarness, _ session: String, ms: Double) throws {
        try harness.call("clock.advance", ["session": .string(session), "ms": .number(ms)])
    }

    static func indexPaths(_ paths: [(Int, Int)]) -> JSONValue {
        .array(paths.map { .array([.number(Double($0.0)), .number(Double($0.1))]) })
    }

    /// Whether some view of `scene` is part way through a fade (alpha strictly between 0 and 1).
    static func somethingFades(_ scene: JSONValue) -> Bool {
        (scene["views"]?.arrayValue ?? []).contains { v in
            let alpha = v["alpha"]?.numberValue ?? 1
            return alpha > 0 && alpha < 1
        }
    }

    /// How many views of `scene` carry a transform other than the identity.
    static func transformed(_ scene: JSONValue) -> Int {
        (scene["views"]?.arrayValue ?? []).filter { v in
            guard let m = v["transform"]?.arrayValue?.compactMap(\.numberValue) else { return false }
            return m != SceneTransform.identity
        }.count
    }
}
