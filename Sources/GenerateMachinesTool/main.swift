import Foundation
import StatecraftDriver

// `statecraft swift`, for the generate-machines plugin. The plugin cannot use the
// `statecraft` executable itself: SwiftPM does not let a plugin depend on an executable
// target that a product of another name also builds (swiftlang/swift-package-manager#8831).
exit(Driver.run(["swift"] + Array(CommandLine.arguments.dropFirst()), console: .standard()))
