/// Where each section after a batch comes from: inserted sections and move destinations take the
/// indices the batch names, and the remaining old sections fill the free indices in their old
/// order (a reloaded section is one of those: UIKit deletes it and inserts it again where it
/// would have stayed).
///
/// The validator needs this before it has checked the section moves (the insert checks ask for
/// the item counts after the update, and a reloaded section's new index), so it never fails:
/// operations that do not fit are skipped and indices that stay free are `.unfilled`. Once the
/// whole batch is valid, every old section that survives has exactly one new index.
struct SectionPlacement: Hashable, Sendable {
    enum Source: Hashable, Sendable {
        /// Inserted by insertSections.
        case inserted
        /// An old section that kept its place relative to the other survivors.
        case survivor(Int)
        /// An old section placed by moveSection.
        case moved(Int)
        /// An old section that was reloaded (deleted and inserted, for UIKit).
        case reloaded(Int)
        /// Nothing lands here: only when the operations are inconsistent.
        case unfilled

        /// The old section whose items continue here (survivors and moved sections).
        var continuedSection: Int? {
            switch self {
            case .survivor(let old), .moved(let old): return old
            case .inserted, .reloaded, .unfilled: return nil
            }
        }
    }

    /// By new section index.
    private(set) var sources: [Source]
    /// By old section index: the new index, nil when the section is deleted (or left out).
    private(set) var newIndex: [Int?]

    init(oldCount: Int, newCount: Int, inserted: [Int], deleted: Set<Int>, reloaded: Set<Int>,
         moves: [(from: Int, to: Int)]) {
        var sources = [Source](repeating: .unfilled, count: max(newCount, 0))
        var newIndex = [Int?](repeating: nil, count: oldCount)
        for section in inserted where sources.indices.contains(section) && sources[section] == .unfilled {
            sources[section] = .inserted
        }
        var moved = [Bool](repeating: false, count: oldCount)
        for move in moves {
            guard (0..<oldCount).contains(move.from), !moved[move.from], !deleted.contains(move.from),
                  !reloaded.contains(move.from), sources.indices.contains(move.to),
                  sources[move.to] == .unfilled else { continue }
            sources[move.to] = .moved(move.from)
            newIndex[move.from] = move.to
            moved[move.from] = true
        }
        var free = 0
        for old in 0..<oldCount where !moved[old] && !deleted.contains(old) {
            while free < sources.count && sources[free] != .unfilled { free += 1 }
            guard free < sources.count else { break }
            sources[free] = reloaded.contains(old) ? .reloaded(old) : .survivor(old)
            newIndex[old] = free
            free += 1
        }
        self.sources = sources
        self.newIndex = newIndex
    }
}
