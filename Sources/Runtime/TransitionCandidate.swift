import StatecraftDiagnostics
import StatecraftModel

/// A transition of the active states that could have taken an event, and what its guard
/// said when the event arrived: the structured answer to "why was this event not taken?"
/// (`Instance.candidates(for:)`). `--explain` shows it as it is; `--strict`, traces and
/// `WhyNotTaken` render it as one sentence.
public struct TransitionCandidate: Sendable, Equatable {
    /// The candidate transition, by id.
    public var transition: TransitionID
    /// The state it leaves from.
    public var source: String
    /// The state it leaves from, by id.
    public var state: StateID
    /// Where the transition is written in the spec (from its `on`).
    public var range: SourceRange
    /// Its head as written: `on endDragging if progress >= 1 -> refreshing`.
    public var text: String
    /// What its guard said when the event arrived.
    public var verdict: Verdict
    /// Every variable, payload field, constant and `in(state)` its whole guard reads, in
    /// source order, each with its value when the event arrived (empty without a guard).
    /// A false guard's culprits name only what decided it; a sentence names all of them.
    public var guardReads: [Culprit.Read]

    /// The candidate in one line, without positions (for summaries, which outlive the
    /// spec): `'on endDragging if progress >= 1 -> refreshing' of state 'ready': 'progress >= 1'
    /// is false: progress = 0.62`.
    public var summary: String {
        let what = "'\(text)' of state '\(source)'"
        switch verdict {
        case .unguarded: return what + " was enabled (no guard); its step failed"
        case .holds: return what + " was enabled (its guard holds); its step failed"
        case .fault(let fault): return what + ": its guard cannot be computed: \(fault.message)"
        case .isFalse(let culprits):
            return what + ": " + culprits.map { c in
                "'\(c.text)' is \(c.value)" + (c.reads.isEmpty ? "" : ": " + c.reads.map(\.description).joined(separator: ", "))
            }.joined(separator: "; ")
        }
    }

    /// What a candidate's guard said when the event arrived.
    public enum Verdict: Sendable, Equatable {
        /// It has no guard: it was enabled (its step failed later, in an action).
        case unguarded
        /// The guard held (its step failed later, in an action or another microstep).
        case holds
        /// The guard was false, decided by these sub-expressions (see `Culprit`).
        case isFalse([Culprit])
        /// The guard could not be computed.
        case fault(ExpressionFault)
    }
}

/// The smallest sub-expression that decides a guard's value: for `a && b` that is false, the
/// culprit of the first false conjunct; for `a || b`, the culprits of both; for `!a`, the
/// culprit of `a` (which holds); anything else is its own culprit.
public struct Culprit: Sendable, Equatable {
    /// Where the sub-expression is in the spec.
    public var range: SourceRange
    /// The sub-expression as written.
    public var text: String
    /// Its value: false, or true under an odd number of `!`.
    public var value: Bool
    /// Every variable, payload field, constant and `in(state)` it reads, in the order they
    /// appear (each name once), with its value when the event arrived.
    public var reads: [Read]

    /// A name a culprit reads, and its value.
    public struct Read: Sendable, Equatable, CustomStringConvertible {
        /// What kind of name it is.
        public enum Kind: String, Sendable {
            /// A variable of the machine.
            case variable
            /// A payload field of the event.
            case field
            /// A constant.
            case constant
            /// A state, read by `in(state)`.
            case state
        }
        /// Whether the name is a variable, a payload field, a constant or a state.
        public var kind: Kind
        /// The name as written (`progress`, `offsetY`, `refreshViewHeight`, a state's name).
        public var name: String
        /// Its value when the event arrived (for a state, whether it was active).
        public var value: Value

        /// `progress = 0.62`, `offsetY = -33 (payload)`, `refreshViewHeight = 110 (constant)`,
        /// `in(refreshing) = false`.
        public var description: String {
            switch kind {
            case .variable: "\(name) = \(value)"
            case .field: "\(name) = \(value) (payload)"
            case .constant: "\(name) = \(value) (constant)"
            case .state: "in(\(name)) = \(value)"
            }
        }
    }
}

