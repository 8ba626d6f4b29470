/// Why a connection to trellisd ended other than by closing.
enum TrellisdConnectionError: Error, CustomStringConvertible {
    case oversizedLine(byteCount: Int)

    var description: String {
        switch self {
        case .oversizedLine(let count): "trellisd sent a line of \(count) bytes, over the bridge's limit"
        }
    }
}
