/// A whole compositional layout as data: the configuration, the section descriptions and the
/// rule that picks one per data section. What the protocol decodes and state snapshots keep.
public struct CompositionalDescription: Hashable, Sendable {
    public var configuration: CompositionalConfiguration
    /// At least one.
    public var sections: [CompositionalSection]
    public var rule: CompositionalSectionRule

    public init(configuration: CompositionalConfiguration = CompositionalConfiguration(), sections: [CompositionalSection],
                rule: CompositionalSectionRule = .byIndex) {
        self.configuration = configuration; self.sections = sections; self.rule = rule
    }

    /// UIKit's list(using: .plain): the default before anything is set.
    public static let standard = CompositionalListConfiguration(appearance: .plain).description
}
