// The fuzzing oracles: each takes arbitrary bytes through one entry point of the library and
// says what went wrong, if anything, beyond a crash (which the sanitizers and libFuzzer see
// on their own). They live in a library so that the same code judges an input under
// libFuzzer (Tests/Fuzz/fuzz, the fuzz-* executables) and in the test suite, which replays
// every corpus input and every reproducer through them (Tests/Fuzz/CorpusTests).

/// One fuzz target's judgement of an input.
public protocol FuzzOracle: Sendable {
    /// The target's name: the fuzz-<name> executable, the corpus and reproducer folders.
    static var name: String { get }
    /// What is wrong with how the library handled `input` (empty when nothing is). A crash
    /// or a hang is not returned: it never comes back.
    static func violations(_ input: [UInt8]) -> [String]
    /// Builds what every input shares (the replay target's compiled specs) before the
    /// first input: built during one, it would look to libFuzzer's leak check like memory
    /// that input allocated and never freed.
    static func prepare()
}

extension FuzzOracle {
    public static func prepare() {}
}

/// Every target, by name.
public let fuzzOracles: [any FuzzOracle.Type] = [SpecOracle.self, LogReaderOracle.self, ReplayOracle.self,
                                                 SCXMLOracle.self, FormatOracle.self]

/// The names of the targets.
public let fuzzTargetNames = fuzzOracles.map { $0.name }

/// What the oracle of the target named `target` finds wrong with `input`; nil for an unknown
/// target.
public func fuzzViolations(target: String, input: [UInt8]) -> [String]? {
    guard let oracle = fuzzOracles.first(where: { $0.name == target }) else { return nil }
    return oracle.violations(input)
}
