import ArgumentParser
import TrellisClient
import TrellisCore
import TrellisProtocol

/// `trellis dynamics add|update|rm|ls|item|rate NAME …`: a session's UIDynamicAnimator.
struct Dynamics: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Add, change, remove and list dynamic behaviours; read an element's dynamic state; set the step rate.",
        discussion: """
            Elements are item ids (i3, or item:ID), index paths and ranges as every command writes \
            them (0:3, 0:0..11: the items there now), all (every item), and bodies (body:panel, see \
            `trellis body`). Behaviour types: \(Choices.list(BehaviorBuilder.types)). Options set UIKit's \
            properties by type (--direction is gravity's gravityDirection, push's pushDirection); \
            --merge '{…}' and --set key=value reach every other key of the protocol.
            """,
        subcommands: [DynamicsAdd.self, DynamicsUpdate.self, DynamicsRemove.self, DynamicsList.self, DynamicsItem.self, DynamicsRate.self])
}

/// `trellis dynamics add NAME TYPE [ELEMENT…] [options]` (dynamics.add): prints the new id.
struct DynamicsAdd: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add a behaviour; prints its id.",
        discussion: """
            gravity i0 body:card --magnitude 2
            collision i0 i1 --bounds-boundary --mode everything --boundary floor:0,600,375,600
            attachment i0 --anchor 100,0 --frequency 1 --damping 0.3     (or: attachment i0 i1)
            snap i0 --to 187,400 --damping 0.5
            push i0 --mode instantaneous --angle 1.57 --magnitude 2
            item i0 --elasticity 0.6 --no-rotation --velocity 0,-800
            field i0 --kind spring --position 187,400 --region rect:375,400 --strength 20
            composite --merge '{"children": […]}'
            """)

    @OptionGroup var session: SessionArguments
    @Argument(help: ArgumentHelp("The behaviour: \(Choices.list(BehaviorBuilder.types)).", valueName: "type")) var type: String
    @Argument(help: ArgumentHelp("What it acts on: item ids, item:ID, index paths S:I, ranges S:I..J, all, body:NAME.", valueName: "element"))
    var elements: [String] = []
    @OptionGroup(title: "Behaviour") var options: BehaviorOptions

    func run() throws {
        let selections = try parsing { () throws(SyntaxError) in try elements.map(ElementSelection.parse) }
        // Checked with stand-ins first, so a script's dry run finds a wrong option without a server.
        _ = try parsing { () throws(SyntaxError) in
            try options.builder(type: type, elements: selections.flatMap(\.standIns), update: false).behavior()
        }
        try withServer(session.global, session: session.name) { c in
            let resolved = try ElementSelection.resolve(selections, session: session.name, with: c.caller)
            let behavior = try parsing { () throws(SyntaxError) in
                try options.builder(type: type, elements: resolved.map(\.argument), update: false).behavior()
            }
            c.emit(try c.call("dynamics.add", ["session": .string(session.name), "behavior": .object(behavior)])) { r in
                [Human.number(r["behavior"])]
            }
        }
    }
}

/// `trellis dynamics update NAME ID [ELEMENT…] [options]` (dynamics.update): merges the keys.
struct DynamicsUpdate: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "update",
        abstract: "Change a behaviour: the options given are merged into it (its type stays).",
        discussion: "Elements, when given, replace the behaviour's items. The options are those of `dynamics add` for the behaviour's type.")

    @OptionGroup var session: SessionArguments
    @Argument(help: "The behaviour's id.") var id: Int
    @Argument(help: ArgumentHelp("New items: item ids, item:ID, index paths S:I, ranges S:I..J, all, body:NAME.", valueName: "element"))
    var elements: [String] = []
    @OptionGroup(title: "Behaviour") var options: BehaviorOptions

    func run() throws {
        // The values' shapes are checked before anything is asked (a script's dry run finds
        // typos); which key an option sets needs the behaviour's type, which the server knows.
        let selections = try parsing { () throws(SyntaxError) in try elements.map(ElementSelection.parse) }
        _ = try parsing { () throws(SyntaxError) in
            try options.builder(type: "composite", elements: selections.flatMap(\.standIns), update: true).shapesChecked()
        }
        try withServer(session.global, session: session.name) { c in
            let elements = try ElementSelection.resolve(selections, session: session.name, with: c.caller).map(\.argument)
            let list = try c.call("dynamics.list", ["session": .string(session.name)])
            let type = list["behaviors"]?.arrayValue?.first { $0["behavior"]?.numberValue == Double(id) }?["type"]?.stringValue
            var params: [String: JSONValue] = ["session": .string(session.name), "behavior": .number(Double(id))]
            if let type {
                let keys = try parsing { () throws(SyntaxError) in try options.builder(type: type, elements: elements, update: true).behavior() }
                params.merge(keys) { old, _ in old }
            }
            // An unknown id goes to the server as it is, for the server's own refusal.
            c.emit(try c.call("dynamics.update", params)) { _ in [] }
        }
    }
}

