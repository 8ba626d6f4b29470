import ArgumentParser
import TrellisClient
import TrellisCore
import TrellisProtocol

/// `trellis apply NAME --file F`: diffs a snapshot against the data and animates the difference.
struct Apply: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Apply a data snapshot: the server diffs it and animates the changes.",
        discussion: "The file has the same forms as reload --file; - reads stdin.")

    @OptionGroup var session: SessionArguments
    @Option(help: ArgumentHelp("A JSON snapshot file (- for stdin).", valueName: "path")) var file: String
    @Option(help: "How the reply (--json) lists where items went: ranges ([old,new,count] runs) or items (one [old,new] pair each).") var mapping: MappingForm?
    @OptionGroup(title: "Animation") var animation: AnimationOptions

    func run() throws {
        var params = try animation.params()
        let value = try readJSONFile(file)
        params["sections"] = try parsing { () throws(SyntaxError) in try GeneratedData.sections(fromFile: value) }
        if let mapping { params["mapping"] = .string(mapping.rawValue) }
        try session.call("data.apply", params, human: Human.update)
    }
}
