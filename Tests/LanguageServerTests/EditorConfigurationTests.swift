import Foundation
import Testing
import TestSupport

/// The editor configurations shipped beside the grammar (`Sources/LanguageServer/Editors`,
/// quoted by the EditorSupport article) fit the server and the grammar: Helix's file is
/// TOML that Python's `tomllib` reads, its file type and scope are the grammar's, and the
/// command line it and Neovim's configuration start is a server that answers `initialize`.
@Suite struct EditorConfigurationTests {
    static let editors = Repository.root.appendingPathComponent("Sources/LanguageServer/Editors")

    static func grammar() throws -> [String: Any] {
        let data = try Data(contentsOf: editors.appendingPathComponent("statecraft.tmLanguage.json"))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test func helixStartsTheServerForTheGrammarsFiles() throws {
        let found = ExternalTool.find("python3")
        let usable = try found.map { try $0.run(["-c", "import tomllib"]).status == 0 } ?? false
        // (pytest-lsp's python reads TOML: CI requires that one.)
        let python = try ExternalTool.require(usable ? found : nil, "python3 3.11 or later (tomllib) is not installed",
                                              unlessRequiredBy: "STATECRAFT_REQUIRE_PYTEST_LSP")
        let path = Self.editors.appendingPathComponent("languages.toml").path
        let read = try python.run(["-c", "import json, sys, tomllib; print(json.dumps(tomllib.load(open(sys.argv[1], 'rb'))))", path])
        #expect(read.status == 0, "\(read.stderr)")
        let toml = try #require(try JSONSerialization.jsonObject(with: Data(read.stdout.utf8)) as? [String: Any])
        let server = try #require((toml["language-server"] as? [String: Any])?["statecraft"] as? [String: Any])
        #expect(server["command"] as? String == "/path/to/statecraft")
        #expect(server["args"] as? [String] == ["lsp"])
        let language = try #require((toml["language"] as? [[String: Any]])?.first)
        let grammar = try Self.grammar()
        #expect(language["name"] as? String == "statecraft")
        #expect(language["scope"] as? String == grammar["scopeName"] as? String)
        #expect(language["file-types"] as? [String] == grammar["fileTypes"] as? [String])
        #expect(language["language-servers"] as? [String] == ["statecraft"])
        #expect(language["comment-token"] as? String == "//")
        try expectServerAnswers(arguments: server["args"] as? [String] ?? [])
    }

    @Test func neovimStartsTheServerForMachineFiles() throws {
        let lua = try String(contentsOf: Self.editors.appendingPathComponent("statecraft.lua"), encoding: .utf8)
        #expect(lua.contains("vim.filetype.add({ extension = { machine = \"statecraft\" } })"))
        #expect(lua.contains("pattern = \"statecraft\","))
        #expect(lua.contains("cmd = { \"/path/to/statecraft\", \"lsp\" },"))
        try expectServerAnswers(arguments: ["lsp"])
    }

    /// `statecraft ARGUMENTS`, sent an `initialize` request, answers it as the statecraft
    /// language server.
    func expectServerAnswers(arguments: [String]) throws {
        let binary = try #require(CLI.executable)
        guard let sh = ExternalTool.find("sh") else { Issue.record("sh not found"); return }
        let body = #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}"#
        let command = "printf 'Content-Length: \(body.utf8.count)\\r\\n\\r\\n%s' '\(body)' | '\(binary.path)' "
            + arguments.map { "'\($0)'" }.joined(separator: " ")
        let run = try sh.run(["-c", command])
        #expect(run.stdout.hasPrefix("Content-Length: "), "\(run.stdout)\n\(run.stderr)")
        #expect(run.stdout.contains(#""serverInfo":{"name":"statecraft""#), "\(run.stdout)")
    }
}
