import ArgumentParser

/// Checks between a command's options (exactly one of --items and --file, a count of at least
/// 1), run first thing in `run()` rather than in argument-parser's `validate()`: the parser
/// validates before it reports an unknown option, so a typo (`reload --itmes 5`) was reported as
/// the option it meant being missing. By `run()` the whole line has parsed, typos included.
protocol OptionChecks {
    func checkOptions() throws
}

extension OptionChecks where Self: ParsableCommand {
    /// A usage error about this command's options (exit 64), pointing at its help as the
    /// parser's own errors do (not inside a script, whose report names the line instead).
    func optionError(_ message: String) -> ExitCode {
        usageError(message + (ScriptHost.current == nil ? "\n  See 'trellis \(Self._commandName) --help' for more information." : ""))
    }
}
