import StatecraftDiagnostics
import StatecraftModel

extension HarnessWriter {
    /// `+Properties.swift`: the spec's properties that a run can break, as the harness's monitor
    /// (`HarnessSources.properties`) watches them. What each states is data
    /// (`propertySchemas`); its expressions are code, written by the machine type's own
    /// expression writer in an extension of the type, so that they read its variables,
    /// constants and active states and fail, where the runtime's would, with the runtime's
    /// words. The type's file is not touched: it is what `statecraft swift` writes without a
    /// harness.
    ///
    /// The properties are in the spec's order, without `always reachable` (no run breaks it)
    /// and without any that did not resolve (as the runtime compiles them).
    static func properties(_ machine: Machine, options: SwiftGenerator.Options, specPath: String) -> String {
        let typeName = options.typeName ?? machine.name
        let writer = FlatMachineWriter(machine, options)
        let place = FlatMachineWriter.ExpressionPlace.outside(helpers: "PropertyArithmetic")
        let watched = machine.properties.filter { property in
            if case .reachable = property.form { return false }
            return !property.isBroken
        }
        func literal(_ s: String) -> String { SwiftName.literal(s) }
        func text(_ e: Expr) -> String { literal(machine.text(e.range)) }
        func line(_ range: SourceRange) -> Int { machine.source.location(of: range.start).line }

        var out = SwiftWriter()
        out.line("// Written by `statecraft swift --harness` from \(specPath.split(separator: "/").last.map(String.init) ?? specPath): the properties of")
        out.line("// \(typeName) that the replay watches on every case. Do not edit: regenerate.")
        out.line()
        // The math functions, as the type's own file imports Foundation for them (`usesFoundation`).
        var called = Set<BuiltinFunction>()
        for p in watched {
            for e in p.form.expressions { e.visit { if case .call(let f, _) = $0.kind { called.insert(f) } } }
        }
        if !called.isDisjoint(with: [.atan2, .sqrt, .floor, .ceil, .round]) {
            out.line("import Foundation")
            out.line()
        }
        out.open("extension \(typeName)")
        out.line("static let propertySchemas: [PropertySchema] = [")
        out.indent()
        for p in watched {
            let kind: String, x: Expr, other: Expr?
            switch p.form {
            case .never(let e, let g): (kind, x, other) = (".never", e, g)
            case .always(let e, let g): (kind, x, other) = (".always", e, g)
            case .precedence(let e, let y): (kind, x, other) = (".onlyAfter", e, y)
            case .response(let trigger, let deadline, let e):
                let after = switch trigger {
                case .event(let event): ".event(\(literal(machine[event].name)))"
                case .entering(let state): ".entering(\(literal(machine[state].name)))"
                }
                (kind, x, other) = (".response(after: \(after), deadline: \(SwiftName.number(deadline)))", e, nil)
            case .reachable(let e): (kind, x, other) = ("", e, nil)  // (filtered out above)
            }
            out.line(".init(name: \(literal(p.name)), specLine: \(line(p.range)), kind: \(kind),")
            out.line("      x: \(text(x)), other: \(other.map(text) ?? "nil")),")
        }
        out.close("]")
        out.line()
        if watched.isEmpty {
            out.line("func propertyValues(_ k: Int) throws(PropertyFault) -> (x: Bool, other: Bool?, inTrigger: Bool) { (false, nil, false) }")
            out.close()
            return out.text
        }
        out.open("func propertyValues(_ k: Int) throws(PropertyFault) -> (x: Bool, other: Bool?, inTrigger: Bool)")
        out.line("switch k {")
        for (k, p) in watched.enumerated() {
            out.line("case \(k):  // \(p.name), line \(line(p.range))")
            out.indent()
            let x: Expr, other: Expr?, inTrigger: String
            switch p.form {
            case .never(let e, let g), .always(let e, let g): (x, other, inTrigger) = (e, g, "false")
            case .precedence(let e, let y): (x, other, inTrigger) = (e, y, "false")
            case .response(.entering(let s), _, let e):
                (x, other) = (e, nil)
                inTrigger = s == machine.root ? "true" : "isActive(.\(writer.stateName(s)))"
            case .response(.event, _, let e), .reachable(let e): (x, other, inTrigger) = (e, nil, "false")
            }
            // `X` first, then the other: the first that fails is the fault reported, as in the runtime.
            let (xCode, xThrows) = writer.expression(x, fields: [], at: place)
            out.line("let x = \(xThrows ? "try " : "")\(xCode)")
            if let other {
                let (code, throwing) = writer.expression(other, fields: [], at: place)
                out.line("let other = \(throwing ? "try " : "")\(code)")
                out.line("return (x, other, \(inTrigger))")
            } else {
                out.line("return (x, nil, \(inTrigger))")
            }
            out.dedent()
        }
        out.line("default:")
        out.line("    return (false, nil, false)")
        out.line("}")
        out.close()
        out.close()
        return out.text
    }
}
