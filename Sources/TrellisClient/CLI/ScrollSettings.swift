import TrellisCore
import TrellisProtocol

/// The words of `trellis scroll-config` (UIScrollView's properties in kebab case) as the keys
/// of `scroll.configure`: booleans as `true`/`false`, the deceleration rate as `normal`,
/// `fast` or a number per millisecond (its range is the server's to check).
public struct ScrollSettings: Sendable {
    /// Option name → protocol key, for the boolean settings.
    public static let booleanKeys: [(option: String, key: String)] = [
        ("bounces", "bounces"), ("always-bounce-vertical", "alwaysBounceVertical"),
        ("always-bounce-horizontal", "alwaysBounceHorizontal"), ("paging", "pagingEnabled"),
        ("scroll-enabled", "scrollEnabled"),
    ]

    /// (option name, value as typed), in any order; options not given are left out.
    public var options: [(name: String, value: String)] = []

    public init(options: [(name: String, value: String)] = []) {
        self.options = options
    }

    /// The params of `scroll.configure` (without the session).
    public func params() throws(SyntaxError) -> [String: JSONValue] {
        var params: [String: JSONValue] = [:]
        for (name, value) in options {
            if let key = Self.booleanKeys.first(where: { $0.option == name })?.key {
                params[key] = .bool(try Choices.check(value, among: ["true", "false"], what: "--\(name)") == "true")
            } else if name == "deceleration" {
                if value == "normal" || value == "fast" {
                    params["decelerationRate"] = .string(value)
                } else if let rate = Double(value), rate.isFinite {
                    params["decelerationRate"] = .number(rate)
                } else {
                    throw SyntaxError("--deceleration '\(value)': expected normal, fast or a rate per millisecond such as 0.995"
                                      + Choices.suggestion(for: value, among: ["normal", "fast"]))
                }
            } else {
                throw SyntaxError("--\(name): not a scroll setting")
            }
        }
        return params
    }
}
