import Foundation
import Statecraft
import Testing
import TestSupport

/// `statecraft swift` and the names of payload fields: the generated code binds an event's
/// fields as locals of their own names, beside the type's members and its own locals, so a
/// field named like one of those is refused at the field, with why, rather than written as
/// Swift that does not compile (or that reads another value). A field named like a Swift
/// keyword is written in backticks and compiles.
@Suite struct FieldNameSwiftTests {
    /// A folder of its own for one test, removed by the caller's `defer`.
    func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("field-names-swift-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test(arguments: [
        ("core", "has the name of a member of the generated type"),
        ("pending", "has the name of a member of the generated type"),
        ("transition0_go", "has the name of a member of the generated type"),
        ("before", "has the name of a local value of the generated code"),
        ("fields", "has the name of a local value of the generated code"),
        ("taken", "has the name of a local value of the generated code"),
        ("local0", "has the name of a local value of the generated code"),
        ("Double", "has a name the generated code uses for Swift's 'Double'"),
        ("self", "is a name Swift keeps for itself, even in backticks"),
        ("_", "is a name Swift keeps for itself, even in backticks"),
    ])
    func anEventFieldNamedLikeWhatTheCodeUsesIsRefused(name: String, why: String) throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let spec = folder.appendingPathComponent("clash.machine")
        let text = """
            machine Clash {
                public var n: Number = 0
                event go(other: Number, \(name): Number)
                initial state a {
                    on go if \(name) > pi -> a { let y = \(name) + 1; n = y + other }
                }
            }

            """
        try Data(text.utf8).write(to: spec)
        let out = folder.appendingPathComponent("Clash.swift")
        let run = try CLI.run(["swift", spec.path, "-o", out.path])
        #expect(run.status == 2, "\(run.stderr)")
        #expect(run.stderr.contains("clash.machine:3:29: error: field '\(name)' of event 'go' \(why); rename it"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out.path), "no file is written")
    }

    /// A statechart's `send` binds a lone event's payload fields beside the local holding the
    /// transition it chose: a field with a short name (`t`) must not be hidden by it, nor hide it.
    @Test(.enabled(if: ExternalTool.find("swiftc") != nil, "needs swiftc"))
    func aShortFieldNameBesideALoneSendCompiles() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let spec = folder.appendingPathComponent("short.machine")
        let text = """
            machine Short {
                public var n: Number = 0
                event go(t: Number)
                initial parallel state p {
                    state r1 {
                        initial state a { on go if t > 1 -> b { n = t } }
                        state b
                    }
                    state r2 { initial state c }
                }
            }

            """
        try Data(text.utf8).write(to: spec)
        let swift = folder.appendingPathComponent("Short.swift")
        let run = try CLI.run(["swift", spec.path, "-o", swift.path])
        try #require(run.status == 0, "\(run.stderr)")
        let generated = try String(contentsOf: swift, encoding: .utf8)
        #expect(generated.contains("case .go(let t):\n            let taken: Int"), "the lone path binds the field beside its own local")
        let swiftc = try #require(ExternalTool.find("swiftc"))
        let compile = try swiftc.run(["-swift-version", "6", "-warnings-as-errors", "-typecheck", swift.path])
        #expect(compile.status == 0, "\(compile.stdout)\(compile.stderr)")
    }

    /// A variable is a member of the generated type: one named like another member (the
    /// statechart's `takeAlone` and `started` too) or like a numbered transition function or
    /// completion slot would be declared twice.
    @Test(arguments: ["takeAlone", "started", "transition0", "completion1_0"])
    func aVariableNamedLikeAGeneratedMemberIsRefused(name: String) throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let spec = folder.appendingPathComponent("clash.machine")
        let text = """
            machine Clash {
                public var \(name): Number = 0
                event go
                initial parallel state p {
                    state r1 { initial state a { on go -> b { \(name) = 1 } } state b }
                    state r2 { initial state c }
                }
            }

            """
        try Data(text.utf8).write(to: spec)
        let out = folder.appendingPathComponent("Clash.swift")
        let run = try CLI.run(["swift", spec.path, "-o", out.path])
        #expect(run.status == 2, "\(run.stderr)")
        #expect(run.stderr.contains("clash.machine:2:16: error: variable '\(name)' has the name of a member of the generated type; rename it"),
                "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out.path), "no file is written")
    }

    @Test func aCompletionFieldNamedSelfTypeIsRefused() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let spec = folder.appendingPathComponent("clash.machine")
        let text = """
            machine Clash {
                public var n: Number = 0
                event go
                initial state s {
                    initial state a { on go -> f }
                    final state f(Self: 1)
                    done -> s { n = Self }
                }
            }

            """
        try Data(text.utf8).write(to: spec)
        let run = try CLI.run(["swift", spec.path])
        #expect(run.status == 2)
        #expect(run.stderr.contains("clash.machine:6:23: error: field 'Self' of final state 'f' is a name Swift keeps for itself, even in backticks; rename it"),
                "\(run.stderr)")
    }

    @Test func anOutputFieldNamedUnderscoreIsRefused() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let spec = folder.appendingPathComponent("clash.machine")
        let text = """
            machine Clash {
                event go
                output shown(_: Number)
                initial state a { on go { emit shown(1) } }
            }

            """
        try Data(text.utf8).write(to: spec)
        let run = try CLI.run(["swift", spec.path])
        #expect(run.status == 2)
        #expect(run.stderr.contains("clash.machine:3:18: error: field '_' of output 'shown' is a name Swift keeps for itself, even in backticks; rename it"),
                "\(run.stderr)")
    }

    /// Keywords, and `text`, the name of a member the code only names as `Self.text`.
    static let fieldNames = ["inout", "in", "func", "return", "Type", "init", "Any", "static", "text"]

    /// Payload fields named like Swift keywords (or `text`), of events, outputs and a completion, read in
    /// guards and actions, sent, raised and cancelled: flat and statechart alike compile, without
    /// a warning (a label is in backticks only where Swift needs them: `inout`).
    @Test(.enabled(if: ExternalTool.find("swiftc") != nil, "swiftc is not on PATH"), arguments: [false, true])
    func keywordFieldsCompile(chart: Bool) throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let names = Self.fieldNames
        let declared = names.map { "\($0): Number" }.joined(separator: ", ")
        let sum = names.joined(separator: " + ")
        let sends = names.indices.map(String.init).joined(separator: ", ")
        let rest = chart ? [
            "        on later { send go(\(sends)) after 1s; raise tick }",
            "        on tick { cancel go }",
            "    }",
            "    state b {",
            "        initial state b1 { on go -> done1 }",
            "        final state done1(\(names.map { "\($0): n" }.joined(separator: ", ")))",
            "        done -> a { n = \(sum) }",
            "    }",
        ] : [
            "    }",
            "    state b {",
            "        on go -> a { n = \(names[2]) }",
            "    }",
        ]
        let text = ([
            "machine Keywords {",
            "    public var n: Number = 0",
            "    event go(\(declared))",
            "    event later",
            "    event tick",
            "    output shown(\(declared))",
            "    initial state a {",
            "        on go if \(names[0]) > \(names[1]) -> b { n = \(sum); emit shown(\(names.joined(separator: ", "))) }",
            "        on go { n = \(names.reversed().joined(separator: " - ")) }",
        ] + rest + ["}", ""]).joined(separator: "\n")
        let spec = folder.appendingPathComponent("keywords.machine")
        try Data(text.utf8).write(to: spec)
        let swift = folder.appendingPathComponent("Keywords.swift")
        let run = try CLI.run(["swift", spec.path, "-o", swift.path])
        try #require(run.status == 0, "\(run.stderr)")
        let generated = try String(contentsOf: swift, encoding: .utf8)
        #expect(generated.contains("`inout`"))
        let swiftc = try #require(ExternalTool.find("swiftc"))
        let compile = try swiftc.run(["-swift-version", "6", "-warnings-as-errors", "-typecheck", swift.path])
        #expect(compile.status == 0, "\(compile.stdout)\(compile.stderr)")
    }
}
