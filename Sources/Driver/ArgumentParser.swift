/// The command line of one command, split into flags, options with values and positionals.
///
/// Shared by every command so they all accept the same shapes: `--flag`, `--option value`,
/// `--option=value`, `-` as a positional (standard input), `--` before positionals that
/// start with `-`, and `-h`/`--help`.
struct ParsedArguments {
    var flags: Set<String> = []
    /// The value of each option (the last one given, when it is given more than once).
    var values: [String: String] = [:]
    /// Every value of each option, in order (for options that may be repeated).
    var allValues: [String: [String]] = [:]
    var positionals: [String] = []
    var wantsHelp = false

    /// Parses `arguments` against a command's options (`CommandSpec.parse`); the error is
    /// the message to print before the usage. An option that takes one of a set of words is
    /// refused here when given another.
    static func parse(_ arguments: [String], options specs: [OptionSpec]) -> Result<ParsedArguments, UsageError> {
        let flags = specs.filter { !$0.takesValue }.map(\.name)
        let options = specs.filter(\.takesValue).map(\.name)
        var parsed = ParsedArguments()
        var index = 0
        var onlyPositionals = false
        while index < arguments.count {
            let arg = arguments[index]
            index += 1
            if onlyPositionals || !arg.hasPrefix("-") || arg == "-" {
                parsed.positionals.append(arg)
                continue
            }
            if arg == "--" {
                onlyPositionals = true
            } else if arg == "-h" || arg == "--help" {
                parsed.wantsHelp = true
            } else if flags.contains(arg) {
                parsed.flags.insert(arg)
            } else if options.contains(arg) {
                guard index < arguments.count else { return .failure(UsageError("\(arg) needs a value")) }
                parsed.values[arg] = arguments[index]
                parsed.allValues[arg, default: []].append(arguments[index])
                index += 1
            } else if let equals = arg.firstIndex(of: "="), options.contains(String(arg[..<equals])) {
                let option = String(arg[..<equals])
                parsed.values[option] = String(arg[arg.index(after: equals)...])
                parsed.allValues[option, default: []].append(String(arg[arg.index(after: equals)...]))
            } else {
                var message = "unknown option '\(arg)'"
                if let close = Driver.closest(arg, flags + options + ["--help"]) { message += "; did you mean '\(close)'?" }
                return .failure(UsageError(message))
            }
        }
        for spec in specs {
            guard case .choice(let words) = spec.kind else { continue }
            for word in parsed.allValues[spec.name] ?? [] where !words.contains(word) {
                return .failure(UsageError("\(spec.name) takes \(list(words)), not '\(word)'"))
            }
        }
        return .success(parsed)
    }

    /// `'a'`, `'a' or 'b'`, `'a', 'b' or 'c'`.
    private static func list(_ words: [String]) -> String {
        var quoted = words.map { "'\($0)'" }
        let last = quoted.removeLast()
        return quoted.isEmpty ? last : quoted.joined(separator: ", ") + " or " + last
    }

    /// The one positional argument of a command that takes exactly one (`SPEC`, `FILE.scxml`).
    func onlyPositional(_ what: String) -> Result<String, UsageError> {
        guard positionals.count == 1, let only = positionals.first else {
            return .failure(UsageError(positionals.isEmpty ? "missing the \(what) argument"
                                       : "expected one \(what), found \(positionals.count) arguments"))
        }
        return .success(only)
    }

    /// The value of an option that takes one of a fixed set of words (checked by `parse`).
    func choice<T: RawRepresentable & CaseIterable>(_ option: String, default value: T) -> Result<T, UsageError>
    where T.RawValue == String {
        guard let word = values[option] else { return .success(value) }
        guard let chosen = T(rawValue: word) else {
            return .failure(UsageError("\(option) takes \(ParsedArguments.list(T.allCases.map(\.rawValue))), not '\(word)'"))
        }
        return .success(chosen)
    }
}

/// A command line that does not parse: the message printed before the usage (exit 2).
struct UsageError: Error {
    var message: String
    init(_ message: String) { self.message = message }
}
