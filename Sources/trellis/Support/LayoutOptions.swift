import ArgumentParser
import Foundation
import TrellisClient
import TrellisCore
import TrellisProtocol

/// Layout metrics shared by `new` and `layout`.
struct LayoutOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Item size WIDTHxHEIGHT (flow default 50x50, circle 70x70).", valueName: "WxH"))
    var itemSize: String?

    @Option(help: "Flow: line and inter-item spacing at once.")
    var spacing: Double?

    @Option(help: "Flow: minimum line spacing (default 10).")
    var lineSpacing: Double?

    @Option(help: "Flow: minimum inter-item spacing (default 10).")
    var interitemSpacing: Double?

    @Option(help: ArgumentHelp("Flow: section insets TOP,LEFT,BOTTOM,RIGHT or one number.", valueName: "insets"))
    var sectionInset: String?

    @Option(help: ArgumentHelp("Flow: header size WIDTHxHEIGHT.", valueName: "WxH"))
    var headerSize: String?

    @Option(help: ArgumentHelp("Flow: footer size WIDTHxHEIGHT.", valueName: "WxH"))
    var footerSize: String?

    @Option(help: "Flow: vertical (default) or horizontal.")
    var direction: String?

    @Option(help: "Circle: the radius (default: from the bounds).")
    var radius: Double?

    /// The protocol's layout object for `type`.
    func spec(type: String) throws -> JSONValue {
        var spec: [String: JSONValue] = ["type": .string(type)]
        if let itemSize {
            let size = try parsing { () throws(SyntaxError) in try CommandSyntax.size(itemSize) }
            spec["itemSize"] = .array([.number(size.width), .number(size.height)])
        }
        switch type {
        case "flow":
            if radius != nil { throw usageError("--radius applies to the circle layout only") }
            if let spacing { spec["minimumLineSpacing"] = .number(spacing); spec["minimumInteritemSpacing"] = .number(spacing) }
            if let lineSpacing { spec["minimumLineSpacing"] = .number(lineSpacing) }
            if let interitemSpacing { spec["minimumInteritemSpacing"] = .number(interitemSpacing) }
            if let sectionInset {
                let i = try parsing { () throws(SyntaxError) in try CommandSyntax.insets(sectionInset) }
                spec["sectionInset"] = .array([i.top, i.left, i.bottom, i.right].map { .number($0) })
            }
            for (key, value) in [("headerSize", headerSize), ("footerSize", footerSize)] {
                guard let value else { continue }
                let size = try parsing { () throws(SyntaxError) in try CommandSyntax.size(value) }
                spec[key] = .array([.number(size.width), .number(size.height)])
            }
            if let direction { spec["scrollDirection"] = .string(direction) }
        case "circle":
            let flowOnly = [spacing.map { _ in "--spacing" }, lineSpacing.map { _ in "--line-spacing" },
                            interitemSpacing.map { _ in "--interitem-spacing" }, sectionInset.map { _ in "--section-inset" },
                            headerSize.map { _ in "--header-size" }, footerSize.map { _ in "--footer-size" },
                            direction.map { _ in "--direction" }].compactMap { $0 }
            if let first = flowOnly.first { throw usageError("\(first) applies to the flow layout only") }
            if let radius { spec["radius"] = .number(radius) }
        default:
            throw usageError("'\(type)': expected a layout, flow or circle")
        }
        return .object(spec)
    }
}
