import Foundation
import Statecraft
import Testing
import TestSupport

/// `--format github`: workflow commands the Actions runner turns into annotations. Read
/// back by a parser written here from the runner's documented rules (independent of the
/// writer), including messages and paths built to break a careless escaper.
@Suite struct GitHubAnnotationTests {
    /// A workflow command as the runner reads it: `::name k=v,k=v::data`, where `%0D`,
    /// `%0A` and `%25` in the data, and also `%3A` and `%2C` in a value, stand for CR, LF,
    /// `%`, `:` and `,`.
    struct Command: Equatable {
        var name: String
        var properties: [String: String]
        var data: String

        init?(_ line: Substring) {
            guard line.hasPrefix("::"), let end = line.dropFirst(2).range(of: "::") else { return nil }
            let head = line[line.index(line.startIndex, offsetBy: 2)..<end.lowerBound]
            data = Command.unescape(String(line[end.upperBound...]), property: false)
            let space = head.firstIndex(of: " ")
            name = String(head[..<(space ?? head.endIndex)])
            properties = [:]
            if let space {
                for pair in head[head.index(after: space)...].split(separator: ",") {
                    guard let equals = pair.firstIndex(of: "=") else { return nil }
                    properties[String(pair[..<equals])] = Command.unescape(String(pair[pair.index(after: equals)...]), property: true)
                }
            }
        }

        init(name: String, properties: [String: String], data: String) {
            self.name = name
            self.properties = properties
            self.data = data
        }

        static func unescape(_ s: String, property: Bool) -> String {
            var out = s.replacingOccurrences(of: "%0D", with: "\r").replacingOccurrences(of: "%0A", with: "\n")
            if property {
                out = out.replacingOccurrences(of: "%3A", with: ":").replacingOccurrences(of: "%2C", with: ",")
            }
            return out.replacingOccurrences(of: "%25", with: "%")
        }
    }

    static func commands(_ text: String) -> [Command] {
        text.split(separator: "\n").compactMap(Command.init)
    }

    static let hostile = [
        "plain",
        "50% done: a, b",
        "two\nlines\r\nand a CR",
        "::error::injected",
        "%0A is not a line break, %25 is not a percent",
        "key=value,title=forged",
        "emoji ❤️ and tab\t",
    ]

