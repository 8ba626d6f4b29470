/// A command the engine refused; state is unchanged. Messages say what was wrong and what was expected.
public enum EngineError: Error, Hashable, Sendable, CustomStringConvertible {
    case itemOutOfRange(IndexPath, sections: Int, items: Int?)
    case invalidScrollPosition(String)
    case selectionNotAllowed
    case transitionInProgress
    case noTransitionInProgress

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
        case .selectionNotAllowed:
            return "selection is turned off for this collection view (allowsSelection is false)"
        }
    }
}
