/// What a chunked upload is committed as: the data of a `data.reload` (replaced at once, no
/// animation) or the snapshot of a `data.apply` (diffed and animated). Each has its own method
/// family (`data.reload.*`, `data.apply.*`) sharing the staging, the limits and the lifetime.
enum UploadPurpose: Sendable {
    case reload
    case apply

    /// The one-shot method the commit equals, and the prefix of the family's methods.
    var method: String {
        switch self {
        case .reload: return "data.reload"
        case .apply: return "data.apply"
        }
    }
}
