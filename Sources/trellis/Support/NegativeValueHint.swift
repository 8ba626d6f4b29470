import ArgumentParser
import Foundation

/// A value that starts with '-' (a negative coordinate `-5,10`, a mistyped `-1:0`) reads as an
/// option to the argument parser, which then reports a missing argument: when parsing fails
/// and such a value was given before any `--`, the message says how to pass it.
enum NegativeValueHint {
    /// The first word that looks like a negative value rather than an option, before any `--`,
    /// and the option word before it (when the value was meant for that option).
    static func token(in words: [String]) -> (value: String, option: String?)? {
        for (index, word) in words.enumerated() {
            if word == "--" { return nil }
            let characters = Array(word)
            if characters.count > 1, characters[0] == "-", characters[1].isNumber || characters[1] == "." {
                let previous = index > 0 ? words[index - 1] : ""
                return (word, previous.hasPrefix("--") && !previous.contains("=") ? previous : nil)
            }
        }
        return nil
    }

    /// The parser's message, with the hint when a failed parse saw a negative value.
    static func message(for error: any Error, words: [String]) -> String {
        let message = Trellis.message(for: error)
        guard let (value, option) = token(in: words) else { return message }
        let remedy = option.map { "write it as \($0)=\(value)" }
            ?? "put -- before values that start with '-' (… -- \(value))"
        return "\(message)\n'\(value)' starts with '-', so it was read as an option; \(remedy)"
    }
}

extension Trellis {
    /// argument-parser's `main`, with the negative-value hint on a failed parse.
    static func main() {
        let words = Array(CommandLine.arguments.dropFirst())
        do {
            _ = try parseAsRoot(words)
        } catch {
            if exitCode(for: error) != .success, NegativeValueHint.token(in: words) != nil {
                printError("Error: \(NegativeValueHint.message(for: error, words: words))")
                Foundation.exit(Exit.usage)
            }
        }
        main(words)
    }
}
