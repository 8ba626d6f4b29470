/// A command the engine refused; state is unchanged. Messages say what was wrong and what was expected.
public enum EngineError: Error, Hashable, Sendable, CustomStringConvertible {
    case itemOutOfRange(IndexPath, sections: Int, items: Int?)
    case invalidScrollPosition(String)
    case selectionNotAllowed
    case transitionInProgress
    case noTransitionInProgress
    /// A behaviour names an item or body the session does not have.
    case unknownDynamicElement(DynamicElement)
    case unknownBody(String, known: [String])
    case bodyExists(String)
    /// A body cannot be removed while behaviours act on it.
    case bodyInUse(String, behaviors: [Int])
    case unknownBehavior(Int, known: [Int])
    /// A behaviour's settings the engine cannot take (a type changed by an update, …).
    case invalidBehavior(String)
    /// A pan while scrollEnabled is false.
    case scrollingDisabled
    /// A pan's changed/ended/cancelled without a began.
    case panNotBegun
    /// A section-scroll names a section the data does not have.
    case sectionOutOfRange(Int, sections: Int)
    /// A section-scroll names a section that does not scroll on its own in this layout.
    case sectionNotOrthogonal(Int)

    public var description: String {
        switch self {
        case .itemOutOfRange(let ip, let sections, let items):
            if let items {
                return "index path \(ip) is out of range: section \(ip.section) has \(items) item\(items == 1 ? "" : "s") (valid items 0..<\(items))"
            }
            return "index path \(ip) is out of range: there \(sections == 1 ? "is 1 section" : "are \(sections) sections") (valid sections 0..<\(sections))"
        case .invalidScrollPosition(let problem):
            return problem
        case .transitionInProgress:
            return "an interactive layout transition is already in progress: finish or cancel it first"
        case .noTransitionInProgress:
            return "no interactive layout transition is in progress: begin one first"
        case .unknownDynamicElement(.item(let id)):
            return "unknown item '\(id.rawValue)': a behaviour acts on items of the session's data (by item id) or on bodies ({\"body\": NAME}, added by body.add)"
        case .unknownDynamicElement(.body(let name)):
            return "unknown body '\(name)': add it first with body.add"
        case .unknownBody(let name, let known):
            return "unknown body '\(name)'; " + (known.isEmpty ? "the session has no bodies (body.add adds one)" : "known bodies: \(known.joined(separator: ", "))")
        case .bodyExists(let name):
            return "a body named '\(name)' already exists in this session: remove it first (body.remove) or pick another name"
        case .bodyInUse(let name, let behaviors):
            return "body '\(name)' is acted on by behavio\(behaviors.count == 1 ? "u" : "u")r\(behaviors.count == 1 ? "" : "s") \(behaviors.map(String.init).joined(separator: ", ")): remove \(behaviors.count == 1 ? "it" : "them") first (dynamics.remove)"
        case .unknownBehavior(let id, let known):
            return "unknown behaviour \(id); " + (known.isEmpty ? "the session has no behaviours (dynamics.add adds one)" : "known behaviours: \(known.map(String.init).joined(separator: ", "))")
        case .invalidBehavior(let problem):
            return problem
        case .scrollingDisabled:
            return "scrolling is turned off for this collection view (scrollEnabled is false): scroll.configure {scrollEnabled: true} first"
        case .panNotBegun:
            return "no pan is in progress: send phase \"began\" first"
        case .sectionOutOfRange(let s, let sections):
            return "section \(s) is out of range: there \(sections == 1 ? "is 1 section" : "are \(sections) sections") (valid sections 0..<\(sections))"
        case .sectionNotOrthogonal(let s):
            return "section \(s) does not scroll on its own: only a compositional layout's section with an orthogonalScrollingBehavior other than \"none\" has an offset across (scroll the collection view with an offset and no section)"
        case .selectionNotAllowed:
            return "selection is turned off for this collection view (allowsSelection is false)"
        }
    }
}
