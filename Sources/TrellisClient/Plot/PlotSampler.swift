import TrellisCore
import TrellisProtocol

/// One line of a plot: what it shows and its samples, in time order.
public struct PlotSeries: Sendable, Equatable {
    /// The element it follows (nil for the session's scroll).
    public var element: DynamicElement?
    public var property: PlotProperty
    /// Seconds after the plot's start (the session's time when it was copied).
    public var times: [Double] = []
    public var values: [Double] = []

    public init(element: DynamicElement?, property: PlotProperty) {
        self.element = element
        self.property = property
    }

    /// `i3 center.y`, or `offset.y` for the scroll's.
    public var label: String { element.map { "\($0.argument) \(property.rawValue)" } ?? property.rawValue }
}

/// What to sample and when: the plot's request, checked before anything is sent.
public struct PlotRequest: Sendable {
    public var elements: [DynamicElement]
    public var properties: [PlotProperty]
    /// Seconds after the start, `from` < `to`, sampled every `every` seconds (the last sample
    /// is at `to` even when the step does not divide the span).
    public var from: Double, to: Double, every: Double

    /// The most samples a plot takes (each is a clock step and a few calls), and the longest
    /// span it simulates: a plot is bounded work, as every request is.
    public static let maximumSamples = 100_000
    public static let maximumSeconds = 3600.0
    /// The finest step: a millisecond (the protocol's clock is in milliseconds).
    public static let minimumStep = 0.001

    public init(elements: [DynamicElement], properties: [PlotProperty], from: Double, to: Double, every: Double) throws(SyntaxError) {
        guard !properties.isEmpty else { throw SyntaxError("give at least one --property: \(PlotProperty.vocabulary)") }
        let needsElements = properties.contains(where: \.isElements)
        if needsElements && elements.isEmpty {
            throw SyntaxError("\(properties.filter(\.isElements).map(\.rawValue).joined(separator: ", ")) is an element's property: name the element (an item id or body:NAME)")
        }
        guard from.isFinite, to.isFinite, from >= 0, to <= Self.maximumSeconds, from < to else {
            throw SyntaxError("--from and --to must satisfy 0 ≤ from < to ≤ \(Int(Self.maximumSeconds)) s (found \(HumanNumber.format(from)) and \(HumanNumber.format(to)))")
        }
        guard every.isFinite, every >= Self.minimumStep else {
            throw SyntaxError("--every must be at least 1ms (found \(HumanNumber.format(every * 1000))ms)")
        }
        let samples = Double(Self.steps(from: from, to: to, every: every)) + 1
        guard samples <= Double(Self.maximumSamples) else {
            throw SyntaxError("\(HumanNumber.format(samples)) samples (from \(HumanNumber.format(from)) s to \(HumanNumber.format(to)) s every \(HumanNumber.format(every)) s) is more than \(Self.maximumSamples): sample less often or a shorter span")
        }
        self.elements = elements
        self.properties = properties
        self.from = from
        self.to = to
        self.every = every
    }

    /// The sample times, seconds after the start.
    public var times: [Double] {
        // Each time from the start, not by adding steps up, so no rounding drift builds; to the
        // nanosecond, so 3 × 0.05 reads 0.15 (the clock takes milliseconds).
        (0...Self.steps(from: from, to: to, every: every)).map { min(to, ((from + Double($0) * every) * 1e9).rounded() / 1e9) }
    }

    /// Whole steps from `from` to `to`, one more for a remainder (a span of 0.5 s in steps of
    /// 1/60 s is 30 steps, though the quotient reads 30.000000000000004).
    static func steps(from: Double, to: Double, every: Double) -> Int {
        let quotient = (to - from) / every
        guard quotient < Double(Int.max / 2) else { return Int.max / 2 }
        return Int((quotient - 1e-9).rounded(.up))
    }
}

/// Samples a session's properties over time without disturbing it: it forks the session onto
/// a manual clock (`session.fork`), steps the copy with `clock.advance`, reads each sample
/// (`dynamics.item`, `session.info`), and destroys the copy, whatever happens.
public struct PlotSampler {
    public let caller: any MethodCaller
    public let session: String

    public init(caller: any MethodCaller, session: String) {
        self.caller = caller
        self.session = session
    }

