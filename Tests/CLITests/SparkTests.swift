import Foundation
import Testing
import TestSupport

/// A distributed run on an engine we did not write: Apache Spark (local mode) replays a
/// folder of logs partitioned by file, each partition with `statecraft replay --summary
/// --format json`, and reduces the summaries with `statecraft merge`; the result must be byte
/// for byte the single run's (Tests/Spark/replay_on_spark.py checks it).
@Suite struct SparkTests {
    /// (Under a sanitizer this would time Spark, not us: the merge tests cover our side.)
    @Test(.enabled(if: ProcessInfo.processInfo.environment["STATECRAFT_SANITIZER"] == nil, "Spark under a sanitizer run"))
    func aSparkRunMergesIntoTheSingleRun() throws {
        let found = ExternalTool.find("python3")
        let usable = try found.map { try $0.run(["-c", "import pyspark"]).status == 0 && ExternalTool.find("java") != nil } ?? false
        let python = try ExternalTool.require(usable ? found : nil, "python3 with pyspark, and java, are not installed",
                                              unlessRequiredBy: "STATECRAFT_REQUIRE_PYSPARK")
        let binary = try #require(CLI.executable)
        let (dir, _) = try MergeCommandTests.logs()
        defer { try? FileManager.default.removeItem(at: dir) }
        let script = Repository.root.appendingPathComponent("Tests/Spark/replay_on_spark.py").path
        let run = try python.run([script, binary.path, "Specs/PullToRefresh.machine", dir.path, "--partitions", "4"],
                                 directory: Repository.root)
        #expect(run.status == 0, "\(run.stdout)\n\(run.stderr)")
        #expect(run.stdout.contains("the summary merged on Spark from 9 logs in 4 partitions is byte for byte the single run's"),
                "\(run.stdout)")
    }
}
