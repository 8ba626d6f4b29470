import Foundation
import TrellisCore
import TrellisProtocol

/// A point in the page's CSS pixels (the viewport's coordinates, as mouse events take them).
struct PagePoint: Sendable, CustomStringConvertible {
    var x: Double
    var y: Double
    var description: String { "(\(x), \(y))" }
}

/// One tab of the browser, attached over the browser's DevTools socket as a flat session: every
/// command names the session, so one WebSocket serves the browser and its page.
struct BrowserPage: Sendable {
    let connection: DevToolsConnection
    let session: String
    let targetID: String

    /// Opens a blank tab of `width`×`height` CSS pixels at scale 1, so element boxes and
    /// screenshot pixels are the same numbers.
    static func open(in connection: DevToolsConnection, width: Int, height: Int) async throws -> BrowserPage {
        let created = try await connection.call("Target.createTarget", ["url": .string("about:blank")])
        guard let targetID = created["targetId"]?.stringValue else { throw DevToolsError("Target.createTarget: no targetId in \(created)") }
        let attached = try await connection.call("Target.attachToTarget", ["targetId": .string(targetID), "flatten": .bool(true)])
        guard let session = attached["sessionId"]?.stringValue else { throw DevToolsError("Target.attachToTarget: no sessionId in \(attached)") }
        let page = BrowserPage(connection: connection, session: session, targetID: targetID)
        _ = try await page.send("Emulation.setDeviceMetricsOverride", [
            "width": .number(Double(width)), "height": .number(Double(height)),
            "deviceScaleFactor": .number(1), "mobile": .bool(false),
        ])
        return page
    }

    /// A DevTools command to this page.
    func send(_ method: String, _ params: [String: JSONValue] = [:], timeout: Double = 30) async throws -> JSONValue {
        try await connection.call(method, params, session: session, timeout: timeout)
    }

    /// Loads `url` and waits (bounded) until its document has loaded.
    func navigate(to url: String, timeout: Double = 30) async throws {
        // The document being left is marked, so the wait below knows the new one from it
        // (comparing URLs would trip over how the browser normalises them).
        _ = try await evaluate("window.trellisTestLeaving = true")
        let reply = try await send("Page.navigate", ["url": .string(url)])
        if let problem = reply["errorText"]?.stringValue { throw DevToolsError("Page.navigate \(url): \(problem)") }
        _ = try await waitUntil("!window.trellisTestLeaving && document.readyState === 'complete'", timeout: timeout, "\(url) to load")
    }

    /// The value of `expression` (a promise's value when `awaitPromise`), as JSON; a script
    /// exception becomes an error with its text.
    func evaluate(_ expression: String, awaitPromise: Bool = false, timeout: Double = 30) async throws -> JSONValue {
        let reply = try await send("Runtime.evaluate", [
            "expression": .string(expression), "returnByValue": .bool(true), "awaitPromise": .bool(awaitPromise),
        ], timeout: timeout)
        if let details = reply["exceptionDetails"] {
            let text = details["exception"]?["description"]?.stringValue ?? details["text"]?.stringValue ?? "\(details)"
            throw DevToolsError("the page threw: \(text)")
        }
        return reply["result"]?["value"] ?? .null
    }

    /// Polls `expression` until it is truthy (every 20 ms, at most `timeout` seconds) and
    /// returns its value: bounded polling for the page to become ready. Evaluation errors while
    /// a document is being replaced count as not yet.
    func waitUntil(_ expression: String, timeout: Double = 30, _ what: String) async throws -> JSONValue {
        let deadline = Date().addingTimeInterval(timeout)
        var last = "nothing yet"
        while Date() < deadline {
            do {
                let value = try await evaluate(expression, timeout: max(1, deadline.timeIntervalSinceNow))
                switch value {
                case .null, .bool(false), .number(0), .string(""): last = "\(value)"
                default: return value
                }
            } catch {
                last = "\(error)"
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw WebTestFailure("waited \(timeout) s for \(what); last: \(last)")
    }

    /// A PNG of the viewport, or of `clip` (CSS pixels at scale 1).
    func screenshot(clip: (x: Double, y: Double, width: Double, height: Double)? = nil) async throws -> [UInt8] {
        var params: [String: JSONValue] = ["format": .string("png"), "fromSurface": .bool(true)]
        if let clip {
            params["clip"] = .object([
                "x": .number(clip.x), "y": .number(clip.y), "width": .number(clip.width),
                "height": .number(clip.height), "scale": .number(1),
            ])
        }
        let reply = try await send("Page.captureScreenshot", params, timeout: 60)
        guard let base64 = reply["data"]?.stringValue, let data = Data(base64Encoded: base64) else {
            throw DevToolsError("Page.captureScreenshot: no PNG in the reply")
        }
        return [UInt8](data)
    }

    // MARK: Pointer input, as a mouse gives it (Chromium turns it into pointer events too).

    /// Presses the left button at `point` and releases it there.
    func click(at point: PagePoint) async throws {
        try await mouse("mouseMoved", at: point, buttons: 0)
        try await mouse("mousePressed", at: point, buttons: 1, button: "left", clickCount: 1)
        try await mouse("mouseReleased", at: point, buttons: 0, button: "left", clickCount: 1)
    }

    /// Presses the left button at `start`, moves in `steps` equal steps to `end` and releases
    /// there. With `duration` the events carry timestamps that far apart in total (each move
    /// `duration/steps` after the last, from now), so a page that reads the pointer's velocity
    /// sees a known one however fast the events were sent.
    func drag(from start: PagePoint, to end: PagePoint, steps: Int = 10, duration: Double? = nil) async throws {
        let steps = max(1, steps)
        let origin = Date().timeIntervalSince1970
        func stamp(_ step: Int) -> Double? { duration.map { origin + $0 * Double(step) / Double(steps) } }
        try await mouse("mouseMoved", at: start, buttons: 0, timestamp: stamp(0))
        try await mouse("mousePressed", at: start, buttons: 1, button: "left", clickCount: 1, timestamp: stamp(0))
        for step in 1...steps {
            let t = Double(step) / Double(steps)
            let point = PagePoint(x: start.x + (end.x - start.x) * t, y: start.y + (end.y - start.y) * t)
            try await mouse("mouseMoved", at: point, buttons: 1, button: "left", timestamp: stamp(step))
        }
        try await mouse("mouseReleased", at: end, buttons: 0, button: "left", clickCount: 1, timestamp: stamp(steps))
    }

    private func mouse(_ type: String, at point: PagePoint, buttons: Int, button: String = "none",
                       clickCount: Int = 0, timestamp: Double? = nil) async throws {
        var params: [String: JSONValue] = [
            "type": .string(type), "x": .number(point.x), "y": .number(point.y),
            "button": .string(button), "buttons": .number(Double(buttons)), "clickCount": .number(Double(clickCount)),
        ]
        if let timestamp { params["timestamp"] = .number(timestamp) }
        _ = try await send("Input.dispatchMouseEvent", params)
    }
}
