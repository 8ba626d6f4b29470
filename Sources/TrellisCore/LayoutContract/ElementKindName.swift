import Synchronization

/// The name of a supplementary or decoration kind ("header", "footer", "background", …),
/// interned: the number of its name in a process-wide table. Element ids, attributes and scene
/// views carry a kind, and a String in it made every copy of them go through reference counting
/// and an outlined enum copy, for every view of every frame; a number copies as plain bytes.
/// Equal names are equal kinds; order and text are the name's.
public struct ElementKindName: Hashable, Sendable, Comparable, ExpressibleByStringLiteral, CustomStringConvertible {
    @usableFromInline let number: UInt32

    public init(_ name: String) { number = Self.table.number(of: name) }
    public init(stringLiteral name: String) { self.init(name) }

    /// The name itself.
    public var rawValue: String { Self.table.name(of: number) }
    public var description: String { rawValue }

    public static func < (a: ElementKindName, b: ElementKindName) -> Bool {
        a.number != b.number && a.rawValue < b.rawValue
    }

    /// Every name seen, in the order first seen. Kinds come from layouts (a handful), so the
    /// table stays small.
    private static let table = NameTable()

    private final class NameTable: Sendable {
        // Locked although one engine is single-threaded: the table is process-wide, shared by
        // every session's engine, on whatever thread each runs (Swift 6 refuses it unlocked).
        private let state = Mutex<(names: [String], numbers: [String: UInt32])>(([], [:]))

        func number(of name: String) -> UInt32 {
            state.withLock { state in
                if let n = state.numbers[name] { return n }
                let n = UInt32(state.names.count)
                state.names.append(name)
                state.numbers[name] = n
                return n
            }
        }

        func name(of number: UInt32) -> String {
            state.withLock { $0.names[Int(number)] }
        }
    }
}
