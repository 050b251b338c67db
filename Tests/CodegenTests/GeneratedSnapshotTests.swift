import Foundation
import GeneratedMachines
import Statecraft
import Testing
import TestSupport

/// A generated type refuses a snapshot exactly when the runtime does, with the same problems
/// (GeneratedDifferentialTests holds the documents and the continuations to each other).
@Suite struct GeneratedSnapshotTests {
    /// Broken and outdated versions of a snapshot: malformed JSON, another version or machine,
    /// names the spec does not have, values of another type.
    static func variants(of json: String) -> [String] {
        func replacing(_ old: String, _ new: String) -> String? {
            guard let range = json.range(of: old) else { return nil }
            return json.replacingCharacters(in: range, with: new)
        }
        let candidates: [String?] = [
            String(json.prefix(json.count / 2)),
            replacing("\"snapshot\": 1", "\"snapshot\": 2"),
            replacing("\"machine\": \"", "\"machine\": \"Other"),
            replacing("\"now\": ", "\"clock\": "),
            replacing("\"finished\": false", "\"finished\": 0"),
            // A flat machine finished in a state that is not final: refused by both.
            replacing("\"finished\": false", "\"finished\": true"),
            replacing("\"configuration\": [\"", "\"configuration\": [\"gone."),
            replacing("\"configuration\": [", "\"configuration\": [\"nowhere\", "),
            replacing("\"variables\": {", "\"variables\": {\"ghost\": 1, "),
            replacing("\"variables\": {", "\"variables\": 3, \"x\": {"),
            replacing(": true", ": 1"),
            replacing(": false", ": \"no\""),
            replacing("\"index\": 0", "\"index\": 7"),
            replacing("\"index\": 0", "\"index\": 0.5"),
            replacing("\"pending\": [", "\"pending\": [{\"send\": \"nothing\", \"payload\": {}, \"deadline\": 1}, {\"at\": 2}, "),
            replacing("\"history\": {", "\"history\": {\"nowhere\": [], "),
            replacing("\"history\": {", "\"history\": [], \"h\": {"),
            replacing("{\n  \"snapshot\"", "[\n  \"snapshot\""),
            "{\"snapshot\": 1, \"machine\": 4}",
            "{}",
        ]
        // The configuration without its last state: for a statechart, a compound state left
        // without an active state, or a parallel one without a region.
        var shortened: String?
        if let start = json.range(of: "\"configuration\": ["), let end = json[start.upperBound...].firstIndex(of: "]") {
            let names = json[start.upperBound..<end].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            if names.count > 1 {
                shortened = json.replacingCharacters(in: start.upperBound..<end, with: names.dropLast().joined(separator: ", "))
            }
        }
        return (candidates + [shortened]).compactMap { $0 }
    }

    static func check<M: GeneratedMachine>(_ type: M.Type, spec: String, events: Int) throws {
        let program = try GeneratedDifferentialTests.program(spec)
        var pair = GeneratedDifferentialTests.Pair<M>(program)
        #expect(pair.start() == nil)
        let inputs = GeneratedDifferentialTests.Inputs(program.machine)
        var rng = SplitMix64(seed: 7)
        var refused = 0
        for step in 0..<events {
            let event = program.machine.events[Int(rng.next() % UInt64(program.machine.events.count))]
            let payload = event.fields.map { inputs.value($0.type, &rng) }
            if let difference = pair.step(event.id, payload, at: pair.instance.now + 0.5) {
                Issue.record("\(spec), step \(step): \(difference)")
                return
            }
            guard step % 10 == 9 else { continue }
            for variant in variants(of: pair.instance.snapshotJSON()) {
                let runtime: String
                do {
                    _ = try Instance(restoring: variant, program: program)
                    runtime = "restored"
                } catch {
                    runtime = error.description
                }
                let generated: String
                do {
                    _ = try M(restoring: variant)
                    generated = "restored"
                } catch {
                    generated = error.description
                }
                #expect(generated == runtime, "\(spec), step \(step), snapshot:\n\(variant)")
                if runtime != "restored" { refused += 1 }
            }
        }
        #expect(refused > 0)
    }

    @Test func refusalsNameWhatTheRuntimeNames() throws {
        for (spec, type) in generatedMachines where spec.hasPrefix("Specs/") || spec.hasPrefix("random-chart:") {
            try Self.check(type, spec: spec, events: 60)
        }
    }
}
