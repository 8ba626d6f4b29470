import ArgumentParser
import TrellisClient
import TrellisCore
import TrellisServer
import TrellisProtocol

/// `trellis batch NAME --delete 0:3 --insert 0:0=id1 …`: one performBatchUpdates call.
struct Batch: ParsableCommand, OptionChecks {
    static let configuration = CommandConfiguration(
        abstract: "Perform a batch update: any mix of item and section operations, validated as UIKit does.",
        discussion: """
            Each option may repeat. Index paths are section:item; ranges section:first..last are \
            inclusive. Items inserted without '=id' get generated ids (<prefix>0, <prefix>1, …; \
            the prefix is random unless --id-prefix is given) with the id as data.label. Items \
            inserted into a section this batch inserts arrive inside it, as UIKit counts them \
            (--insert-section 1 --insert 1:0..3: a new section of four items); they must fill it \
            from item 0 without a gap. A refused batch prints UIKit's message to stderr and exits \
            65; nothing changes.
            """)

    @OptionGroup var session: SessionArguments
    @Option(name: .customLong("delete"), help: ArgumentHelp("Delete items: S:I or S:I..J.", valueName: "path")) var deletes: [String] = []
    @Option(name: .customLong("insert"), help: ArgumentHelp("Insert an item: S:I=id, or S:I / S:I..J with generated ids.", valueName: "path[=id]")) var inserts: [String] = []
    @Option(name: .customLong("move"), help: ArgumentHelp("Move an item: S:I:S:I (from, to).", valueName: "from:to")) var moves: [String] = []
    @Option(name: .customLong("reload"), help: ArgumentHelp("Reload items: S:I or S:I..J.", valueName: "path")) var reloads: [String] = []
    @Option(name: .customLong("insert-section"), help: ArgumentHelp("Insert a section: N or N=id; it holds the --insert items aimed at it.", valueName: "index[=id]")) var insertSections: [String] = []
    @Option(name: .customLong("delete-section"), help: ArgumentHelp("Delete a section.", valueName: "index")) var deleteSections: [String] = []
    @Option(name: .customLong("move-section"), help: ArgumentHelp("Move a section: FROM:TO.", valueName: "from:to")) var moveSections: [String] = []
    @Option(name: .customLong("reload-section"), help: ArgumentHelp("Reload a section.", valueName: "index")) var reloadSections: [String] = []
    @Option(help: "The prefix of generated ids (deterministic ids for scripts).") var idPrefix: String?
    // The data source after the update, as UIKit's numberOfItemsInSection answers once the
    // batch runs: its count checks run against it, which is how the classic "invalid number
    // of items" crash is reproduced (and tested in scripts).
    @Option(help: ArgumentHelp("The data after the update, generated as reload --items (UIKit's count checks use it).", valueName: "N")) var afterItems: String?
    @Option(help: ArgumentHelp("The data after the update from a JSON file, as reload --file.", valueName: "path")) var afterFile: String?
    @Option(help: "How the reply (--json) lists where items went: ranges ([old,new,count] runs) or items (one [old,new] pair each).") var mapping: MappingForm?
    @OptionGroup(title: "Animation") var animation: AnimationOptions

    func checkOptions() throws {
        if afterItems != nil && afterFile != nil { throw optionError("give at most one of --after-items or --after-file") }
    }

    func run() throws {
        try checkOptions()
        var builder = BatchBuilder(idPrefix: GeneratedData.idPrefix(idPrefix))
        try parsing { () throws(SyntaxError) in
            for s in deleteSections { try builder.deleteSection(s) }
            for s in deletes { try builder.delete(s) }
            for s in reloadSections { try builder.reloadSection(s) }
            for s in reloads { try builder.reload(s) }
            for s in moveSections { try builder.moveSection(s) }
            for s in moves { try builder.move(s) }
            for s in insertSections { try builder.insertSection(s) }
            for s in inserts { try builder.insert(s) }
        }
        guard !builder.isEmpty else { throw optionError("no operations: give at least one of --delete, --insert, --move, --reload, --insert-section, --delete-section, --move-section, --reload-section") }
        var after: JSONValue?
        if let afterItems {
            after = GeneratedData.sections(counts: try parsing { () throws(SyntaxError) in try CommandSyntax.counts(afterItems) })
        } else if let afterFile {
            let value = try readJSONFile(afterFile)
            after = try parsing { () throws(SyntaxError) in try GeneratedData.sections(fromFile: value) }
        }
        try performBatch(session, builder: builder, animation: animation, sectionsAfter: after, mapping: mapping)
    }
}

/// `--mapping`: the form of the reply's `mapping` (PROTOCOL.md, "Update results").
extension MappingForm: ExpressibleByArgument {}

/// Sends a built batch and prints the update (shared by batch, insert, delete and move).
func performBatch(_ session: SessionArguments, builder: BatchBuilder, animation: AnimationOptions, sectionsAfter: JSONValue? = nil,
                  mapping: MappingForm? = nil) throws {
    var params = try animation.params()
    if let sectionsAfter { params["sections"] = sectionsAfter }
    if let mapping { params["mapping"] = .string(mapping.rawValue) }
    do {
        params["ops"] = .array(try builder.operations())
    } catch {
        throw refuse(RPCError.from(error), json: session.global.json)
    }
    try session.call("batch", params, human: Human.update)
}
