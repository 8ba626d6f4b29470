import TrellisCore

/// The layout registry's words as the CLI's help and checks use them (layout names, the values
/// of a choice, which layouts take a key), so neither can drift from the layouts: a layout, a
/// carousel style or a key added to its layout's declarations shows up in `--help` at once.
public enum LayoutVocabulary {
    /// `flow, circle, … or springy`.
    public static var names: String { Choices.list(LayoutRegistry.names) }

    /// The values of the choice parameter `parameter` (`style` → the carousel styles), as the
    /// first layout that declares it lists them; empty when none does.
    public static func choices(of parameter: String) -> [String] {
        for layout in declared {
            if let names = layout.choices[parameter] { return names }
        }
        return []
    }

    /// The layouts that take every one of `parameters`, in registry order.
    public static func owners(of parameters: [String]) -> [String] {
        declared.filter { layout in parameters.allSatisfy(layout.keys.contains) }.map(\.type)
    }

    /// Each layout's keys and choices, read once: option help is built each time a command is
    /// parsed, and `trellis run` parses every line of a script (a third of its time went here).
    private static let declared: [(type: String, keys: Set<String>, choices: [String: [String]])] =
        LayoutRegistry.all.map { layout in
            var choices: [String: [String]] = [:]
            for description in layout.parameterDescriptions {
                if case .choice(let names) = description.kind, choices[description.name] == nil { choices[description.name] = names }
            }
            return (layout.typeName, Set(layout.parameterDescriptions.map(\.name)), choices)
        }

    /// Help for a flag that sets `parameters`, led by the layouts that take them, named as the
    /// protocol names them: `flow, line, springy: minimum line spacing (default 10).`
    public static func help(_ parameters: [String], _ text: String) -> String {
        owners(of: parameters).joined(separator: ", ") + ": " + text
    }
}
