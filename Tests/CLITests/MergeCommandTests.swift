import Foundation
import Statecraft
import Testing
import TestSupport

/// `statecraft merge`: the summaries of the parts of a split of the logs add up to the
/// summary of one replay over all of them, byte for byte, in any order and grouping.
@Suite struct MergeCommandTests {
    /// Sessions of the pull-to-refresh cut at different lines, some with a failing
    /// expectation, one with an extra ignored event, one malformed.
    static func logs() throws -> (URL, [String]) {
        let session = ReplayManyLogsTests.session
        let lines = session.split(separator: "\n", omittingEmptySubsequences: false)
        var files: [String: String] = [:]
        for k in 0..<9 {
            var text = lines.prefix(6 + 2 * k).joined(separator: "\n") + "\n"
            if k % 3 == 1 { text += "{\"expect\": \"refreshing\"}\n" }
            if k == 4 { text += "{\"event\": \"endRefreshing\"}\n" }
            if k == 7 { text += "{\"event\": \n" }
            files["log\(k).jsonl"] = text
        }
        let dir = try ReplayCommandTests.folder(files)
        return (dir, files.keys.sorted().map { dir.appendingPathComponent($0).path })
    }

    static func summary(_ logs: [String], format: String, to file: URL? = nil) throws -> String {
        let r = try CLI.run(["replay", "Specs/PullToRefresh.machine"] + logs + ["--summary", "--format", format])
        if let file { try r.stdout.write(to: file, atomically: true, encoding: .utf8) }
        return r.stdout
    }

    @Test func anySplitMergesIntoTheWholeRun() throws {
        let (dir, logs) = try Self.logs()
        defer { try? FileManager.default.removeItem(at: dir) }
        let wholeJSON = try Self.summary(logs, format: "json")
        let wholeText = try Self.summary(logs, format: "text")
        #expect(wholeJSON.contains("\"malformedLogs\": 1"), "\(wholeJSON)")
        var rng = SplitMix64(seed: 11)
        for round in 0..<4 {
            // Two to four parts, the logs dealt at random, the parts merged in a random order.
            let partCount = 2 + round % 3
            var parts = Array(repeating: [String](), count: partCount)
            for log in logs.shuffled(using: &rng) { parts[Int(rng.next() % UInt64(partCount))].append(log) }
            var reports: [String] = []
            for (k, part) in parts.enumerated() where !part.isEmpty {
                let file = dir.appendingPathComponent("part\(round)-\(k).summary")
                _ = try Self.summary(part.sorted(), format: "json", to: file)
                reports.append(file.path)
            }
            reports.shuffle(using: &rng)
            let json = try CLI.run(["merge"] + reports + ["--format", "json"])
            #expect(json.status == 0, "\(json.stderr)")
            #expect(json.stdout == wholeJSON, "round \(round)")
            let text = try CLI.run(["merge"] + reports)
            #expect(text.stdout == wholeText, "round \(round)")
        }
    }

    /// A merged summary merges again: merging is associative.
    @Test func mergedSummariesMergeAgain() throws {
        let (dir, logs) = try Self.logs()
        defer { try? FileManager.default.removeItem(at: dir) }
        let parts = [Array(logs[0..<3]), Array(logs[3..<6]), Array(logs[6...])]
        var files: [String] = []
        for (k, part) in parts.enumerated() {
            let file = dir.appendingPathComponent("p\(k).summary")
            _ = try Self.summary(part, format: "json", to: file)
            files.append(file.path)
        }
        let firstTwo = dir.appendingPathComponent("p01.summary")
        try CLI.run(["merge", files[0], files[1], "--format", "json"]).stdout.write(to: firstTwo, atomically: true, encoding: .utf8)
        let nested = try CLI.run(["merge", firstTwo.path, files[2], "--format", "json"])
        #expect(nested.stdout == (try Self.summary(logs, format: "json")))
    }

    @Test func reportsThatDoNotAddUpAreRefused() throws {
        let (dir, logs) = try Self.logs()
        defer { try? FileManager.default.removeItem(at: dir) }
        let mine = dir.appendingPathComponent("mine.summary")
        _ = try Self.summary(Array(logs.prefix(2)), format: "json", to: mine)
        let other = dir.appendingPathComponent("other.summary")
        try CLI.run(["replay", "Specs/Drawer.machine", "Specs/Drawer.session.jsonl", "--summary", "--format", "json"])
            .stdout.write(to: other, atomically: true, encoding: .utf8)
        let mixed = try CLI.run(["merge", mine.path, other.path])
        #expect(mixed.status == 2)
        #expect(mixed.stderr.contains("machine 'Drawer' is not 'PullToRefresh'"), "\(mixed.stderr)")
        let notJSON = try CLI.run(["merge", mine.path, logs[0]])
        #expect(notJSON.status == 2)
        #expect(notJSON.stderr.contains("error: \(logs[0]): not a summary") || notJSON.stderr.contains("error: \(logs[0]): not JSON"),
                "\(notJSON.stderr)")
        let missing = try CLI.run(["merge", mine.path, dir.appendingPathComponent("missing.summary").path])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("no such file or directory"), "\(missing.stderr)")
        let none = try CLI.run(["merge"])
        #expect(none.status == 2)
    }
}
