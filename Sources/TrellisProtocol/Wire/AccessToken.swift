/// The secret every request to the browser viewer (trellis-web) must carry as `?token=…` when
/// it has one, as Jupyter's token: it lets trellis-web listen beyond loopback without showing
/// (or, with `--control`, handing) every session to whoever reaches the port. Here so that
/// `trellis web` can check a token before it starts anything, without linking trellis-web.
public struct AccessToken: Sendable, Equatable {
    /// The token as it appears in URLs.
    public let value: String

    /// Shorter tokens are guessable; only URL-safe characters, so the URL carries it as it is.
    public static let lengths = 16...256

    /// A token given on the command line; nil when it is too short or long or has a character a
    /// URL would have to escape.
    public init?(_ value: String) {
        guard Self.lengths.contains(value.utf8.count),
              value.utf8.allSatisfy({ Self.urlSafe($0) }) else { return nil }
        self.value = value
    }

    /// What a token must be, for the refusal of `found`, given as `source` (`--token` or the
    /// environment variable).
    public static func rule(found: String, source: String = "--token") -> String {
        "\(source) takes 16 to 256 characters, each a letter, a digit or one of - _ . ~ (found \(found.utf8.count) characters)"
    }

    /// The environment variable that gives trellis-web its token: unlike an argument, it does
    /// not show in `ps` to the machine's other users.
    public static let environmentVariable = "TRELLIS_WEB_TOKEN"

    /// The token asked for, with where it came from: `--token`, else the environment variable
    /// (empty counts as unset); nil when neither gives one.
    public static func given(option: String?, environment: [String: String]) -> (value: String, source: String)? {
        if let option { return (option, "--token") }
        if let value = environment[environmentVariable], !value.isEmpty { return (value, environmentVariable) }
        return nil
    }

    /// 32 hexadecimal digits (128 bits) from the system's random source (getrandom(2)).
    public static func random() -> AccessToken {
        var generator = SystemRandomNumberGenerator()
        let digits = Array("0123456789abcdef")
        return AccessToken(String((0..<32).map { _ in digits[Int(generator.next() % 16)] }))!
    }

    /// Whether `presented` is the token, in a time that depends only on the lengths, so a
    /// client cannot find the token a character at a time by timing refusals.
    public func matches(_ presented: String?) -> Bool {
        guard let presented else { return false }
        let expected = Array(value.utf8), given = Array(presented.utf8)
        var difference = UInt8(expected.count == given.count ? 0 : 1)
        for index in 0..<expected.count {
            difference |= expected[index] ^ (index < given.count ? given[index] : 0)
        }
        return difference == 0
    }

    private static func urlSafe(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }
}
