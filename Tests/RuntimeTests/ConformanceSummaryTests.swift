import Foundation
import Statecraft
import Testing
import TestSupport

/// A summary is a sum of counts: the summary of all logs equals the sum of the summaries of
/// any split of them into parts, in any order (what merging the partial reports of a
/// distributed run relies on).
@Suite struct ConformanceSummaryTests {
    @Test func anySplitAddsUpToTheWhole() throws {
        let program = try program(spec: "PullToRefresh")
        let session = String(decoding: Repository.bytes(Repository.specs.appendingPathComponent("PullToRefresh.session.jsonl")),
                             as: UTF8.self)
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("statecraft-summary-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        // Sessions cut at different lines, with a failing expectation or a malformed line now and then.
        let lines = session.split(separator: "\n", omittingEmptySubsequences: false)
        var paths: [String] = []
        for k in 0..<12 {
            var text = lines.prefix(4 + k).joined(separator: "\n") + "\n"
            if k % 4 == 1 { text += "{\"expect\": \"refreshing\"}\n" }
            if k % 5 == 2 { text += "{\"event\": \n" }
            let url = dir.appendingPathComponent("log\(k).jsonl")
            try text.write(to: url, atomically: true, encoding: .utf8)
            paths.append(url.path)
        }
        paths.append(dir.appendingPathComponent("missing.jsonl").path)
        var options = Replayer.Options()
        options.summary = true
        func summary(_ paths: [String], jobs: Int) -> ConformanceSummary {
            var s = ConformanceSummary(machine: program.machine)
            ManyLogs.replay(paths, program: program, options: options, jobs: jobs, each: { i, o in s.add(o, log: paths[i]) })
            return s
        }
        let whole = summary(paths, jobs: 1)
        #expect(whole.logs == 12 && whole.unreadableLogs == 1 && whole.malformedLogs == 2)
        #expect(whole.failedExpectations == 3)
        #expect(!whole.deviations.isEmpty)
        #expect(whole.deviations.values.reduce(0) { $0 + $1.count } == whole.ignored + whole.rejected)
        #expect(summary(paths, jobs: 3) == whole)
        var rng = SplitMix64(seed: 7)
        for _ in 0..<20 {
            let shuffled = paths.shuffled(using: &rng)
            let cut = Int(rng.next() % UInt64(shuffled.count + 1))
            let parts = [Array(shuffled[..<cut]), Array(shuffled[cut...])]
            let a = summary(parts[0], jobs: 2), b = summary(parts[1], jobs: 1)
            #expect(a + b == whole)
            #expect(b + a == whole)
        }
    }

    /// Every percentile of the sketch is within 1% of the duration of that rank, and the
    /// sketch of two sets of durations is the sum of their sketches.
    @Test func theSketchKeepsPercentilesWithinOnePercent() {
        var rng = SplitMix64(seed: 3)
        for round in 0..<20 {
            let count = 1 + Int(rng.next() % 3000)
            let durations = (0..<count).map { k -> Double in
                if k % 17 == 0 { return 0 }
                let unit = Double(rng.next() % 1_000_000) / 1_000_000
                return round % 2 == 0 ? unit * 10 : exp(unit * 20 - 10)  // uniform, or over 9 decades
            }
            var whole = DurationSketch(), a = DurationSketch(), b = DurationSketch()
            for (k, d) in durations.enumerated() {
                whole.add(d)
                if k % 3 == 0 { a.add(d) } else { b.add(d) }
            }
            #expect(a + b == whole && b + a == whole)
            // What the reports write, in order, is the dictionary's content.
            #expect(whole.bucketsInOrder.map { [$0.index, $0.count] }
                        == whole.buckets.sorted { $0.key < $1.key }.map { [$0.key, $0.value] })
            let sorted = durations.sorted()
            for q in [0.01, 0.5, 0.9, 0.99, 1] {
                let exact = sorted[max(1, Int((q * Double(count)).rounded(.up))) - 1]
                let estimate = whole.quantile(q) ?? -1
                let tolerance = exact < 1e-6 ? 1e-6 : exact * DurationSketch.relativeAccuracy * 1.0001
                #expect(abs(estimate - exact) <= tolerance, "q \(q): \(estimate) for \(exact)")
            }
        }
        #expect(DurationSketch().quantile(0.5) == nil)
    }

    /// While a state has few visits their durations are kept, so a 1 s visit is 1 s (the
    /// bucket alone says 0.99 s); past `exactLimit`, the estimate takes over, in a merge too,
    /// whatever the order of its parts (issue 31).
    @Test func fewDurationsAreExact() throws {
        var one = DurationSketch()
        one.add(1)
        #expect(one.quantile(0.5) == 1)
        #expect(one.exact == [1])
        var bucketOnly = DurationSketch(zeros: 0, buckets: one.buckets)
        #expect(bucketOnly.quantile(0.5) != 1, "the bucket's estimate is not exact: \(bucketOnly.quantile(0.5) ?? -1)")
        bucketOnly = DurationSketch(zeros: 0, buckets: one.buckets, exact: [1])
        #expect(bucketOnly == one)

        var a = DurationSketch(), b = DurationSketch(), whole = DurationSketch()
        let durations = (1...DurationSketch.exactLimit).map { Double($0) * 0.25 }
        for (k, d) in durations.enumerated() {
            whole.add(d)
            if k % 2 == 0 { a.add(d) } else { b.add(d) }
        }
        #expect(a + b == whole && b + a == whole)
        #expect(whole.exact == durations)
        #expect(whole.quantile(0.5) == durations[durations.count / 2 - 1])
        #expect(whole.quantile(0.9) == durations[Int((0.9 * Double(durations.count)).rounded(.up)) - 1])
        // One more and the durations are no longer kept, however the parts are merged.
        var extra = DurationSketch()
        extra.add(7)
        whole.add(7)
        #expect(whole.exact == nil)
        #expect((a + b) + extra == whole && a + (b + extra) == whole && extra + b + a == whole)
        let estimate = try #require(whole.quantile(1))
        #expect(abs(estimate - 25) <= 25 * DurationSketch.relativeAccuracy * 1.0001)
    }
}