/// `trellis dynamics rm NAME ID` (dynamics.remove): prints the elements it released.
struct DynamicsRemove: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rm",
        abstract: "Remove a behaviour; elements no behaviour acts on any more go back to their layout.")

    @OptionGroup var session: SessionArguments
    @Argument(help: "The behaviour's id.") var id: Int

    func run() throws {
        try session.call("dynamics.remove", ["behavior": .number(Double(id))]) { r in
            let released = (r["released"]?.arrayValue ?? []).map(Human.dynamicElement)
            return released.isEmpty ? [] : ["released: " + released.joined(separator: " ")]
        }
    }
}

/// `trellis dynamics ls NAME` (dynamics.list).
struct DynamicsList: ParsableCommand, OptionChecks {
    static let configuration = CommandConfiguration(
        commandName: "ls",
        abstract: "List a session's behaviours, whether its animator runs, and the dynamic elements.")

    @OptionGroup var session: SessionArguments
    @Option(help: ArgumentHelp("At most N entries of each list (1 to 20000; the server's default is 10000).", valueName: "N")) var limit: Int?
    @Option(help: ArgumentHelp("Skip the first N entries of each list (the next page starts at offset + limit).", valueName: "N")) var offset: Int?

    func checkOptions() throws {
        if let limit, !ParamRanges.queryLimit.contains(limit) {
            throw optionError("--limit must be from \(ParamRanges.queryLimit.lowerBound) to \(ParamRanges.queryLimit.upperBound), not \(limit)")
        }
        if let offset, offset < 0 { throw optionError("--offset must be 0 or more, not \(offset)") }
    }

    func run() throws {
        try checkOptions()
        var params: [String: JSONValue] = [:]
        if let limit { params["limit"] = .number(Double(limit)) }
        if let offset { params["offset"] = .number(Double(offset)) }
        try session.call("dynamics.list", params, human: Human.behaviors)
    }
}

/// `trellis dynamics item NAME ELEMENT` (dynamics.item).
struct DynamicsItem: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "item",
        abstract: "An element's dynamic state: centre, size, angle, velocity, angular velocity.")

    @OptionGroup var session: SessionArguments
    @Argument(help: ArgumentHelp("An item id, item:ID, an index path S:I or body:NAME.", valueName: "element")) var element: String

    func run() throws {
        let selection = try parsing { () throws(SyntaxError) in
            let selection = try ElementSelection.parse(element)
            guard selection.standIns.count == 1, selection != .all else { throw SyntaxError("'\(element)': dynamics item reads one element") }
            return selection
        }
        try withServer(session.global, session: session.name) { c in
            guard let e = try ElementSelection.resolve([selection], session: session.name, with: c.caller).first else { return }
            c.emit(try c.call("dynamics.item", ["session": .string(session.name), "element": e.wire]), Human.dynamicState)
        }
    }
}

/// `trellis dynamics rate NAME [HZ]` (dynamics.setStepRate; without HZ, dynamics.list's rate).
struct DynamicsRate: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rate",
        abstract: "Set how many steps a second the animator takes: \(ParamRanges.dynamicsStepRatesText); without HZ, print it.",
        discussion: """
            60 Hz by default, as UIKit Dynamics; 120 and 240 solve contacts and joints more finely. \
            The time not yet simulated is kept across the change. `trellis new NAME --step-rate HZ` \
            chooses it at creation.
            """)

    @OptionGroup var session: SessionArguments
    @Argument(help: ArgumentHelp("Steps per second: \(ParamRanges.dynamicsStepRatesText).", valueName: "hz")) var rate: Int?

    func run() throws {
        guard let rate else {
            try session.call("dynamics.list") { r in ["\(Human.number(r["stepRate"])) Hz"] }
            return
        }
        let checked = try checkedStepRate(rate)
        try session.call("dynamics.setStepRate", ["rate": .number(Double(checked))]) { r in ["\(Human.number(r["stepRate"])) Hz"] }
    }
}

/// `rate` when it is one of the animator's step rates; else refused as the server would refuse
/// it (exit 65, `invalid_params` to a script's expect-error), before anything is sent.
func checkedStepRate(_ rate: Int) throws -> Int {
    try checkingRanges { () throws(RangeError) in
        guard ParamRanges.dynamicsStepRates.contains(rate) else {
            throw RangeError("step rate \(rate): expected \(ParamRanges.dynamicsStepRatesText) (steps per second)")
        }
        return rate
    }
}
