import TrellisCore

extension UpdateErrorDetail {
    /// The detail as it goes on the wire: numbers, `{"section": s, "item": i}`, strings, arrays.
    public var json: JSONValue {
        switch self {
        case .int(let value): .number(Double(value))
        case .indexPath(let path): .object(["section": .number(Double(path.section)), "item": .number(Double(path.item))])
        case .string(let text): .string(text)
        case .strings(let texts): .array(texts.map(JSONValue.string))
        }
    }
}

extension UpdateError {
    /// The details as a JSON object's members (the reply's `error.data.details`).
    public var jsonDetails: [String: JSONValue] {
        details.mapValues(\.json)
    }
}
