import Foundation
import Testing
import TestSupport
@testable import StatecraftDriver

/// Each command's options are declared once (`CommandSpec`); its help, its parser and its
/// "did you mean" all follow that table, through the real binary.
@Suite struct CommandSpecTests {
    static let commands: [(String, CommandSpec)] = [
        ("check", CheckCommand.spec), ("fmt", FormatCommand.spec), ("replay", ReplayCommand.spec),
        ("paths", PathsCommand.spec), ("dot", DiagramCommand.spec(.dot)), ("mermaid", DiagramCommand.spec(.mermaid)),
        ("scxml", SCXMLCommand.spec), ("import", ImportCommand.spec), ("lsp", LSPCommand.spec),
    ]

    @Test(arguments: CommandSpecTests.commands.map(\.0))
    func helpParsingAndSuggestionsFollowTheTable(command: String) throws {
        let spec = try #require(CommandSpecTests.commands.first { $0.0 == command }?.1)
        #expect(spec.name == command)
        let help = try CLI.run([command, "--help"])
        #expect(help.status == 0 && help.stdout == spec.help)
        let usage = help.stdout.components(separatedBy: "\n\n")[0]
        for option in spec.options {
            // In the usage line and in the list, where its help starts at one column.
            #expect(usage.contains("[\(option.label)]"), "\(command) usage: \(option.label)")
            let line = try #require(help.stdout.components(separatedBy: "\n").first { $0.hasPrefix("  " + option.label) })
            let helpStart = line.count > CommandSpec.helpColumn ? String(line.dropFirst(CommandSpec.helpColumn)) : ""
            #expect(helpStart.hasPrefix(option.help.components(separatedBy: "\n")[0]) || line == "  " + option.label)
            // A typo is answered with the option's name.
            let typo = String(option.name.dropLast())
            if typo.count > 2, !spec.options.contains(where: { $0.name == typo }) {
                let r = try CLI.run([command, typo])
                #expect(r.status == 2)
                #expect(r.stderr.hasPrefix("Error: unknown option '\(typo)'; did you mean '\(option.name)'?\n\n" + spec.usage))
            }
            switch option.kind {
            case .flag: break
            case .value:
                let r = try CLI.run([command, option.name])
                #expect(r.status == 2 && r.stderr.hasPrefix("Error: \(option.name) needs a value\n"))
            case .choice(let words):
                let r = try CLI.run([command, option.name, "nonsense"])
                #expect(r.status == 2)
                #expect(r.stderr.contains(words.map { "'\($0)'" }.last ?? "") && r.stderr.contains("not 'nonsense'"))
            }
        }
    }

    /// The usage line wraps under its start, within the width.
    @Test func usageWraps() {
        for (_, spec) in CommandSpecTests.commands {
            let lines = spec.usage.components(separatedBy: "\n")
            let indent = "USAGE: statecraft \(spec.name) ".count
            #expect(lines.allSatisfy { $0.count <= CommandSpec.width }, "\(spec.name)")
            #expect(lines.dropFirst().allSatisfy { $0.prefix(indent).allSatisfy { $0 == " " } && $0.dropFirst(indent).first != " " })
        }
    }
}
