import Foundation
import StatecraftFuzzing
import Testing
import TestSupport

/// Every finding turned into a reproducer (Tests/Fuzz/Reproducers/<target>) goes through its
/// target's oracle on every test run, sanitizers or not: a fixed crash stays fixed. So does a
/// quarter of the inputs the fuzzers keep (the minimized corpus, Tests/Fuzz/Corpus/<target>):
/// every fourth, in sorted order, which keeps the corpus inputs the oracles accept without a
/// minute of CPU on every run. The whole corpus goes through the same oracles on every
/// submission all the same, in CI's fuzz job (libFuzzer replays it before fuzzing), and here
/// with `STATECRAFT_FUZZ_CORPUS=all`.
@Suite struct CorpusTests {
    static let fuzz = Repository.root.appendingPathComponent("Tests/Fuzz")
    static let wholeCorpus = ProcessInfo.processInfo.environment["STATECRAFT_FUZZ_CORPUS"] == "all"

    static func inputs(_ folder: String, _ target: String) -> [String] {
        FuzzEntry.inputFiles(fuzz.appendingPathComponent(folder).appendingPathComponent(target).path)
            .filter { FileManager.default.fileExists(atPath: $0) }
    }

    @Test(arguments: fuzzTargetNames)
    func corpusInputsPassTheirOracle(target: String) {
        let files = CorpusTests.inputs("Corpus", target)
        #expect(files.count >= 10, "the \(target) corpus is missing")
        let sample = CorpusTests.wholeCorpus ? files : files.enumerated().filter { $0.offset % 4 == 0 }.map(\.element)
        for path in sample {
            let bytes = Repository.bytes(URL(fileURLWithPath: path))
            #expect(fuzzViolations(target: target, input: bytes) == [], "\(path)")
        }
    }

    @Test(arguments: fuzzTargetNames)
    func reproducersPassTheirOracle(target: String) {
        for path in CorpusTests.inputs("Reproducers", target) {
            let bytes = Repository.bytes(URL(fileURLWithPath: path))
            #expect(fuzzViolations(target: target, input: bytes) == [], "\(path)")
        }
    }
}
