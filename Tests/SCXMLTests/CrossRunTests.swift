import Foundation
import Statecraft
import Testing
import TestSupport

/// An SCXML engine we did not write runs our export: python-statemachine replays each
/// bundled session log against the exported document (`python/crossrun.py`), and after
/// every event line its configuration and the outputs of the line must be the ones
/// `statecraft replay` reaches, and the variables at the end the ones it reports.
@Suite struct CrossRunTests {
    static let python = ExternalTool.find("python3")
    static let script = Repository.root.appendingPathComponent("Tests/SCXMLTests/python/crossrun.py")
    static let installHint = "python3 -m pip install python-statemachine==3.2.2"

    /// Whether python3 can import python-statemachine 3.x.
    static let isAvailable: Bool = {
        guard let python else { return false }
        let check = "import sys, statemachine; sys.exit(0 if statemachine.__version__.startswith('3.') else 1)"
        return (try? python.run(["-c", check]).status) == 0
    }()

    static let skipReason: Comment = "python-statemachine 3 is not importable (\(installHint)); set STATECRAFT_REQUIRE_PYTHON_STATEMACHINE=1 to fail instead"

    /// Fails only where the cross-run is required and cannot run.
    @Test func pythonStatemachineIsInstalledWhereRequired() {
        if ExternalTool.isRequired("STATECRAFT_REQUIRE_PYTHON_STATEMACHINE") && !Self.isAvailable {
            Issue.record("STATECRAFT_REQUIRE_PYTHON_STATEMACHINE is set but python3 cannot import python-statemachine 3; \(Self.installHint)")
        }
    }

    /// Each bundled spec with its session, the exporter's fixture with a log that takes its
    /// timers, sends, raised payloads, history, interpolation and rounding, and `initial ->`
    /// (deep targets in two regions, and through a history state). (A history default that
    /// names several states, one per region, is not here: python-statemachine 3.2.2 enters
    /// only the first target of a history's default transition.)
    static let runs: [String] = ["Specs/VibrantButton", "Specs/MediaPlayer", "Specs/Drawer", "Specs/PeekRating",
                                 "Specs/PullToRefresh", "Specs/SwipeToDismiss", "Specs/CheckoutScreen", "Tests/SCXMLTests/Golden/export",
                                 "Tests/SCXMLTests/Golden/initial-targets"]

