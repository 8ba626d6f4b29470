/// Where a flow layout's rect query resumes within a section after an element it already
/// returned (`Layout.attributes(in:after:limit:)`): the section's elements come in the order
/// background, header, cells, footer.
enum FlowResumePoint: Int, Sendable {
    /// The section from its background on.
    case start
    /// The header, then the cells from the first.
    case header
    /// The cells from the one after the element's item (the first after a header), then the footer.
    case cells

    /// The section and the point to resume at after `element` (the next section's start after
    /// a footer, or after an element the flow layout never places).
    static func after(_ element: ElementID) -> (section: Int, point: FlowResumePoint) {
        let s = element.indexPath.section
        switch element.kind {
        case ElementKind.sectionBackground: return (s, .header)
        case ElementKind.header: return (s, .cells)
        case .cell: return (s, .cells)
        default: return (s + 1, .start)
        }
    }
}
