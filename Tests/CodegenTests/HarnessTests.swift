import Foundation
import Statecraft
import Testing
import TestSupport

/// `statecraft swift SPEC --harness DIR`: the package it writes builds, and its
/// `replay-generated` prints, for every log, the document `statecraft replay --format json`
/// prints (every field of every case, the error, the warnings) with the same exit status.
///
/// The logs: each bundled spec's session log, and under `Logs/` hostile ones (malformed
/// lines, unknown events, payloads of the wrong type, cut last lines, headers, failing
/// expectations of every form, timers, faults, a machine that cannot start), and ones that
/// break and keep properties of every form (`properties`, a flat machine, and
/// `watched-properties`, a statechart with timers, a sent event and expressions that fail).
///
/// One harness is built with `swift build` (the package builds as written); the others are
/// compiled together by one `swiftc` call into one executable that takes the machine's type as
/// its first argument (their shared sources are the same bytes, which the test checks, and
/// each type has its own name): a package build per spec would cost half a minute each.
@Suite struct HarnessTests {
    /// A spec and its logs (files, or a fixture's folder under `Logs/`, which both expand to
    /// its `*.jsonl` files); `built` is the one whose package `swift build` builds.
    struct Subject {
        var spec: String
        var logs: [String]
        var logCount: Int
        var built = false
        /// The type's name: the goldens' (`Fixture_timer_loop`), unique among the subjects.
        var typeName: String { GeneratedSwiftTests.typeName(spec) }
    }

    static let logFolder = "Tests/CodegenTests/Logs"

    /// Every bundled spec with a session log, and every fixture with logs under `Logs/`.
    static let subjects: [Subject] = {
        let fm = FileManager.default
        func hostile(_ name: String) -> [String] {
            let dir = Repository.root.appendingPathComponent("\(logFolder)/\(name)")
            let files = (try? fm.contentsOfDirectory(atPath: dir.path)) ?? []
            return files.filter { $0.hasSuffix(".jsonl") }.sorted().map { "\(logFolder)/\(name)/\($0)" }
        }
        var subjects: [Subject] = []
        for url in Repository.specFiles() {
            let name = url.deletingPathExtension().lastPathComponent
            let session = "Specs/\(name).session.jsonl"
            guard fm.fileExists(atPath: Repository.root.appendingPathComponent(session).path) else { continue }
            let logs = [session] + hostile(name)
            subjects.append(Subject(spec: "Specs/\(name).machine", logs: logs, logCount: logs.count, built: name == "PullToRefresh"))
        }
        let folders = ((try? fm.contentsOfDirectory(atPath: Repository.root.appendingPathComponent(logFolder).path)) ?? []).sorted()
        for name in folders where !subjects.contains(where: { $0.spec == "Specs/\(name).machine" }) {
            subjects.append(Subject(spec: "Tests/CheckerTests/Fixtures/\(name).machine", logs: ["\(logFolder)/\(name)"],
                                    logCount: hostile(name).count))
        }
        return subjects
    }()

    static var hasSwift: Bool { ExternalTool.find("swift") != nil && ExternalTool.find("swiftc") != nil }

