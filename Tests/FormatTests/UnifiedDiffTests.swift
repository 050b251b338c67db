import Statecraft
import Testing

/// The diff `fmt --check` prints, in `diff -u`'s format.
@Suite struct UnifiedDiffTests {
    @Test func equalTextsHaveNoDiff() {
        #expect(UnifiedDiff.diff("a\nb\n", "a\nb\n", oldName: "x", newName: "y") == "")
    }

    @Test func aChangedLineWithItsContext() {
        let old = (1...10).map { "line \($0)" }.joined(separator: "\n") + "\n"
        let new = old.replacingOccurrences(of: "line 5\n", with: "line five\n")
        #expect(UnifiedDiff.diff(old, new, oldName: "a.machine", newName: "a.machine (formatted)") == """
            --- a.machine
            +++ a.machine (formatted)
            @@ -2,7 +2,7 @@
             line 2
             line 3
             line 4
            -line 5
            +line five
             line 6
             line 7
             line 8

            """)
    }

    @Test func distantChangesAreSeparateHunksAndNearOnesShareOne() {
        let old = (1...30).map { "\($0)" }.joined(separator: "\n") + "\n"
        var lines = old.split(separator: "\n").map(String.init)
        lines[1] = "two"
        lines[4] = "five"
        lines[25] = "twenty-six"
        let diff = UnifiedDiff.diff(old, lines.joined(separator: "\n") + "\n", oldName: "a", newName: "b")
        #expect(diff.components(separatedBy: "\n").filter { $0.hasPrefix("@@") } == ["@@ -1,8 +1,8 @@", "@@ -23,7 +23,7 @@"])
    }

    @Test func insertedAndDeletedLines() {
        let diff = UnifiedDiff.diff("a\nb\nc\n", "a\nc\nd\n", oldName: "a", newName: "b")
        #expect(diff == "--- a\n+++ b\n@@ -1,3 +1,3 @@\n a\n-b\n c\n+d\n")
        let fromEmpty = UnifiedDiff.diff("", "x\n", oldName: "a", newName: "b")
        #expect(fromEmpty == "--- a\n+++ b\n@@ -0,0 +1 @@\n+x\n")
    }
}
