import ArgumentParser
import TrellisClient
import TrellisCore
import TrellisProtocol

/// `trellis plot NAME [ELEMENT…] --property P… --to T`: properties against time, as a chart
/// (SVG) or numbers (CSV), from a copy of the session so the session itself never moves.
struct Plot: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Plot elements' motion or the scroll against time (SVG chart, CSV numbers).",
        discussion: """
            Copies the session as it is now onto a manual clock (session.fork), steps the copy \
            from --from to --to every --every seconds (clock.advance), reads the properties at \
            each step (dynamics.item for an element, the scroll state for offset and \
            scroll.velocity), then destroys the copy: the session itself, live or manual, does \
            not move and its viewers see nothing. Time 0 is the session's time now.

            Properties: \(PlotProperty.vocabulary). An element's velocity is the animator's \
            while a behaviour moves it, else the rate of change of its centre between samples \
            (an animation's). Series of one unit share a panel; the panels stack over one time \
            axis; values grow upwards (so center.y rises as an item falls).

            Times are seconds (0.5, 500ms, 0.5s, or a fraction such as 1/60). At most \
            \(PlotRequest.maximumSamples) samples, 3600 s, and a step of at least 1ms. With \
            neither --svg nor --csv the CSV goes to standard output. Exit 73 when a file cannot \
            be written.
            """)

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The session's name.") var name: String
    @Argument(help: "The elements: item ids, or body:NAME (none for offset and scroll.velocity only).") var elements: [String] = []
    @Option(name: .long, help: ArgumentHelp("What to draw (repeat for several): \(PlotProperty.vocabulary).", valueName: "property"))
    var property: [String] = []
    @Option(help: ArgumentHelp("Start, seconds from now.", valueName: "seconds")) var from = "0"
    @Option(help: ArgumentHelp("End, seconds from now.", valueName: "seconds")) var to: String
    @Option(help: ArgumentHelp("Time between samples: 1/60 (default), 10ms, 0.05.", valueName: "seconds")) var every = "1/60"
    @Option(help: ArgumentHelp("Write the chart as SVG ('-' for standard output).", valueName: "file")) var svg: String?
    @Option(help: ArgumentHelp("Write the numbers as CSV ('-' for standard output).", valueName: "file")) var csv: String?
    @Option(help: ArgumentHelp("The chart's title (default: the session's name and what is drawn).", valueName: "text")) var title: String?

    func run() throws {
        let request = try parsing { () throws(SyntaxError) in
            var parsedElements: [DynamicElement] = [], properties: [PlotProperty] = []
            for e in elements { parsedElements.append(try DynamicElement.parse(e)) }
            for p in property { properties += try PlotProperty.parse(p) }
            return try PlotRequest(elements: parsedElements, properties: properties,
                                   from: try Self.seconds(from), to: try Self.seconds(to), every: try Self.seconds(every))
        }
        guard svg != "-" || csv != "-" else {
            printError("trellis: --svg - and --csv - cannot both go to standard output; write one of them to a file")
            throw ExitCode(Exit.usage)
        }
        try withServer(global, session: name) { c in
            let progress = ProgressLine()
            defer { progress.clear() }
            let series = try PlotSampler(caller: c.caller, session: name).sample(request) { done, total in
                progress.update("plot \(name): \(done) of \(total) samples")
            }
            progress.clear()
            let heading = title ?? "\(name): " + distinctInOrder(series.map(\.property.rawValue)).joined(separator: ", ")
            if let svg { try writeFile(PlotChart(title: heading, series: series).render(), to: svg) }
            if let csv { try writeFile(PlotCSV.text(series), to: csv) }
            if svg == nil && csv == nil { try writeFile(PlotCSV.text(series), to: "-") }
            for (path, kind) in [(svg, "chart"), (csv, "numbers")] {
                guard let path, path != "-" else { continue }
                let samples = series.first?.times.count ?? 0
                let summary: JSONValue = .object(["file": .string(path), "series": .number(Double(series.count)),
                                                   "samples": .number(Double(samples))])
                c.emit(summary) { _ in ["\(path): \(kind) of \(series.count) series, \(samples) samples each"] }
            }
        }
    }

    /// Seconds as the options take them: `CommandSyntax.seconds`, or a fraction `A/B`.
    static func seconds(_ text: String) throws(SyntaxError) -> Double {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return try CommandSyntax.seconds(text) }
        guard let a = Double(String(parts[0])), let b = Double(String(parts[1])),
              a.isFinite, b.isFinite, a >= 0, b > 0 else {
            throw SyntaxError("'\(text)': expected seconds such as 0.5, 500ms or a fraction such as 1/60")
        }
        return a / b
    }
}

/// The distinct strings of `strings`, in first-appearance order.
private func distinctInOrder(_ strings: [String]) -> [String] {
    var seen = Set<String>()
    return strings.filter { seen.insert($0).inserted }
}