    /// A fresh folder, removed by the caller.
    static func temporaryFolder(_ name: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("statecraft-\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test(.enabled(if: hasSwift, "swift and swiftc are not on PATH"))
    func everyHarnessPrintsWhatReplayPrints() throws {
        let fm = FileManager.default
        let folder = try Self.temporaryFolder("harness")
        defer { try? fm.removeItem(at: folder) }
        // Write every harness: statecharts and flat machines alike.
        var written: [Subject] = []
        for subject in Self.subjects {
            let dir = folder.appendingPathComponent(subject.typeName)
            let run = try CLI.run(["swift", subject.spec, "--type-name", subject.typeName, "--harness", dir.path])
            #expect(run.status == 0, "\(subject.spec): \(run.stderr)")
            if run.status == 0 { written.append(subject) }
        }
        let builtSubject = written.first { $0.built }
        let built = try #require(builtSubject)
        let together = written.filter { !$0.built }
        #expect(!together.isEmpty)
        func sources(_ subject: Subject) -> URL {
            folder.appendingPathComponent("\(subject.typeName)/Sources/ReplayGenerated")
        }
        // The shared sources: every harness holds the same bytes.
        let perMachine = { (subject: Subject) in ["\(subject.typeName).swift", "\(subject.typeName)+Replay.swift",
                                                  "\(subject.typeName)+Properties.swift"] }
        let own: (Subject) -> Set<String> = { Set(perMachine($0) + ["main.swift"]) }
        let shared = try fm.contentsOfDirectory(atPath: sources(built).path).filter { !own(built).contains($0) }.sorted()
        #expect(shared.count == 6)
        for subject in together {
            for name in shared {
                #expect(fm.contents(atPath: sources(subject).appendingPathComponent(name).path)
                        == fm.contents(atPath: sources(built).appendingPathComponent(name).path), "\(subject.spec): \(name)")
            }
        }
        var files = shared.map { sources(built).appendingPathComponent($0).path }
        for subject in together {
            files += perMachine(subject).map { sources(subject).appendingPathComponent($0).path }
        }
        let main = folder.appendingPathComponent("main.swift")
        try (["#if canImport(Glibc)", "import Glibc", "#elseif canImport(Darwin)", "import Darwin", "#endif",
              "let logs = Array(CommandLine.arguments.dropFirst(2))", "switch CommandLine.arguments[1] {"]
            + together.map { "case \"\($0.typeName)\": exit(ReplayCommand.run(\($0.typeName).self, arguments: logs))" }
            + ["default: exit(3)", "}", ""]).joined(separator: "\n").write(to: main, atomically: true, encoding: .utf8)
        let executable = folder.appendingPathComponent("replay-generated").path
        // The package build and the compilation of the others, at once.
        nonisolated(unsafe) var build: ExternalTool.Run?
        nonisolated(unsafe) var compile: ExternalTool.Run?
        let group = DispatchGroup()
        let swift = try #require(ExternalTool.find("swift")), swiftc = try #require(ExternalTool.find("swiftc"))
        let package = folder.appendingPathComponent(built.typeName).path
        DispatchQueue.global().async(group: group) { build = try? swift.run(["build", "--package-path", package]) }
        compile = try swiftc.run(["-swift-version", "6", "-warnings-as-errors", "-module-name", "ReplayGenerated",
                                  "-o", executable, main.path] + files)
        group.wait()
        try #require(build?.status == 0, "\(build?.stdout ?? "")\(build?.stderr ?? "swift build did not run")")
        try #require(compile?.status == 0, "\(compile?.stdout ?? "")\(compile?.stderr ?? "")")
        // A folder without logs is reported as replay reports it, before the logs.
        let empty = folder.appendingPathComponent("no-logs")
        try fm.createDirectory(at: empty, withIntermediateDirectories: true)
        // What only a long log shows: more outputs than an expectation can compare, and more
        // outputs and failed expectations than a case keeps (the counts stay exact).
        let long = folder.appendingPathComponent("long.jsonl")
        try (String(repeating: "{\"event\": \"tap\"}\n", count: 100_001) + "{\"expect\": {\"outputs\": [\"didTap\"]}}\n"
             + String(repeating: "{\"event\": \"tap\"}\n{\"expect\": {\"state\": \"selected\", \"outputs\": []}}\n", count: 150))
            .write(to: long, atomically: true, encoding: .utf8)
        for subject in written {
            var extra = (subject.built ? [] : [empty.path]) + (subject.spec == "Specs/VibrantButton.machine" ? [long.path] : [])
            if let session = subject.logs.first(where: { $0.hasSuffix(".session.jsonl") }) {
                extra += try Self.mutatedLogs(of: Repository.root.appendingPathComponent(session), count: 50,
                                              into: folder.appendingPathComponent("mutated-\(subject.typeName)"))
            }
            let paths = subject.logs.map { Repository.root.appendingPathComponent($0).path } + extra
            let harness = subject.built
                ? try ExternalTool(path: "\(package)/.build/debug/replay-generated").run(paths, directory: Repository.root)
                : try ExternalTool(path: executable).run([subject.typeName] + paths, directory: Repository.root)
            let replay = try CLI.run(["replay", "--format", "json", "--jobs", "1", subject.spec] + paths)
            #expect(harness.status == replay.status, "\(subject.spec): exit status \(harness.status), replay's \(replay.status)")
            let mine = try JSONValue.parse(Array(harness.stdout.utf8))
            let theirs = try JSONValue.parse(Array(replay.stdout.utf8))
            if let difference = Self.firstDifference(mine, theirs, at: "") {
                Issue.record("\(subject.spec): the harness and replay differ at \(difference)")
            }
            #expect(mine["logs"]?.arrayValue?.count == subject.logCount + extra.count, "\(subject.spec)")
        }
    }

    /// `count` logs made from `log`'s lines: a random handful, shuffled (so times go back and
    /// cases interleave), a few bytes of each replaced, deleted or inserted (JSON's
    /// punctuation, escapes, numbers out of range, invalid UTF-8, reserved keys), with `\n`,
    /// `\r\n`, a byte order mark, or no line end, or cut anywhere. Seeded: the same logs
    /// every run. Their paths, in order.
    static func mutatedLogs(of log: URL, count: Int, into folder: URL) throws -> [String] {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let lines = try Data(contentsOf: log).split(separator: UInt8(ascii: "\n")).map(Array.init)
        let pieces: [[UInt8]] = [#"""#, "{", "}", "[", "]", ",", ":", #"\"#, #"\u"#, "1e999", "-", "0", ".", "e", "null",
                                 "true", " ", "\t", "\r", #""case": 1, "#, #""time": 0.5, "#, #""expect": "#, #""event": "#]
            .map { Array($0.utf8) } + [[0xFF], [0xC3], [0xE2, 0x9D, 0xA4]]
        var rng = SplitMix64(seed: 33)
        var paths: [String] = []
        for k in 0..<count {
            var chosen = (0..<Int.random(in: 1...12, using: &rng)).map { _ in lines.randomElement(using: &rng) ?? [] }
            for _ in 0..<Int.random(in: 0...3, using: &rng) {
                let i = Int.random(in: 0..<chosen.count, using: &rng)
                let at = Int.random(in: 0...chosen[i].count, using: &rng)
                switch Int.random(in: 0..<3, using: &rng) {
                case 0: chosen[i].insert(contentsOf: pieces.randomElement(using: &rng) ?? [], at: at)
                case 1: chosen[i].removeSubrange(at..<min(at + Int.random(in: 1...3, using: &rng), chosen[i].count))
                default: chosen[i].replaceSubrange(at..<min(at + 1, chosen[i].count), with: [UInt8.random(in: 0...255, using: &rng)])
                }
            }
            var bytes = Array(chosen.joined(separator: [UInt8(ascii: "\n")]))
            switch Int.random(in: 0..<5, using: &rng) {
            case 0: bytes += [UInt8(ascii: "\n")]
            case 1: bytes = Array(chosen.joined(separator: [0x0D, 0x0A])) + [0x0D, 0x0A]
            case 2: bytes = [0xEF, 0xBB, 0xBF] + bytes + [UInt8(ascii: "\n")]
            case 3: bytes = Array(bytes.prefix(Int.random(in: 0...bytes.count, using: &rng)))
            default: break
            }
            let url = folder.appendingPathComponent(String(format: "%03d.jsonl", k))
            try Data(bytes).write(to: url)
            paths.append(url.path)
        }
        return paths
    }

    /// The hostile logs are hostile: between them they stop at malformed lines, warn, fail
    /// expectations, reject steps, fire timers and break properties in every way replay words
    /// (so the comparison above compares those).
    @Test func theLogsCoverWhatReplayReports() throws {
        var seen: Set<String> = []
        for subject in Self.subjects {
            let replay = try CLI.run(["replay", "--format", "json", "--jobs", "1", subject.spec]
                                     + subject.logs.map { Repository.root.appendingPathComponent($0).path })
            let document = try JSONValue.parse(Array(replay.stdout.utf8))
            for log in document["logs"]?.arrayValue ?? [] {
                if log["error"] != JSONValue.null { seen.insert("error") }
                if log["warnings"] != nil { seen.insert("warning") }
                for c in log["cases"]?.arrayValue ?? [] {
                    if c["failureCount"]?.intValue ?? 0 > 0 { seen.insert("failure") }
                    if c["rejected"]?.intValue ?? 0 > 0 { seen.insert("rejection") }
                    if c["timersFired"]?.intValue ?? 0 > 0 { seen.insert("timer") }
                    if c["started"] == .bool(false) { seen.insert("start failure") }
                    if c["case"]?.stringValue != nil { seen.insert("case") }
                    for v in c["propertyViolations"]?.arrayValue ?? [] {
                        let message = v["message"]?.stringValue ?? ""
                        let kind = message.contains("cannot be evaluated")
                            ? (message.contains("'sqrt' of") ? "fault in a function" : "fault")
                            : message.contains("did not hold by the deadline") ? "deadline"
                            : message.contains("has not held before in this run") ? "only after"
                            : message.contains("' is false at t=") ? "always"
                            : message.contains("' holds at t=") ? "never" : message
                        seen.insert("violated: \(kind)")
                    }
                }
            }
        }
        #expect(seen == ["error", "warning", "failure", "rejection", "timer", "start failure", "case", "violated: never",
                         "violated: always", "violated: deadline", "violated: only after", "violated: fault",
                         "violated: fault in a function"])
    }

