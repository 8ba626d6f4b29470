/// Reads a script file into steps, checking everything that can be checked before running:
/// quoting, `expect`/`expect-error` syntax, where `expect-error` may stand, and (through
/// `checkCommand`, which the `trellis` executable supplies) each command's own arguments.
public struct ScriptParser {
    /// Returns nil for a command line the CLI accepts, else why it does not.
    public var checkCommand: ([String]) -> String?

    public init(checkCommand: @escaping ([String]) -> String? = { _ in nil }) {
        self.checkCommand = checkCommand
    }

    public func parse(_ text: String, file: String) throws(ScriptSyntaxError) -> Script {
        var steps: [ScriptStep] = []
        for (offset, rawLine) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let location = ScriptLocation(file: file, line: offset + 1)
            let line = String(rawLine).trimmingBlanks
            let words: [String]
            do { words = try ScriptTokenizer.words(line) } catch { throw ScriptSyntaxError(location, error.message) }
            guard let head = words.first else { continue }  // blank or comment
            let arguments = Array(words.dropFirst())
            switch head {
            case "expect":
                do {
                    steps.append(ScriptStep(location: location, text: line, action: .expect(try ExpectationSyntax.parse(arguments))))
                } catch {
                    throw ScriptSyntaxError(location, error.message)
                }
            case "expect-error":
                guard let code = arguments.first, arguments.count <= 2 else {
                    throw ScriptSyntaxError(location, "expected: expect-error CODE [\"message substring\"]")
                }
                // It belongs to the command right before it (comments and blank lines aside).
                guard let last = steps.last, case .command(let command, let previous) = last.action else {
                    throw ScriptSyntaxError(location, "expect-error must follow the command that should fail")
                }
                guard previous == nil else {
                    throw ScriptSyntaxError(location, "the command at \(last.location) already has an expect-error")
                }
                let expected = ExpectedError(code: code, substring: arguments.count == 2 ? arguments[1] : nil, location: location, text: line)
                steps[steps.count - 1].action = .command(command, expectedError: expected)
            default:
                if let problem = checkCommand(words) { throw ScriptSyntaxError(location, problem) }
                steps.append(ScriptStep(location: location, text: line, action: .command(words, expectedError: nil)))
            }
        }
        return Script(file: file, steps: steps)
    }
}

extension String {
    /// The line without spaces, tabs and a carriage return at either end.
    var trimmingBlanks: String {
        let blanks: Set<Character> = [" ", "\t", "\r"]
        guard let start = firstIndex(where: { !blanks.contains($0) }), let end = lastIndex(where: { !blanks.contains($0) }) else { return "" }
        return String(self[start...end])
    }
}