    /// The series of `request`, one per element and property of an element, then one per
    /// property of the scroll. `progress` hears how many samples are taken.
    public func sample(_ request: PlotRequest, progress: (Int, Int) -> Void = { _, _ in }) throws(ClientError) -> [PlotSeries] {
        let copy = Self.copyName(of: session)
        _ = try caller.call("session.fork", ["session": .string(session), "name": .string(copy), "clock": .string("manual")])
        defer { _ = try? caller.call("session.destroy", ["session": .string(copy)]) }

        let elementProperties = request.properties.filter(\.isElements)
        let scrollProperties = request.properties.filter { !$0.isElements }
        var series: [PlotSeries] = []
        for element in request.elements { for property in elementProperties { series.append(PlotSeries(element: element, property: property)) } }
        for property in scrollProperties { series.append(PlotSeries(element: nil, property: property)) }
        // Whether each element was moved by the animator at each sample (its velocity is then
        // the animator's), and its centre (else the velocity is the centre's rate of change).
        var dynamic = [[Bool]](repeating: [], count: request.elements.count)
        var centres = [[Point]](repeating: [], count: request.elements.count)

        let times = request.times
        var elapsed = 0.0
        for (n, time) in times.enumerated() {
            let step = (time - elapsed) * 1000
            if step > 0 {
                _ = try caller.call("clock.advance", ["session": .string(copy), "ms": .number(step)])
                elapsed = time
            }
            var k = 0
            // The next series' sample: a finite number, or the server's fault.
            func append(_ value: Double?, _ what: @autoclosure () -> String) throws(ClientError) {
                guard let value, value.isFinite else { throw .badReply(what()) }
                series[k].times.append(time)
                series[k].values.append(value)
                k += 1
            }
            if !elementProperties.isEmpty {
                for (e, element) in request.elements.enumerated() {
                    let item = try caller.call("dynamics.item", ["session": .string(copy), "element": element.wire])
                    dynamic[e].append(item["dynamic"] == .bool(true))
                    centres[e].append(Point(PlotProperty.centerX.value(ofItem: item) ?? 0, PlotProperty.centerY.value(ofItem: item) ?? 0))
                    for property in elementProperties {
                        try append(property.value(ofItem: item), "dynamics.item: no finite \(property.rawValue) for \(element.argument)")
                    }
                }
            }
            if !scrollProperties.isEmpty {
                let info = try caller.call("session.info", ["session": .string(copy)])
                guard let scroll = info["scroll"] else { throw .badReply("session.info: no scroll state") }
                for property in scrollProperties {
                    try append(property.value(ofScroll: scroll), "session.info: no finite \(property.rawValue) in the scroll state")
                }
            }
            progress(n + 1, times.count)
        }
        Self.differentiate(&series, elements: request.elements, dynamic: dynamic, centres: centres, times: times)
        return series
    }

    /// An element no behaviour moves has no velocity in the animator (it reads 0), yet an
    /// animation may move it: its velocity is then the rate of change of its centre, by central
    /// differences between samples (one-sided at the ends).
    static func differentiate(_ series: inout [PlotSeries], elements: [DynamicElement], dynamic: [[Bool]], centres: [[Point]], times: [Double]) {
        guard times.count > 1 else { return }
        for k in series.indices {
            guard let element = series[k].element, let e = elements.firstIndex(of: element) else { continue }
            let property = series[k].property
            guard [.velocityX, .velocityY, .speed].contains(property) else { continue }
            for n in times.indices where !dynamic[e][n] {
                let a = max(0, n - 1), b = min(times.count - 1, n + 1)
                let dt = times[b] - times[a]
                guard dt > 0 else { continue }
                let vx = (centres[e][b].x - centres[e][a].x) / dt, vy = (centres[e][b].y - centres[e][a].y) / dt
                switch property {
                case .velocityX: series[k].values[n] = vx
                case .velocityY: series[k].values[n] = vy
                default: series[k].values[n] = (vx * vx + vy * vy).squareRoot()
                }
            }
        }
    }

    /// A name no one else uses, derived from the session's (kept within the 128-character limit).
    static func copyName(of session: String) -> String {
        let alphabet = Array("0123456789abcdefghijklmnopqrstuvwxyz")
        let suffix = ".plot-" + String((0..<6).map { _ in alphabet[Int.random(in: 0..<alphabet.count)] })
        return String(session.prefix(128 - suffix.count)) + suffix
    }
}
