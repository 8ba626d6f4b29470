import TrellisCore

/// Builds a layout from its protocol object (`{"type": "flow", …}`) through the layout
/// registry: the type names a `RegisteredLayout`, every other key one of its parameters, each
/// checked against its kind and range; missing keys keep the layout's defaults. Unknown types,
/// unknown keys, wrong types and values out of range are refused by key path.
public enum LayoutSpec {
    public static func layout(_ value: JSONValue, path: String = "params.layout") throws(ParamError) -> any Layout {
        let type = try value.requireString("type", in: path)
        guard let layoutType = LayoutRegistry.type(named: type) else {
            let names = LayoutRegistry.names.map { "\"\($0)\"" }.joined(separator: ", ")
            throw ParamError(path: "\(path).type", .mismatch(expected: "one of \(names)", found: "\"\(type)\""))
        }
        return try build(layoutType, from: value, path: path)
    }

    static func build<L: RegisteredLayout>(_: L.Type, from value: JSONValue, path: String) throws(ParamError) -> L {
        try value.rejectUnknownKeys(allowed: ["type"] + L.parameters.map(\.description.name), path: path)
        var layout = L()
        for parameter in L.parameters {
            guard let field = value.field(parameter.description.name) else { continue }
            parameter.set(&layout, try LayoutParameterCoding.value(field, of: parameter.description,
                                                                   path: "\(path).\(parameter.description.name)"))
        }
        if let conflict = layout.parameterConflict() {
            throw ParamError(path: "\(path).\(conflict.path)", .mismatch(expected: conflict.expected, found: conflict.found))
        }
        return layout
    }
}