    @Test(.enabled(if: CrossRunTests.isAvailable, CrossRunTests.skipReason), arguments: CrossRunTests.runs)
    func configurationsAgreeAfterEveryLine(_ name: String) throws {
        let spec = Repository.root.appendingPathComponent(name + ".machine")
        let log = Repository.root.appendingPathComponent(name + ".session.jsonl")
        let machine = try #require(SCXMLFixtures.machine(spec))
        let document = SCXMLWriter.document(for: machine, source: SCXMLFixtures.relative(spec))
        let (theirs, finals) = try Self.crossRun(document, log: log, machine)
        let ours = try Self.replayConfigurations(machine, spec: spec, log: log)
        #expect(!theirs.isEmpty)
        for difference in try Self.variableDifferences(finals, machine, spec: spec, log: log) {
            Issue.record("\(difference)")
        }
        #expect(theirs.map(\.line) == ours.map(\.line), "the two runs did not report the same event lines")
        for (python, statecraft) in zip(theirs, ours) where python.line == statecraft.line {
            #expect(python.error == nil, "line \(python.line): python-statemachine raised \(python.error ?? "")")
            #expect(python.configuration == statecraft.configuration,
                    "line \(python.line): python-statemachine \(python.configuration), statecraft \(statecraft.configuration)")
            #expect(python.outputs == statecraft.outputs,
                    "line \(python.line): python-statemachine \(python.outputs), statecraft \(statecraft.outputs)")
        }
    }

    /// Documents of the kind people have rather than ones we export (`Golden/wild/`): the null
    /// data model, another data model with nothing to evaluate, `In(s)` without quotes,
    /// `cond=""`, Qt Creator's annotations, states without ids, a descriptor (`but.b.*`) that
    /// only the outside world sends, a `<cancel>` of nothing, eventless transitions that end
    /// a targetless one's loop, `<content>` and attributes computed from known strings, and
    /// the content of `<initial>` and history default transitions, and `_event`'s metadata
    /// (`type`, `sendid`, `origintype`, `typeof` of a field an event lacks), `<donedata>` read in
    /// the done transition, and a `<send eventexpr>` named at run time. Each is imported, and its
    /// spec replays the document's session as python-statemachine runs the document itself:
    /// the same configurations and outputs after every event line, the same data at the end.
    static let wildDocuments: [String] = ["lamp-null", "fan-ecmascript", "door-jexl", "counter-eventless", "courier-content",
                                          "tour-defaults", "relay-metadata", "parcel-done"]

    @Test(.enabled(if: CrossRunTests.isAvailable, CrossRunTests.skipReason), arguments: CrossRunTests.wildDocuments)
    func importedDocumentsRunAsTheDocumentDoes(_ name: String) throws {
        let folder = SCXMLFixtures.golden.appendingPathComponent("wild")
        let documentURL = folder.appendingPathComponent(name + ".scxml")
        let logURL = folder.appendingPathComponent(name + ".session.jsonl")
        let document = String(decoding: Repository.bytes(documentURL), as: UTF8.self)
        let imported = SCXMLImporter.translate(SourceFile(path: name + ".scxml", text: document), machineName: "Imported",
                                               sourceName: name + ".scxml")
        let text = try #require(imported.text, "\(imported.diagnostics.map(\.message))")
        let spec = try TemporaryFile(name: name + ".machine", contents: text)
        defer { spec.remove() }
        let machine = try #require(SCXMLFixtures.machine(spec.url), "the import of \(name) does not resolve:\n\(text)")
        let names = ImportedNames(header: text, machine: machine)
        // The session is in the document's event names, as the app that runs the document
        // sends them; the spec takes them in its own.
        let session = String(decoding: Repository.bytes(logURL), as: UTF8.self)
        let log = try TemporaryFile(name: name + ".session.jsonl", contents: try names.logInSpecNames(session))
        defer { log.remove() }
        let (theirs, finals) = try Self.crossRun(document, log: logURL, machine)
        let ours = try Self.replayConfigurations(machine, spec: spec.url, log: log.url)
        #expect(!theirs.isEmpty)
        for difference in try Self.variableDifferences(finals, machine, spec: spec.url, log: log.url) {
            Issue.record("\(difference)")
        }
        #expect(theirs.map(\.line) == ours.map(\.line), "the two runs did not report the same event lines")
        for (python, statecraft) in zip(theirs, ours) where python.line == statecraft.line {
            let theirStates = python.configuration.map { $0.hasPrefix("__auto_") ? ImportedNames.withoutID : $0 }.sorted()
            let ourStates = statecraft.configuration.map(names.documentState).sorted()
            #expect(python.error == nil, "line \(python.line): python-statemachine raised \(python.error ?? "")")
            #expect(theirStates == ourStates, "line \(python.line): python-statemachine \(theirStates), statecraft \(ourStates)")
            #expect(python.outputs == statecraft.outputs,
                    "line \(python.line): python-statemachine \(python.outputs), statecraft \(statecraft.outputs)")
        }
    }

    /// The comparison can fail: a document with one target changed parts ways with the spec
    /// at the line that takes that transition, one that counts wrong ends with another
    /// value, and one whose output has an argument differs at the line that emits it.
    @Test(.enabled(if: CrossRunTests.isAvailable, CrossRunTests.skipReason))
    func aWrongDocumentIsCaught() throws {
        let spec = Repository.specs.appendingPathComponent("MediaPlayer.machine")
        let log = Repository.specs.appendingPathComponent("MediaPlayer.session.jsonl")
        let machine = try #require(SCXMLFixtures.machine(spec))
        let original = #"<transition event="enterFullscreen" target="fullscreen"/>"#
        let document = SCXMLWriter.document(for: machine, source: nil)
        #expect(document.contains(original))
        let wrong = document.replacingOccurrences(of: original, with: #"<transition event="enterFullscreen" target="inline"/>"#)
        let theirs = try Self.crossRun(wrong, log: log, machine).steps
        let ours = try Self.replayConfigurations(machine, spec: spec, log: log)
        let first = zip(theirs, ours).first { $0.configuration != $1.configuration }
        #expect(first?.0.line == 11, "the changed target was not noticed at line 11 (enterFullscreen)")

        let counted = #"<assign location="stalls" expr="stalls + 1"/>"#
        #expect(document.contains(counted))
        let miscounted = document.replacingOccurrences(of: counted, with: #"<assign location="stalls" expr="stalls + 2"/>"#)
        let finals = try Self.crossRun(miscounted, log: log, machine).finals
        #expect(try Self.variableDifferences(finals, machine, spec: spec, log: log).count == 1)

        let finished = #"<log label="finished"/>"#
        #expect(document.contains(finished))
        let chatty = document.replacingOccurrences(of: finished, with: #"<log label="finished" expr="1"/>"#)
        let outputs = try Self.crossRun(chatty, log: log, machine).steps
        let differing = zip(outputs, ours).filter { $0.outputs != $1.outputs }.map(\.0.line)
        #expect(differing == [38], "the output with an argument was not noticed at line 38 (reachedEnd) alone")
    }

    struct Step: Equatable {
        var line: Int
        var configuration: [String]
        /// The outputs of the line, as `name(arg, …)` with numbers to 1e-9.
        var outputs: [String]
        var error: String?
    }

    /// An output as text both sides can be compared by: its arguments read with the types
    /// the spec declares (JSON does not tell 1 from true everywhere), numbers to 1e-9.
    static func outputText(_ object: Any, _ machine: Machine) throws -> String {
        let output = try #require(object as? [String: Any])
        let name = try #require(output["name"] as? String)
        let args = try #require(output["args"] as? [Any])
        let fields = machine.outputs.first { $0.name == name }?.fields ?? []
        let texts = args.enumerated().map { i, arg -> String in
            switch (i < fields.count ? fields[i].type : nil, arg) {
            case (.bool?, let n as NSNumber): return n.boolValue ? "true" : "false"
            case (.number?, let n as NSNumber): return Value.number((n.doubleValue * 1e9).rounded() / 1e9).description
            case (_, let s as String): return Value.string(s).description
            default: return "\(arg)"
            }
        }
        return name + "(" + texts.joined(separator: ", ") + ")"
    }

    /// Where the variables at the end of each case of the log differ from the ones replay
    /// reports (numbers within 1e-9): expressions that do not decide a transition count too.
    static func variableDifferences(_ finals: [String: [String: Any]], _ machine: Machine, spec: URL,
                                    log: URL) throws -> [String] {
        let replay = SCXMLFixtures.run(["replay", "--format", "json", spec.path, log.path])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(replay.out.utf8)) as? [String: Any])
        let cases = try #require((report["logs"] as? [[String: Any]])?.first?["cases"] as? [[String: Any]])
        var differences: [String] = []
        if cases.count != finals.count { differences.append("\(cases.count) cases replayed, \(finals.count) run") }
        for c in cases {
            let key = Self.caseKey(c["case"])
            let ours = try #require(c["variables"] as? [String: Any])
            guard let theirs = finals[key] else {
                differences.append("case \(key) was not run")
                continue
            }
            for variable in machine.variables where !Self.same(ours[variable.name], theirs[variable.name], variable.type) {
                differences.append("case \(key), \(variable.name): statecraft \(String(describing: ours[variable.name])), "
                                   + "python-statemachine \(String(describing: theirs[variable.name]))")
            }
        }
        return differences
    }

    static func same(_ a: Any?, _ b: Any?, _ type: ValueType) -> Bool {
        switch (a, b) {
        case (let x as String, let y as String): x == y
        case (let x as NSNumber, let y as NSNumber) where type == .bool: x.boolValue == y.boolValue
        case (let x as NSNumber, let y as NSNumber): abs(x.doubleValue - y.doubleValue) <= 1e-9
        default: false
        }
    }

    /// A case's name as crossrun.py prints it (JSON), so the two sides match.
    static func caseKey(_ value: Any?) -> String {
        guard let value, !(value is NSNull) else { return "null" }
        if let s = value as? String { return "\"\(s)\"" }
        return "\(value)"
    }

    /// Runs `crossrun.py` on the document and the log: the steps, and the data model at the
    /// end of each case (by `caseKey`).
    static func crossRun(_ document: String, log: URL, _ machine: Machine) throws -> (steps: [Step], finals: [String: [String: Any]]) {
        let python = try #require(Self.python)
        let file = try TemporaryFile(name: "export.scxml", contents: document)
        defer { file.remove() }
        let run = try python.run([script.path, file.url.path, log.path])
        try #require(run.status == 0, "crossrun.py failed (exit \(run.status)): \(run.stderr)")
        var steps: [Step] = []
        var finals: [String: [String: Any]] = [:]
        for line in run.stdout.split(separator: "\n") {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            if let variables = object["variables"] as? [String: Any] {
                finals[Self.caseKey(object["case"])] = variables
                continue
            }
            let outputs = try #require(object["outputs"] as? [Any]).map { try Self.outputText($0, machine) }
            steps.append(Step(line: try #require(object["line"] as? Int),
                              configuration: try #require(object["configuration"] as? [String]).sorted(),
                              outputs: outputs, error: object["error"] as? String))
        }
        return (steps, finals)
    }

    /// `statecraft replay --trace --format jsonl`: for each event line of the log, the
    /// outputs of its steps and the configuration after its last step (timers due before a line are reported at it, and
    /// events the machine sent itself after it; a timer that comes due at an expectation
    /// line's time is reported at that line, which is not compared). A step of a machine
    /// replayed without parallel states has no `configuration`: its active leaves and their
    /// ancestors are.
    static func replayConfigurations(_ machine: Machine, spec: URL, log: URL) throws -> [Step] {
        let replay = SCXMLFixtures.run(["replay", "--trace", "--format", "jsonl", spec.path, log.path])
        try #require(replay.status == 0, "replay failed: \(replay.err)")
        let logLines = String(decoding: Repository.bytes(log), as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        let eventLines = Set(logLines.indices.filter { i in
            let object = try? JSONSerialization.jsonObject(with: Data(logLines[i].utf8)) as? [String: Any]
            return object?["event"] != nil
        }.map { $0 + 1 })
        var steps: [Step] = []
        for line in replay.out.split(separator: "\n") {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            guard let number = object["line"] as? Int, eventLines.contains(number) else { continue }
            let configuration: [String]
            if let names = object["configuration"] as? [String] {
                configuration = names
            } else {
                let leaves = try #require(object["to"] as? String).components(separatedBy: ", ")
                var names = Set<String>()
                for leaf in leaves {
                    let id = try #require(machine.state(named: leaf), "unknown state \(leaf)")
                    names.insert(leaf)
                    for ancestor in machine.properAncestors(id) where ancestor != machine.root {
                        names.insert(machine[ancestor].name)
                    }
                }
                configuration = Array(names)
            }
            let outputs = try #require(object["outputs"] as? [Any]).map { try Self.outputText($0, machine) }
            if steps.last?.line == number {
                steps[steps.count - 1].configuration = configuration.sorted()
                steps[steps.count - 1].outputs += outputs
            } else {
                steps.append(Step(line: number, configuration: configuration.sorted(), outputs: outputs))
            }
        }
        return steps
    }
}

/// The names an import wrote differently, read from the list at the top of the spec
/// (`//   state "a-b" is a_b`, `//   <state> without an id (line 9) is state1`): how a
/// python-statemachine run and a replay of the spec name the same states and events.
struct ImportedNames {
    /// How a state the document left without an id is compared (python-statemachine names
    /// them `__auto_…`, the import after their kind).
    static let withoutID = "(no id)"
    var states: [String: String] = [:]
    /// SCXML name -> ours, for every event the spec declares.
    var events: [String: String] = [:]

    init(header: String, machine: Machine) {
        var renamedEvents: [String: String] = [:]
        for line in header.split(separator: "\n") where line.hasPrefix("//   ") {
            let words = line.dropFirst(5)
            guard let isRange = words.range(of: " is ", options: .backwards) else { continue }
            let ours = String(words[isRange.upperBound...])
            let what = words[..<isRange.lowerBound]
            if what.hasPrefix("<"), what.contains("> without an id") {
                states[ours] = Self.withoutID
            } else if what.hasPrefix("state \""), what.hasSuffix("\"") {
                states[ours] = String(what.dropFirst(7).dropLast())
            } else if what.hasPrefix("event \""), what.hasSuffix("\"") {
                renamedEvents[ours] = String(what.dropFirst(7).dropLast())
            }
        }
        for event in machine.events { events[renamedEvents[event.name] ?? event.name] = event.name }
    }

    func documentState(_ ours: String) -> String { states[ours] ?? ours }

    /// The session with each event as the spec names it: the event itself, or the longest
    /// event it extends (`but.b.press` is `but.b`, which a descriptor `but.b.*` made an event
    /// of the spec; every descriptor that matches the one matches the other, since a more
    /// particular one would have declared its own event).
    func logInSpecNames(_ session: String) throws -> String {
        var lines: [String] = []
        for line in session.split(separator: "\n", omittingEmptySubsequences: false) {
            guard var object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  let event = object["event"] as? String else {
                lines.append(String(line))
                continue
            }
            let match = events.keys.filter { event == $0 || event.hasPrefix($0 + ".") }.max { $0.count < $1.count }
            guard let key = match, let ours = events[key] else {
                Issue.record("the spec has no event for \(event)")
                lines.append(String(line))
                continue
            }
            object["event"] = ours
            let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
            lines.append(String(decoding: data, as: UTF8.self))
        }
        return lines.joined(separator: "\n")
    }
}
