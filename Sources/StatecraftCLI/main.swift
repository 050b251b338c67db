import Foundation
import StatecraftDriver

exit(Driver.run(Array(CommandLine.arguments.dropFirst()), console: .standard()))
