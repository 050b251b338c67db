import Foundation
import Synchronization
import Testing
@testable import StatecraftDriver

/// The command list is written once (`Driver.commands`): the usage text, the dispatch and
/// "did you mean" all come from it.
@Suite struct CommandTableTests {
    /// Runs the driver in process, returning its status and standard output.
    private func run(_ arguments: [String]) -> (status: Int32, out: String, err: String) {
        let out = Mutex(""), err = Mutex("")
        let console = Console(out: { s in out.withLock { $0 += s } }, err: { s in err.withLock { $0 += s } })
        let status = Driver.run(arguments, console: console)
        return (status, out.withLock { $0 }, err.withLock { $0 })
    }

    @Test func theUsageTextListsEveryCommandOfTheTableInItsOrder() {
        var rest = Driver.usage[...]
        for command in Driver.commands {
            guard let at = rest.range(of: "\n  " + command.usage) else {
                Issue.record("the usage text does not list '\(command.usage)' where the table puts it")
                continue
            }
            rest = rest[at.upperBound...]
            #expect(rest.prefix(while: { $0 != "\n" }).isEmpty || rest.hasPrefix(" "))
            #expect(rest.contains(command.summary))
        }
        #expect(Set(Driver.commands.map(\.name)).count == Driver.commands.count)
    }

    @Test func everyCommandOfTheTableIsDispatchedToItsOwnHelp() {
        for command in Driver.commands where command.name != "help" {
            let help = run([command.name, "--help"])
            #expect(help.status == 0, "\(command.name) --help")
            #expect(help.out.contains(command.name), "\(command.name) --help printed \(help.out)")
            #expect(run(["help", command.name]).out == help.out)
        }
        #expect(run(["help"]).out == Driver.usage)
    }

    @Test func aTypoIsAnsweredFromTheTable() {
        for command in Driver.commands where command.name.count > 3 {
            let typo = String(command.name.dropLast())
            let result = run([typo])
            #expect(result.status == 2)
            #expect(result.err.hasPrefix("Error: unknown command '\(typo)'; did you mean '\(command.name)'?"), "\(result.err)")
        }
    }
}
