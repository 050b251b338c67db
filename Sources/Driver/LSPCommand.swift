import Statecraft
import StatecraftLanguageServer

/// `statecraft lsp [--stdio] [--max-depth N] [--max-configurations N]`
enum LSPCommand {
    static let spec = CommandSpec(
        name: "lsp", positionals: "", positionalsFirst: false,
        about: """
            Runs the language server: LSP 3.17 over standard input and output, for editors.
            It checks open specs on every change (the diagnostics of 'statecraft check'), and
            answers go to definition, references, rename, hover, completion, outline, formatting
            and semantic highlighting. The EditorSupport article of the documentation shows how
            to set up VS Code, Neovim and Helix.
            """,
        options: [
            OptionSpec("--stdio", .flag, "Accepted and ignored (editors pass it; stdio is the only transport)"),
            OptionSpec("--max-depth", .value("N"), "Longest witness the reachability search tries (default 12)"),
            OptionSpec("--max-configurations", .value("N"), "Most configurations searched (default 5000)"),
        ],
        footer: """
            EXIT STATUS: 0 after the client's 'shutdown' and 'exit', 1 when the client exits
            without 'shutdown' or closes the connection, 2 usage error.
            """)

    static var help: String { spec.help }

    /// Parses the options, then serves on standard input and output until the client is done.
    static func run(_ arguments: [String], console: Console) -> Int32 {
        let parsed: ParsedArguments
        let bounds: ExplorationBounds
        switch spec.start(arguments, console: console, reading: { $0.bounds() }) {
        case .run(let p, let b): (parsed, bounds) = (p, b)
        case .exit(let status): return status
        }
        guard parsed.positionals.isEmpty else {
            return spec.usageError("unexpected argument '\(parsed.positionals[0])'", console)
        }
        var streams = StandardStreams(server: LanguageServer(version: Driver.version, bounds: bounds))
        return streams.run()
    }
}
