import Statecraft

extension LanguageServer {
    /// `textDocument/hover`: on a name, its declaration and type (and for a state, what goes
    /// in and out of it and whether the checker reached it); on a transition's keyword, the
    /// checker's verdict with its witness. Only the verdicts wait for the search (which has
    /// usually run by then, after the diagnostics); a name's declaration does not.
    mutating func hover(_ params: JSONValue?) throws(RequestError) -> JSON {
        let (document, quick) = try quickAnalysis(params)
        let offset = try offset(params, in: document)
        let index = quick.symbols
        var sections: [String]
        let range: SourceRange
        if let occurrence = index.occurrence(at: offset), let declaration = index.declaration(of: occurrence.symbol) {
            sections = ["```statecraft\n" + signature(declaration, quick) + "\n```"]
            if declaration.symbol.kind == .state {
                sections += stateSections(declaration.symbol.name, try analysis(params).1)
            } else if declaration.symbol.kind == .property {
                sections.append(propertyVerdict(declaration.symbol.name, try analysis(params).1))
            }
            range = occurrence.range
        } else if let transition = index.transition(at: offset) {
            sections = ["```statecraft\n" + describe(transition) + "\n```"]
            sections.append(verdict(on: transition, try analysis(params).1))
            range = transition.keywordRange
        } else {
            return .null
        }
        return ["contents": ["kind": "markdown", "value": .string(sections.joined(separator: "\n\n"))],
                "range": document.range(range)]
    }

    /// The declaration as written, with the type the checker gave a constant written without one.
    private func signature(_ declaration: Declaration, _ result: CheckResult) -> String {
        var text = declaration.signature
        if let parent = declaration.parent { text += "  // in \(parent)" }
        if declaration.symbol.kind == .constant, declaration.type == nil,
           let constant = result.machine?.constants.first(where: { $0.name == declaration.symbol.name }) {
            text += "  // \(constant.definition.type.rawValue)"
        }
        return text
    }

    private func stateSections(_ name: String, _ result: CheckResult) -> [String] {
        let index = result.symbols
        var sections: [String] = []
        if let machine = result.machine, let report = result.exploration,
           let state = machine.states.dropFirst().first(where: { $0.name == name }) {
            sections.append(words(report.states[state.id.index], machine, report))
        }
        let incoming = index.incoming(to: name)
        let outgoing = index.outgoing(from: name)
        func line(_ t: TransitionSummary, other: String?) -> String {
            let at = result.file.location(of: t.keywordRange.start)
            return "- `\(t.trigger)`" + (other.map { " \($0)" } ?? "") + " (line \(at.line))"
        }
        sections.append("**In** (\(incoming.count)):" + (incoming.isEmpty ? " none" : "\n"
            + incoming.map { line($0, other: "from `\($0.source)`") }.joined(separator: "\n")))
        sections.append("**Out** (\(outgoing.count)):" + (outgoing.isEmpty ? " none" : "\n"
            + outgoing.map { line($0, other: $0.target.map { "→ `\($0)`" }) }.joined(separator: "\n")))
        return sections
    }

    /// A property's verdict; for a violated one, its counterexample as steps, one a line.
    private func propertyVerdict(_ name: String, _ result: CheckResult) -> String {
        guard let machine = result.machine, let report = result.exploration,
              let k = machine.properties.firstIndex(where: { $0.name == name }), k < report.properties.count else {
            return "No verdict: the spec has errors, so it was not explored."
        }
        switch report.properties[k] {
        case .proven(let reason):
            return "**Proven**: " + reason
        case .violated(let c):
            let steps = c.witness.isEmpty ? ["1. the start"] : c.witness.enumerated().map { i, step in
                "\(i + 1). " + WitnessText.describe([step], machine)
            }
            return "**Violated**: \(c.reason)\n\nCounterexample (`check --counterexamples DIR` writes it as a log):\n"
                + steps.joined(separator: "\n")
        case .notDecided(let reason):
            return "**Not decided**: " + reason
        }
    }

    private func describe(_ t: TransitionSummary) -> String {
        "\(t.trigger)" + (t.target.map { " -> \($0)" } ?? "") + "  // in \(t.source)"
    }

    private func verdict(on t: TransitionSummary, _ result: CheckResult) -> String {
        guard let machine = result.machine, let report = result.exploration else {
            return "No verdict: the spec has errors, so it was not explored."
        }
        guard let transition = machine.transitions.first(where: { $0.keywordRange == t.keywordRange }) else {
            return "No verdict for this transition."
        }
        return words(report.transitions[transition.id.index], machine, report)
    }

    private func words(_ finding: ExplorationReport.Finding, _ machine: Machine, _ report: ExplorationReport) -> String {
        switch finding {
        case .reached(let steps):
            return "**Reachable**: " + WitnessText.describe(steps, machine)
        case .unreachable(let reason):
            return "**Unreachable** (proven): \(reason)"
        case .notReached:
            return "**Not reached** by the search, which is not a proof: " + ExplorationReport.notReachedReason(report)
        }
    }
}
