import Foundation
import StatecraftDriver

let colour = isatty(STDOUT_FILENO) != 0 && ProcessInfo.processInfo.environment["NO_COLOR"] == nil
let console = Console(
    out: { FileHandle.standardOutput.write(Data($0.utf8)) },
    err: { FileHandle.standardError.write(Data($0.utf8)) },
    write: { FileHandle.standardOutput.write($0) },
    colour: colour,
    inputIsTerminal: isatty(STDIN_FILENO) != 0,
    errorIsTerminal: isatty(STDERR_FILENO) != 0)
exit(Driver.run(Array(CommandLine.arguments.dropFirst()), console: console))
