import Testing
import TestSupport

/// `initial -> a, b`: where a state (or the machine) starts, at any depth, in several regions,
/// or through a history state; each rule a spec and a log through the command line (the
/// driver, in process).
@Suite struct InitialTargetsTests {
    static let lines = StatechartSemanticsTests.lines

    /// Deep targets in two regions, at the top level: both are entered, with the states on
    /// the way to them, skipping their parents' own initial children. Entering the same
    /// states again by a transition to their ancestor takes the marked defaults.
    @Test func deepTargetsInTwoRegions() throws {
        try StatechartSemanticsTests.expectPasses("""
            machine M {
                public var trail: String = ""
                event leave
                event back
                initial -> bold, spellcheck
                state editor {
                    entry { trail = trail + "editor;" }
                    on leave -> away
                    initial parallel state panels {
                        state toolbar {
                            initial state plain
                            state bold { entry { trail = trail + "bold;" } }
                        }
                        state checks {
                            initial state off
                            state spellcheck { entry { trail = trail + "spellcheck;" } }
                        }
                    }
                }
                state away {
                    on back -> editor
                }
            }
            """, Self.lines(#"{"expect": {"state": ["bold", "spellcheck"], "vars": {"trail": "editor;bold;spellcheck;"}}}"#,
                            #"{"event": "leave"}"#,
                            #"{"event": "back"}"#,
                            #"{"expect": {"state": ["plain", "off"]}}"#))
    }

    /// A compound state's targets apply whenever it is entered without a more specific
    /// target; a history target starts where the state was last left, its default the first
    /// time.
    @Test func aHistoryTargetResumesWhereTheStateWasLeft() throws {
        try StatechartSemanticsTests.expectPasses("""
            machine M {
                event next
                event leave
                event back
                initial state outside {
                    on back -> player
                }
                state player {
                    initial -> resume
                    history state resume -> second
                    state first { on next -> second }
                    state second { on next -> third }
                    state third
                    on leave -> outside
                }
            }
            """, Self.lines(#"{"event": "back"}"#,
                            #"{"expect": {"state": "second"}}"#,
                            #"{"event": "next"}"#,
                            #"{"event": "leave"}"#,
                            #"{"event": "back"}"#,
                            #"{"expect": {"state": "third"}}"#))
    }
}
