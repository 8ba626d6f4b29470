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
        for layout in LayoutRegistry.all {
            for description in layout.parameterDescriptions where description.name == parameter {
                if case .choice(let names) = description.kind { return names }
            }
        }
        return []
    }

    /// The layouts that take every one of `parameters`, in registry order.
    public static func owners(of parameters: [String]) -> [String] {
        LayoutRegistry.all.filter { layout in
            parameters.allSatisfy { name in layout.parameterDescriptions.contains { $0.name == name } }
        }.map { $0.typeName }
    }

    /// Help for a flag that sets `parameters`, led by the layouts that take them, named as the
    /// protocol names them: `flow, line, springy: minimum line spacing (default 10).`
    public static func help(_ parameters: [String], _ text: String) -> String {
        owners(of: parameters).joined(separator: ", ") + ": " + text
    }
}