    /// Whatever the message, title and path hold, each annotation is one line and reads back
    /// as written: nothing ends it early, forges a property or a second command.
    @Test(arguments: GitHubAnnotationTests.hostile)
    func escapingRoundTrips(text: String) {
        let annotation = GitHubAnnotations.Annotation(level: "warning", file: "dir,x:y/" + text + ".machine", line: 3,
                                                      column: 7, endLine: 3, endColumn: 9, title: text, message: text)
        let line = annotation.command
        #expect(line.hasSuffix("\n") && line.dropLast().allSatisfy { $0 != "\n" && $0 != "\r" })
        let parsed = GitHubAnnotationTests.commands(line)
        #expect(parsed == [Command(name: "warning", properties: [
            "file": "dir,x:y/" + text + ".machine", "line": "3", "col": "7", "endLine": "3", "endColumn": "9", "title": text,
        ], data: text)])
    }

    /// The escapes are exactly the runner's: `%` first, then CR and LF; `:` and `,` only in
    /// properties.
    @Test func escapesAreTheRunners() {
        #expect(GitHubAnnotations.escapeData("100%\r\n: ,") == "100%25%0D%0A: ,")
        #expect(GitHubAnnotations.escapeProperty("100%\r\n: ,") == "100%25%0D%0A%3A %2C")
    }

    /// `check --format github`: an annotation per diagnostic at its range, titled with its
    /// id, at its level, with its notes after the message; the summary line after them.
    @Test func checkAnnotatesEachDiagnostic() throws {
        let path = "Tests/CheckerTests/Fixtures/done-when.machine"
        let r = try CLI.run(["check", "--format", "github", path])
        #expect(r.status == 1)
        let commands = GitHubAnnotationTests.commands(r.stdout)
        #expect(commands.map(\.name) == ["error", "error", "error"])
        #expect(commands.map { $0.properties["title"] } == ["type-mismatch", "unknown-name", "unreachable-state"])
        #expect(commands[1].properties == ["file": path, "line": "9", "col": "30", "endLine": "9", "endColumn": "36",
                                           "title": "unknown-name"])
        #expect(commands[1].data == "unknown name 'amount'\nnote: did you mean 'count'? (line 9, column 30)")
        #expect(r.stdout.hasSuffix("checked 1 file: 3 errors, 0 warnings\n"))
        let warnings = try CLI.run(["check", "--format", "github", "Tests/CheckerTests/Fixtures/analysis.machine"])
        #expect(GitHubAnnotationTests.commands(warnings.stdout).contains { $0.name == "warning" })
    }

    /// `replay --format github`: an annotation at the log's line and column for each failed
    /// expectation and rejected event, one for a malformed line, one for a log that cannot
    /// be read; each log's summary line follows.
    @Test func replayAnnotatesTheLog() throws {
        let dir = try ReportTesting.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let log = dir.appendingPathComponent("drawer, 50%.jsonl")
        try """
            {"event": "touchBegan", "y": 300, "onContent": true, "time": 0}
            {"expect": "open"}
            {"case": "b", "expect": {"vars": {"originY": 5}}}
            {"event": "nope", "time": 1}

            """.write(to: log, atomically: true, encoding: .utf8)
        let r = try CLI.run(["replay", "--format", "github", "Specs/Drawer.machine", log.path, "missing.jsonl"])
        #expect(r.status == 2)
        let commands = GitHubAnnotationTests.commands(r.stdout)
        #expect(commands.map { $0.properties["title"] } == ["expectation-failed", "expectation-failed", "malformed-log-line",
                                                            "unreadable log"])
        #expect(commands[0].properties["file"] == log.path)
        #expect(commands[0].properties["line"] == "2" && commands[0].properties["col"] == "12")
        #expect(commands[0].data == "lines without a case: expected state 'open', found 'dragging'")
        #expect(commands[1].data == "case \"b\": expected originY = 5, found 0")
        #expect(commands[2].properties["line"] == "4")
        #expect(commands[3].properties["file"] == nil && commands[3].data.contains("missing.jsonl"))
        #expect(r.stdout.contains("replayed \(log.path): 2 cases"))
    }

    /// A spec whose properties a log breaks in three cases, each in its own way: a state
    /// (`never`, `always`), a precondition (`only after`) and a missed deadline.
    static let door = PropertySpecs.door

    /// `replay --format github` with broken properties: an `::error` per violation at the
    /// log's line (no column: a violation is about the line, not a place in it), titled with
    /// the property's name, its message the case and the report's sentence with the spec
    /// line; a rejected event of the same case keeps its own annotation after them.
    @Test func replayAnnotatesEachBrokenProperty() throws {
        let dir = try ReportTesting.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let spec = dir.appendingPathComponent("Door.machine")
        try Self.door.write(to: spec, atomically: true, encoding: .utf8)
        let log = dir.appendingPathComponent("door, 2:00.jsonl")
        try (PropertySpecs.doorLog + "\n" + """
            {"case": "c", "time": 2, "expect": "closed"}

            """).write(to: log, atomically: true, encoding: .utf8)
        let r = try CLI.run(["replay", "--format", "github", spec.path, log.path])
        #expect(r.status == 1)
        let lines = r.stdout.split(separator: "\n").map(String.init)
        let commands = GitHubAnnotationTests.commands(r.stdout)
        #expect(commands.count == lines.count - 1, "every line but the summary is one command: \(r.stdout)")
        func error(_ line: Int, _ title: String, _ data: String) -> Command {
            Command(name: "error", properties: ["file": log.path, "line": "\(line)", "title": title], data: data)
        }
        #expect(commands == [
            error(2, "noLockOpen", "case \"a\": property 'noLockOpen' (spec line 17) violated: "
                  + "'in(lockedOpen)' holds at t=3, in lockedOpen"),
            error(4, "shuts", "case \"a\": property 'shuts' (spec line 20) violated: after the trigger at t=0, "
                  + "'in(closed)' did not hold by the deadline t=5; the clock passed it at t=9"),
            error(3, "quiet", "case \"b\": property 'quiet' (spec line 19) violated: 'in(ringing)' holds at t=0, "
                  + "in ringing, and 'in(opened)' has not held before in this run"),
            error(7, "fewOpens", "case \"c\": property 'fewOpens' (spec line 18) violated: 'opens < 2' is false at t=2, in opened"),
            Command(name: "error", properties: ["file": log.path, "line": "8", "col": "36", "title": "expectation-failed"],
                    data: "case \"c\": expected state 'closed', found 'opened'"),
        ])
        // The runner splits properties at `,` and `:`: the path's are escaped.
        #expect(lines.first?.hasPrefix("::error file=\(dir.path.replacingOccurrences(of: ":", with: "%3A"))/door%2C 2%3A00.jsonl,line=2,title=noLockOpen::") == true,
                "\(lines.first ?? "")")
        #expect(lines.last == "replayed \(log.path): 3 cases, 7 events (6 applied, 1 ignored, 0 rejected), "
                + "1 expectation (1 failed), 4 property violations")
    }

    /// A log that keeps every property is annotated as before: nothing about properties.
    @Test func replayOfALogThatKeepsThePropertiesHasNoPropertyAnnotation() throws {
        let dir = try ReportTesting.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let spec = dir.appendingPathComponent("Door.machine")
        try Self.door.write(to: spec, atomically: true, encoding: .utf8)
        let log = dir.appendingPathComponent("kept.jsonl")
        try """
            {"event": "open"}
            {"time": 1, "event": "close"}
            {"time": 2, "expect": "opened"}

            """.write(to: log, atomically: true, encoding: .utf8)
        let r = try CLI.run(["replay", "--format", "github", spec.path, log.path])
        #expect(r.status == 1)
        #expect(r.stdout == "::error file=\(log.path),line=3,col=23,title=expectation-failed::lines without a case: "
                + "expected state 'opened', found 'closed'\n"
                + "replayed \(log.path): 1 case, 2 events (2 applied, 0 ignored, 0 rejected), 1 expectation (1 failed)\n")
    }
}
