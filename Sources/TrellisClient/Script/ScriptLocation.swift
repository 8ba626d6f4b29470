/// Where a script line is: the file as it was named on the command line, and its line number
/// (from 1), printed `file:line` as compilers print positions.
public struct ScriptLocation: Hashable, Sendable, CustomStringConvertible {
    public var file: String
    public var line: Int

    public init(file: String, line: Int) {
        self.file = file
        self.line = line
    }

    public var description: String { "\(file):\(line)" }
}

/// A script that cannot run as written (bad quoting, an unknown command, a malformed
/// assertion): the run stops before executing anything and exits 64.
public struct ScriptSyntaxError: Error, Hashable, Sendable, CustomStringConvertible {
    public var location: ScriptLocation
    public var message: String

    public init(_ location: ScriptLocation, _ message: String) {
        self.location = location
        self.message = message
    }

    public var description: String { "\(location): \(message)" }
}
