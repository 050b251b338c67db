extension HarnessSources {
    /// `Properties.swift` of the harness: the spec's properties watched on every case, with
    /// the semantics of the runtime's `PropertyMonitor` (judged the plain way: every property
    /// in every stable configuration) and the words of `PropertyViolation.describe`. The
    /// expressions themselves are the machine's: `statecraft swift --harness` writes them
    /// beside the type (`+Properties.swift`), with the type's expression writer.
    static let properties = #"""
        // Watching the spec's properties on every case, as `statecraft replay` does: after every
        // stable configuration (the start, each event taken, each timer's or sent event's step that
        // did not fail), and as the case's clock moves (before each step, and to each line's time),
        // which breaks a response whose deadline it passes. `always reachable` is not watched: no
        // single run breaks it.

        /// A property a run can break, as the harness knows it (written per machine beside the type).
        struct PropertySchema: Sendable {
            /// What starts a response's wait.
            enum Trigger: Sendable {
                /// `after e within D`: every step that takes event `e`.
                case event(String)
                /// `after entering s within D`: every stable configuration where `s` is active and
                /// was not in the previous one (the machine says which, `propertyValues`).
                case entering(String)
            }

            enum Kind: Sendable {
                case never, always
                /// `X only after Y`.
                case onlyAfter
                /// `after … within D: X`, `D` in seconds.
                case response(after: Trigger, deadline: Double)
            }

            var name: String
            /// The line of the spec where the property is declared.
            var specLine: Int
            var kind: Kind
            /// The spec's text of `X`, and of `G` (`while G`) or `Y` (`X only after Y`): messages
            /// quote them.
            var x: String
            var other: String?
        }

        /// A property expression that failed to evaluate: the runtime's message, and the spec's
        /// text of the operation that failed.
        struct PropertyFault: Error {
            var message: String
            var text: String
        }

        /// Arithmetic in property expressions, as the runtime (and the machine type, for its own
        /// expressions) does it: a result that is not a finite number fails, in the same words.
        /// The last argument is the spec's text of the operation, which a violation quotes.
        enum PropertyArithmetic {
            static func add(_ a: Double, _ b: Double, compound: Bool, _ text: String) throws(PropertyFault) -> Double {
                try checked(a + b, a, "+", b, compound: compound, text)
            }

            static func subtract(_ a: Double, _ b: Double, compound: Bool, _ text: String) throws(PropertyFault) -> Double {
                try checked(a - b, a, "-", b, compound: compound, text)
            }

            static func multiply(_ a: Double, _ b: Double, compound: Bool, _ text: String) throws(PropertyFault) -> Double {
                try checked(a * b, a, "*", b, compound: compound, text)
            }

            static func divide(_ a: Double, _ b: Double, compound: Bool, _ text: String) throws(PropertyFault) -> Double {
                try checked(a / b, a, "/", b, compound: compound, text)
            }

            static func remainder(_ a: Double, _ b: Double, compound: Bool, _ text: String) throws(PropertyFault) -> Double {
                try checked(a.truncatingRemainder(dividingBy: b), a, "%", b, compound: compound, text)
            }

            static func squareRoot(_ a: Double, _ text: String) throws(PropertyFault) -> Double {
                let result = a.squareRoot()
                if result.isFinite { return result }
                throw PropertyFault(message: "'sqrt' of \(LogValue.number(a).description) is not a finite number", text: text)
            }

            private static func checked(_ result: Double, _ a: Double, _ op: String, _ b: Double, compound: Bool,
                                        _ text: String) throws(PropertyFault) -> Double {
                if result.isFinite { return result }
                let left = LogValue.number(a).description
                if b == 0 && !compound && (op == "/" || op == "%") {
                    throw PropertyFault(message: "\(op == "/" ? "division" : "remainder") by zero (\(left) \(op) 0)", text: text)
                }
                throw PropertyFault(message: "\(left) \(op) \(LogValue.number(b).description) is not a finite number", text: text)
            }
        }

        /// One case's watch over the properties (by index in the machine's `propertySchemas`). A
        /// property is reported once per case: after that it is no longer judged.
        struct PropertyMonitor {
            /// Why a property broke.
            enum Reason {
                /// A stable configuration where `never`'s `X` (and `G`) held, or `always`'s `X` did not
                /// (where `G` held).
                case stateBreaksIt
                /// `X only after Y`: `X` held, and `Y` had not held in this case.
                case beforePrecondition
                /// The clock passed the deadline of the trigger at `trigger` with no stable
                /// configuration satisfying `X` in between.
                case deadlinePassed(trigger: Double, deadline: Double)
                case fault(PropertyFault)
            }

            /// A violation as found: the property, why, and the time it became certain.
            struct Found {
                var property: Int
                var reason: Reason
                var time: Double
            }

            /// By property: whether `Y` of `X only after Y` has held in this case.
            private var seen: [Bool]
            /// By property: the time of the oldest trigger of a response not answered yet. (Only
            /// the oldest matters: every trigger has the same `D`, and one stable configuration
            /// satisfying `X` answers them all.)
            private var pending: [Double?]
            /// By property: whether the state an `after entering` response waits for was active in
            /// the previous stable configuration (entering is becoming active, not staying).
            private var wasActive: [Bool]
            private var violated: [Bool]

            init(count: Int) {
                seen = Array(repeating: false, count: count)
                pending = Array(repeating: nil, count: count)
                wasActive = Array(repeating: false, count: count)
                violated = Array(repeating: false, count: count)
            }

            /// The clock moves to `time`, before any step at that time: every response whose
            /// deadline is strictly earlier is broken (one answered exactly at its deadline holds).
            mutating func clockMoves(to time: Double, _ properties: [PropertySchema], found: inout [Found]) {
                for (k, p) in properties.enumerated() where !violated[k] {
                    guard case .response(_, let d) = p.kind, let trigger = pending[k], time > trigger + d else { continue }
                    violated[k] = true
                    pending[k] = nil
                    found.append(Found(property: k, reason: .deadlinePassed(trigger: trigger, deadline: trigger + d), time: time))
                }
            }

            /// Judges a stable configuration of `machine` at `time`, left by a step that took the
            /// event named `event` (nil: the start, a timer's step, or a sent event not taken).
            mutating func observe<M: ReplayMachine>(_ machine: M, at time: Double, took event: String?, found: inout [Found]) {
                for (k, p) in M.propertySchemas.enumerated() where !violated[k] {
                    // Every expression is evaluated, needed or not: one that fails to evaluate
                    // breaks its property wherever it fails.
                    do throws(PropertyFault) {
                        let values = try machine.propertyValues(k)
                        switch p.kind {
                        case .never, .always:
                            let isNever = if case .never = p.kind { true } else { false }
                            if values.other ?? true, values.x == isNever { report(k, .stateBreaksIt, time, &found) }
                        case .onlyAfter:
                            if values.other == true { seen[k] = true }
                            if values.x && !seen[k] { report(k, .beforePrecondition, time, &found) }
                        case .response(let trigger, _):
                            let triggered: Bool
                            switch trigger {
                            case .event(let name):
                                triggered = name == event
                            case .entering:
                                triggered = values.inTrigger && !wasActive[k]
                                wasActive[k] = values.inTrigger
                            }
                            if values.x {
                                pending[k] = nil
                            } else if triggered && pending[k] == nil {
                                pending[k] = time
                            }
                        }
                    } catch {
                        pending[k] = nil
                        report(k, .fault(error), time, &found)
                    }
                }
            }

            private mutating func report(_ k: Int, _ reason: Reason, _ time: Double, _ found: inout [Found]) {
                violated[k] = true
                found.append(Found(property: k, reason: reason, time: time))
            }

            /// What broke `property`, in replay's words: the property's expressions quoted from the
            /// spec, the times, and `leaves`, the atomic states of the configuration it was seen in.
            static func message(_ property: PropertySchema, _ reason: Reason, time: Double, leaves: String) -> String {
                func t(_ n: Double) -> String { LogValue.number(n).description }
                let at = "at t=\(t(time)), in \(leaves)"
                let guarded = property.other.map { " (where '\($0)' holds)" } ?? ""
                switch (reason, property.kind) {
                case (.fault(let fault), _):
                    return "the property cannot be evaluated \(at): \(fault.message) in '\(fault.text)'"
                case (.deadlinePassed(let trigger, let deadline), _):
                    return "after the trigger at t=\(t(trigger)), '\(property.x)' did not hold by the deadline t=\(t(deadline)); the clock passed it at t=\(t(time))"
                case (.stateBreaksIt, .never):
                    return "'\(property.x)' holds \(at)" + guarded
                case (.stateBreaksIt, _):
                    return "'\(property.x)' is false \(at)" + guarded
                case (.beforePrecondition, _):
                    return "'\(property.x)' holds \(at), and '\(property.other ?? "")' has not held before in this run"
                }
            }
        }

        /// A property a case broke, as the report lists it.
        struct PropertyViolationRecord {
            var property: String
            var specLine: Int
            /// The log line where the violation became certain, and the case's time then.
            var line: Int
            var time: Double
            var message: String
        }

        """#
}
