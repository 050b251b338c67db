import StatecraftRuntime

// The lean runtime of the README and the UsingTheLibrary article: an app that depends on the
// `StatecraftRuntime` product alone (no analyses, reports, exporters or SCXML linked) runs a
// spec from its text. `LeanRuntimeTests` also builds this file in a package of its own.

/// Runs the Drawer spec through one drag and says where the drawer is after each step.
enum DrawerApp {
    static func run(specText: String) throws(SpecError) -> [String] {
        var drawer = try Instance(specText: specText, path: "Drawer.machine")
        _ = drawer.start()
        var lines = [describe(drawer)]
        _ = drawer.send("touchBegan", ["y": .number(600), "onContent": .bool(true)])
        lines.append(describe(drawer))
        _ = drawer.send("touchMoved", ["y": .number(80)])
        lines.append(describe(drawer))
        _ = drawer.send("touchEnded", ["y": .number(80)])
        lines.append(describe(drawer))
        return lines
    }

    /// The state the drawer is in and where its view is: `dragging originY=-520`.
    static func describe(_ drawer: Instance) -> String {
        let originY = drawer.value(of: "originY").map { "\($0)" } ?? "?"
        return "\(drawer.program.machine[drawer.state].name) originY=\(originY)"
    }
}
