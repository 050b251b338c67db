import Statecraft
import StatecraftLanguageServer

/// `statecraft lsp [--stdio] [--max-depth N] [--max-configurations N]`
enum LSPCommand {
    static let help = """
        USAGE: statecraft lsp [--stdio] [--max-depth N] [--max-configurations N]

        Runs the language server: LSP 3.17 over standard input and output, for editors.
        It checks open specs on every change (the diagnostics of 'statecraft check'), and
        answers go to definition, references, rename, hover, completion, outline, formatting
        and semantic highlighting. The README's "In your editor" section shows how to set up
        VS Code, Neovim and Helix.

        OPTIONS:
          --stdio                  Accepted and ignored (editors pass it; stdio is the only transport)
          --max-depth N            Longest witness the reachability search tries (default 12)
          --max-configurations N   Most configurations searched (default 5000)
          -h, --help               Show this help

        EXIT STATUS: 0 after the client's 'shutdown' and 'exit', 1 when the client exits
        without 'shutdown' or closes the connection, 2 usage error.

        """

    static func run(_ arguments: [String], console: Console) -> Int32 {
        let parsed: ParsedArguments
        let bounds: ExplorationBounds
        switch ParsedArguments.parse(arguments, flags: ["--stdio"], options: ["--max-depth", "--max-configurations"])
            .flatMap({ p in p.bounds().map { (p, $0) } }) {
        case .success(let (p, b)):
            parsed = p
            bounds = b
        case .failure(let error):
            console.err("Error: \(error.message)\n\n" + help)
            return ExitStatus.usage
        }
        if parsed.wantsHelp {
            console.out(help)
            return ExitStatus.success
        }
        guard parsed.positionals.isEmpty else {
            console.err("Error: unexpected argument '\(parsed.positionals[0])'\n\n" + help)
            return ExitStatus.usage
        }
        var streams = StandardStreams(server: LanguageServer(version: Driver.version, bounds: bounds))
        return streams.run()
    }
}
