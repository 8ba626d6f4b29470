// MARK: Protocol parameters (LayoutRegistry)

extension CompositionalLayout: RegisteredLayout {
    public static var typeName: String { "compositional" }

    public init() { self.init(CompositionalDescription(sections: [])) }

    /// The configuration's two values, the section tree, the provider's rule and the list preset.
    public static var parameters: [LayoutParameter<CompositionalLayout>] {
        [
            .choice("scrollDirection", \.layoutDescription.configuration.scrollDirection, "vertical (UIKit's default) or horizontal."),
            .number("interSectionSpacing", \.layoutDescription.configuration.interSectionSpacing, 0...layoutLengthLimit,
                    "Between sections (UIKit: 0)."),
            LayoutParameter(ParameterDescription("sections", .compositionalSections,
                                                 "The section descriptions (items, groups, insets, spacing, headers, badges, backgrounds)."),
                            get: { $0.layoutDescription.sections.isEmpty ? nil : .compositionalSections($0.layoutDescription.sections) },
                            set: { if case .compositionalSections(let v) = $1 { $0.layoutDescription.sections = v } }),
            LayoutParameter(ParameterDescription("provider", .compositionalRule,
                                                 "Which description each data section uses: by index (default), cycling, or by the section's identifier."),
                            get: { .compositionalRule($0.layoutDescription.rule) },
                            set: { if case .compositionalRule(let v) = $1 { $0.layoutDescription.rule = v } }),
            LayoutParameter(ParameterDescription("list", .compositionalList,
                                                 "A list preset (appearance, headerMode, footerMode, rowHeight) instead of sections."),
                            get: { $0.list.map(ParameterValue.compositionalList) },
                            set: { if case .compositionalList(let v) = $1 { $0.list = v } }),
        ]
    }

    /// A list preset and sections together, or a provider naming a description that is not there.
    public func parameterConflict() -> ParameterConflict? {
        if list != nil, !layoutDescription.sections.isEmpty {
            return ParameterConflict(path: "list", expected: "either \"list\" or \"sections\", not both", found: "both")
        }
        let sections = effectiveDescription.sections
        let names = Set(sections.compactMap(\.name))
        if case .byIdentifier(let map, let fallback) = layoutDescription.rule {
            for id in map.keys.sorted() where !names.contains(map[id]!) {
                return ParameterConflict(path: "provider.map.\(id)", expected: "the name of a section description (\(Self.nameList(names)))",
                                         found: "\"\(map[id]!)\"")
            }
            if let fallback, !names.contains(fallback) {
                return ParameterConflict(path: "provider.fallback", expected: "the name of a section description (\(Self.nameList(names)))",
                                         found: "\"\(fallback)\"")
            }
        }
        return nil
    }

    private static func nameList(_ names: Set<String>) -> String {
        names.isEmpty ? "none is named" : names.sorted().map { "\"\($0)\"" }.joined(separator: ", ")
    }
}
