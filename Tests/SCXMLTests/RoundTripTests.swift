import Foundation
import Testing
import TestSupport

/// `statecraft import` of `statecraft scxml`'s export is the same machine: every bundled
/// spec (and the exporter's fixture) goes out to SCXML and back, and each of its logs
/// replays with the same result against both: pass or fail, and per case the states, the
/// outputs, the counts of applied, ignored and rejected events, timers and sent events, the
/// expectations and failures, and the values of the original's variables.
@Suite struct RoundTripTests {
    static var cases: [(spec: String, logs: [String])] {
        let specs = Repository.specFiles().map { url -> (String, [String]) in
            let name = url.deletingPathExtension().lastPathComponent
            let logs = ((try? FileManager.default.contentsOfDirectory(atPath: Repository.specs.path)) ?? [])
                .filter { $0.hasPrefix(name + ".") && $0.hasSuffix(".jsonl") }.sorted()
                .map { "Specs/" + $0 }
            return ("Specs/\(name).machine", logs)
        }
        return specs + ["export", "initial-targets"].map { name in
            ("Tests/SCXMLTests/Golden/\(name).machine", ["Tests/SCXMLTests/Golden/\(name).session.jsonl"])
        }
    }

    /// The parts of a replay's JSON report that say what the machine did.
    static func outcome(_ json: String, variables: Set<String>?) throws -> [[String: String]] {
        let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        let logs = object?["logs"] as? [[String: Any]] ?? []
        var result: [[String: String]] = []
        for log in logs {
            result.append(["passed": "\(log["passed"] ?? "")", "error": "\(log["error"] ?? "")"])
            for c in log["cases"] as? [[String: Any]] ?? [] {
                var row: [String: String] = [:]
                for key in ["case", "state", "configuration", "finished", "started", "settled", "applied", "ignored", "rejected",
                            "timersFired", "sentTaken", "expectations", "failureCount", "time"] {
                    row[key] = "\(c[key] ?? "-")"
                }
                let outputs = try JSONSerialization.data(withJSONObject: c["outputs"] ?? [], options: [.sortedKeys])
                row["outputs"] = String(decoding: outputs, as: UTF8.self)
                for (name, value) in c["variables"] as? [String: Any] ?? [:] where variables?.contains(name) ?? true {
                    row["var " + name] = "\(value)"
                }
                result.append(row)
            }
        }
        return result
    }

    /// A delay written with a constant goes out as milliseconds, which SCXML runs, and as
    /// written, in our namespace, which the importer writes back.
    @Test func aNamedDelayKeepsItsName() throws {
        let spec = """
            machine Named {
                const patience = 1.5s
                const twice = 2
                event go
                initial state a {
                    on go -> b
                    after patience * twice -> c
                }
                state b { after patience -> a }
                final state c
            }
            """
        let scxml = try CLI.run(["scxml", "-"], input: spec)
        #expect(scxml.status == 0, "\(scxml.stderr)")
        #expect(scxml.stdout.contains("delay=\"3000ms\" statecraft:after=\"patience * twice\""), "\(scxml.stdout)")
        #expect(scxml.stdout.contains("delay=\"1500ms\" statecraft:after=\"patience\""), "\(scxml.stdout)")
        let back = try CLI.run(["import", "-"], input: scxml.stdout)
        #expect(back.status == 0, "\(back.stderr)")
        #expect(back.stdout.contains("after patience * twice -> c"), "\(back.stdout)")
        #expect(back.stdout.contains("after patience -> a"), "\(back.stdout)")
        let checked = try CLI.run(["check", "-"], input: back.stdout)
        #expect(checked.status == 0 && (checked.stdout + checked.stderr).contains("0 errors, 0 warnings"), "\(checked.stdout)\(checked.stderr)")
    }

    @Test(arguments: RoundTripTests.cases.map(\.spec))
    func importOfTheExportReplaysTheSame(spec: String) throws {
        let logs = try #require(Self.cases.first { $0.spec == spec }?.logs)
        #expect(!logs.isEmpty, "\(spec) has a log to replay")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("roundtrip-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let scxml = folder.appendingPathComponent("out.scxml").path
        let back = folder.appendingPathComponent("back.machine").path
        let exported = try CLI.run(["scxml", spec, "-o", scxml])
        #expect(exported.status == 0, "\(exported.stderr)")
        let imported = try CLI.run(["import", scxml, "-o", back])
        #expect(imported.status == 0, "\(imported.stderr)")
        guard exported.status == 0 && imported.status == 0 else { return }
        // Nothing the spec names is lost on the way (issue 31: a constant used as a delay was
        // inlined, and came back unused).
        let warned = try CLI.run(["check", spec])
        let warnedAgain = try CLI.run(["check", back])
        #expect((warned.stdout + warned.stderr).contains("[unused-constant]")
                == (warnedAgain.stdout + warnedAgain.stderr).contains("[unused-constant]"), "\(warnedAgain.stdout)\(warnedAgain.stderr)")
        // What import writes is already in the layout of `statecraft fmt`.
        let formatted = try CLI.run(["fmt", "--check", back])
        #expect(formatted.status == 0, "\(formatted.stdout)")
        for log in logs {
            let original = try CLI.run(["replay", "--format", "json", spec, log])
            let again = try CLI.run(["replay", "--format", "json", back, log])
            #expect(original.status == again.status, "\(log): \(again.stdout)")
            // The original's variables, by name (the import makes every variable public and
            // keeps `let` values as variables, so it has more).
            let first = try Self.outcome(original.stdout, variables: nil)
            let names = Set(first.flatMap { $0.keys.filter { $0.hasPrefix("var ") }.map { String($0.dropFirst(4)) } })
            let second = try Self.outcome(again.stdout, variables: names)
            #expect(first == second, "\(log)\n\(first)\n\(second)")
        }
    }
}