    /// The first path at which two documents differ (`logs[3].cases[0].rejections[1].column:
    /// 12 against 13`), or nil when they are equal: members compared by key, in order.
    static func firstDifference(_ a: JSONValue, _ b: JSONValue, at path: String) -> String? {
        switch (a, b) {
        case (.object(let x), .object(let y)):
            let keys = x.map(\.key), otherKeys = y.map(\.key)
            if keys != otherKeys { return "\(path.isEmpty ? "the document" : path): members \(keys) against \(otherKeys)" }
            for (m, n) in zip(x, y) {
                if let d = firstDifference(m.value, n.value, at: path.isEmpty ? m.key : "\(path).\(m.key)") { return d }
            }
            return nil
        case (.array(let x), .array(let y)):
            if x.count != y.count { return "\(path): \(x.count) elements against \(y.count)" }
            for (i, (m, n)) in zip(x, y).enumerated() {
                if let d = firstDifference(m, n, at: "\(path)[\(i)]") { return d }
            }
            return nil
        default:
            return a == b ? nil : "\(path): \(a) against \(b)"
        }
    }

    @Test func theFirstDifferenceIsNamedByItsPath() throws {
        let a = try JSONValue.parse(Array(#"{"logs": [{"cases": [{"applied": 1, "state": "idle"}]}]}"#.utf8))
        let b = try JSONValue.parse(Array(#"{"logs": [{"cases": [{"applied": 2, "state": "open"}]}]}"#.utf8))
        #expect(Self.firstDifference(a, b, at: "") == "logs[0].cases[0].applied: number(1.0) against number(2.0)")
        #expect(Self.firstDifference(a, a, at: "") == nil)
    }

    /// A folder that holds anything but an earlier harness (and what building it left) is
    /// refused; an earlier harness is replaced, files it no longer has removed.
    @Test func theFolderMustBeNewEmptyOrAnEarlierHarness() throws {
        let folder = try Self.temporaryFolder("harness-folder")
        defer { try? FileManager.default.removeItem(at: folder) }
        let dir = folder.appendingPathComponent("h")
        #expect(try CLI.run(["swift", "Specs/Drawer.machine", "--harness", dir.path]).status == 0)
        let sources = dir.appendingPathComponent("Sources/ReplayGenerated")
        #expect(FileManager.default.fileExists(atPath: sources.appendingPathComponent("Drawer.swift").path))
        // Built once: .build stays, the old type's files go.
        try FileManager.default.createDirectory(at: dir.appendingPathComponent(".build"), withIntermediateDirectories: true)
        let again = try CLI.run(["swift", "Specs/Drawer.machine", "--type-name", "Panel", "--harness", dir.path])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdout == "wrote the harness of 'Drawer' into '\(dir.path)': build it with 'swift build --package-path \(dir.path)', then run '\(dir.path)/.build/debug/replay-generated LOG...'\n")
        #expect(!FileManager.default.fileExists(atPath: sources.appendingPathComponent("Drawer.swift").path))
        #expect(FileManager.default.fileExists(atPath: sources.appendingPathComponent("Panel+Replay.swift").path))
        #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent(".build").path))
        try "mine".write(to: sources.appendingPathComponent("Notes.swift"), atomically: true, encoding: .utf8)
        let refused = try CLI.run(["swift", "Specs/Drawer.machine", "--harness", dir.path])
        #expect(refused.status == 2)
        #expect(refused.stderr == "error: '\(dir.path)' holds files that '--harness' did not write ('Sources/ReplayGenerated/Notes.swift'); write the harness into a new or empty folder\n")
        let file = folder.appendingPathComponent("file")
        try "x".write(to: file, atomically: true, encoding: .utf8)
        let notFolder = try CLI.run(["swift", "Specs/Drawer.machine", "--harness", file.path])
        #expect(notFolder.stderr == "error: cannot write into '\(file.path)': it is a file, not a folder\n")
    }

    @Test func harnessTakesNoOtherOutput() throws {
        let run = try CLI.run(["swift", "Specs/Drawer.machine", "--harness", "h", "-o", "x.swift"])
        #expect(run.status == 2)
        #expect(run.stderr.hasPrefix("Error: --harness writes its own files, with internal access; it takes no -o, --check or --access public\n"),
                "\(run.stderr)")
    }

    /// The names refused for the machine's type are the top-level types the harness's own
    /// sources declare.
    @Test func theTypeNamesRefusedAreTheOnesTheHarnessDeclares() {
        var declared: Set<String> = []
        for (_, text) in HarnessSources.all {
            for line in text.split(separator: "\n") where !line.hasPrefix(" ") {
                let words = line.split(separator: " ")
                guard let k = words.firstIndex(where: { ["enum", "struct", "protocol", "class"].contains($0) }),
                      k + 1 < words.count, words[..<k].allSatisfy({ ["indirect", "final"].contains($0) }) else { continue }
                declared.insert(String(words[k + 1].prefix { $0.isLetter || $0.isNumber }))
            }
        }
        #expect(declared == HarnessWriter.harnessTypeNames)
    }

    /// A machine type named like one of the harness's own types would not compile: refused.
    @Test func aTypeNameTheHarnessUsesIsRefused() throws {
        let folder = try Self.temporaryFolder("harness-name")
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try CLI.run(["swift", "Specs/Drawer.machine", "--type-name", "Replay", "--harness", folder.path])
        #expect(run.status == 2)
        #expect(run.stderr.contains("error: the harness declares a type 'Replay' of its own; name the machine's type otherwise with --type-name"),
                "\(run.stderr)")
        // Nor may its file be one of the harness's own.
        for name in ["Properties", "LogLine"] {
            let clash = try CLI.run(["swift", "Specs/Drawer.machine", "--type-name", name, "--harness", folder.path])
            #expect(clash.status == 2)
            #expect(clash.stderr.contains("error: the harness has a file '\(name).swift' of its own; name the machine's type otherwise with --type-name"),
                    "\(clash.stderr)")
        }
    }
}
