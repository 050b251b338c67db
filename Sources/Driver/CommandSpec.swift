/// A command's whole surface, declared once: its positionals, its options (each with its
/// value and help line) and the paragraphs of its help. Parsing, `--help` and "did you
/// mean" all come from this table, so an option's name is written in one place.
struct CommandSpec {
    /// `check`, `replay`.
    var name: String
    /// The positionals as the usage line shows them: `SPEC [LOG ...]`.
    var positionals: String
    /// Whether the usage line shows the positionals before the options (`replay SPEC …`) or
    /// after them (`check … [PATH ...]`).
    var positionalsFirst: Bool
    /// What the command does: the paragraph under the usage line.
    var about: String
    var options: [OptionSpec]
    /// The paragraphs after the options (more notes, the exit status).
    var footer: String

    /// The usage line, wrapped under its start.
    var usage: String {
        let head = "USAGE: statecraft \(name) "
        var words = options.map { "[\($0.label)]" }
        if positionalsFirst { words.insert(positionals, at: 0) } else { words.append(positionals) }
        var lines = [head]
        for word in words where !word.isEmpty {
            if lines[lines.count - 1].count + word.count > CommandSpec.width && lines[lines.count - 1].count > head.count {
                lines.append(String(repeating: " ", count: head.count))
            }
            lines[lines.count - 1] += (lines[lines.count - 1].hasSuffix(" ") ? "" : " ") + word
        }
        return lines.joined(separator: "\n")
    }

    /// The text of `--help`.
    var help: String {
        var out = usage + "\n\n" + about + "\n\nOPTIONS:\n"
        for option in options + [OptionSpec("-h, --help", .flag, "Show this help")] {
            let label = "  " + option.label
            let lines = option.help.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            if label.count < CommandSpec.helpColumn {
                out += label + String(repeating: " ", count: CommandSpec.helpColumn - label.count) + lines[0] + "\n"
            } else {
                out += label + "\n" + String(repeating: " ", count: CommandSpec.helpColumn) + lines[0] + "\n"
            }
            for line in lines.dropFirst() { out += String(repeating: " ", count: CommandSpec.helpColumn) + line + "\n" }
        }
        return out + "\n" + footer + "\n\n"
    }

    /// Where help lines start, and how wide the usage line may be.
    static let helpColumn = 25
    static let width = 92

    /// Parses `arguments` against the options; the error is the message printed before the usage.
    func parse(_ arguments: [String]) -> Result<ParsedArguments, UsageError> {
        ParsedArguments.parse(arguments, options: options)
    }

    /// What every command says when its arguments are wrong: `Error: message`, then its help,
    /// on standard error. Returns the usage exit status.
    func usageError(_ message: String, _ console: Console) -> Int32 {
        console.err("Error: \(message)\n\n" + help)
        return ExitStatus.usage
    }

    /// What reading a command's arguments gave: the values to run with, or the status to exit
    /// with (a usage error or the help was printed).
    enum Start<Values> {
        case run(ParsedArguments, Values)
        case exit(Int32)
    }

    /// Parses `arguments` and reads the command's values from them with `read`; a usage error
    /// is printed before the help (exit 2), and `--help` prints the help (exit 0).
    func start<Values>(_ arguments: [String], console: Console,
                       reading read: (ParsedArguments) -> Result<Values, UsageError>) -> Start<Values> {
        switch parse(arguments).flatMap({ parsed in read(parsed).map { (parsed, $0) } }) {
        case .failure(let error):
            return .exit(usageError(error.message, console))
        case .success(let (parsed, _)) where parsed.wantsHelp:
            console.out(help)
            return .exit(ExitStatus.success)
        case .success(let (parsed, values)):
            return .run(parsed, values)
        }
    }

    /// `start` for a command whose options are all flags and positionals.
    func start(_ arguments: [String], console: Console) -> Start<Void> {
        start(arguments, console: console, reading: { _ in .success(()) })
    }
}

/// One option of a command.
struct OptionSpec {
    enum Kind {
        /// `--strict`: present or not.
        case flag
        /// `--max-depth N`: takes a value, shown as the placeholder.
        case value(String)
        /// `--format text|json`: takes one of these words.
        case choice([String])
    }

    var name: String
    var kind: Kind
    /// What the option does, one line (more lines separated by `\n`).
    var help: String

    init(_ name: String, _ kind: Kind, _ help: String) {
        self.name = name
        self.kind = kind
        self.help = help
    }

    /// An option whose value is one of the cases of `T` (`Format`).
    static func choice<T: RawRepresentable & CaseIterable>(_ name: String, _ type: T.Type, _ help: String) -> OptionSpec
    where T.RawValue == String {
        OptionSpec(name, .choice(T.allCases.map(\.rawValue)), help)
    }

    var takesValue: Bool {
        if case .flag = kind { return false }
        return true
    }

    /// `--format text|json`, `--max-depth N`, `--strict`.
    var label: String {
        switch kind {
        case .flag: name
        case .value(let placeholder): name + " " + placeholder
        case .choice(let words): name + " " + words.joined(separator: "|")
        }
    }
}
