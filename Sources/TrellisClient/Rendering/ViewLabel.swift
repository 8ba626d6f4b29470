import TrellisCore
import TrellisProtocol

extension SceneView {
    /// What every picture of the view writes on it (terminal, text, SVG): `data.label` (a
    /// string or a number), else the item id, else the element's kind.
    public var displayLabel: String {
        if let label = data?.json["label"] {
            if let text = label.stringValue { return text }
            if let number = label.numberValue { return JSONNumberText.format(number) }
        }
        if let id = itemID { return id.rawValue }
        return element.kind.elementKind ?? element.kind.category
    }
}
