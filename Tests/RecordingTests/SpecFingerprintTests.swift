import Foundation
import Statecraft
import Testing
import TestSupport

/// The fingerprint covers a spec's tokens and nothing else.
@Suite struct SpecFingerprintTests {
    /// The value worked out by hand from the definition (FNV-1a 64 over each token's length,
    /// four bytes little-endian, then its bytes), so the function cannot drift unnoticed:
    /// recordings, snapshots and generated code made today must match tomorrow's specs.
    @Test func aPinnedValue() {
        #expect(SpecFingerprint(specText: "machine M { initial state a }").description == "af74478490ae7e00")
        #expect(SpecFingerprint(specText: "").description == "cbf29ce484222325")
        #expect(SpecFingerprint("af74478490ae7e00") == SpecFingerprint(value: 0xaf74_4784_90ae_7e00))
        #expect(SpecFingerprint("af74") == nil)
        #expect(SpecFingerprint("zz74478490ae7e00") == nil)
    }

    @Test func layoutCommentsAndAByteOrderMarkDoNotCount() {
        let spec = "machine M { initial state a }"
        let same = ["\u{FEFF}" + spec, "machine M {\n    // the only state\n    initial state a\n}\n",
                    "/* M */ machine   M{initial\tstate a}"]
        for text in same { #expect(SpecFingerprint(specText: text) == SpecFingerprint(specText: spec), "\(text)") }
        let different = ["machine N { initial state a }", "machine M { initial state b }", "machine M { initial final state a }",
                         "machine M { initial state ab }"]
        for text in different { #expect(SpecFingerprint(specText: text) != SpecFingerprint(specText: spec), "\(text)") }
        // A token's length goes in first, so where one token ends matters.
        #expect(SpecFingerprint(specText: "a bc") != SpecFingerprint(specText: "ab c"))
    }

    /// `statecraft fmt` keeps every bundled spec's fingerprint.
    @Test func formattingKeepsTheFingerprint() throws {
        for url in Repository.specFiles() {
            let text = try String(contentsOf: url, encoding: .utf8)
            let formatted = try #require(SpecFormatter.format(source: text), "\(url.lastPathComponent)")
            #expect(SpecFingerprint(specText: formatted) == SpecFingerprint(specText: text), "\(url.lastPathComponent)")
            #expect(SpecFingerprint(specText: text.replacingOccurrences(of: "initial", with: "initial /* here */"))
                    == SpecFingerprint(specText: text))
        }
    }
}
