import Foundation
import StatecraftFuzzing
import Testing
import TestSupport

/// Every input the fuzzers keep (the minimized corpus, Tests/Fuzz/Corpus/<target>) and every
/// finding turned into a reproducer (Tests/Fuzz/Reproducers/<target>) goes through its
/// target's oracle on every test run, sanitizers or not: a fixed crash stays fixed, and the
/// corpus stays inputs the oracles accept.
@Suite struct CorpusTests {
    static let fuzz = Repository.root.appendingPathComponent("Tests/Fuzz")

    static func inputs(_ folder: String, _ target: String) -> [String] {
        FuzzEntry.inputFiles(fuzz.appendingPathComponent(folder).appendingPathComponent(target).path)
            .filter { FileManager.default.fileExists(atPath: $0) }
    }

    @Test(arguments: fuzzTargetNames)
    func corpusInputsPassTheirOracle(target: String) {
        let files = CorpusTests.inputs("Corpus", target)
        #expect(files.count >= 10, "the \(target) corpus is missing")
        for path in files {
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
