import Foundation
import Statecraft
@testable import StatecraftAnalysis
import Testing
import TestSupport

/// `check`'s verdicts on properties (`../shared/properties.md`): one per property, proven
/// only where no run can break it, violated with a run that does, and otherwise not decided
/// with the bound that stopped the search.
@Suite struct PropertyVerdictTests {
    /// A checkout whose properties cover every form; some hold, some do not.
    static let checkout = """
        machine Checkout {
            public var attempts: Number = 0
            public var spinner: Bool = false
            event tapPay
            event paid
            event failed
            event retry

            initial state reviewing {
                on tapPay -> paying { spinner = true }
            }
            state paying {
                on paid -> receipt { spinner = false }
                on failed -> errorBanner { attempts += 1 }
                after 4s -> errorBanner
            }
            final state receipt
            state errorBanner {
                on retry if attempts < 3 -> paying
            }

            property oneScreen:  never in(paying) && in(errorBanner)
            property quiet:      never spinner && in(errorBanner)
            property fewTries:   always attempts < 3 while in(errorBanner)
            property paidFirst:  in(receipt) only after in(paying)
            property triedFirst: in(errorBanner) only after attempts > 0
            property settles:    after tapPay within 3s: in(receipt) || in(errorBanner)
            property noTrap:     always reachable in(receipt)
        }
        """

    static func verdicts(_ source: String, bounds: ExplorationBounds = ExplorationBounds())
        throws -> [String: ExplorationReport.PropertyVerdict] {
        let result = Statecraft.check(source: source, bounds: bounds)
        let machine = try #require(result.machine)
        let report = try #require(result.exploration)
        #expect(report.properties.count == machine.properties.count, "one verdict per property")
        return Dictionary(uniqueKeysWithValues: zip(machine.properties.map(\.name), report.properties))
    }

    static func counterexample(_ verdict: ExplorationReport.PropertyVerdict?) -> ExplorationReport.PropertyCounterexample? {
        if case .violated(let c)? = verdict { return c }
        return nil
    }

    @Test func eachFormGetsItsVerdict() throws {
        let v = try Self.verdicts(Self.checkout)
        guard case .proven? = v["oneScreen"], case .proven? = v["paidFirst"] else {
            Issue.record("oneScreen and paidFirst hold: \(v)")
            return
        }
        // Failing leaves the spinner on.
        #expect(Self.counterexample(v["quiet"])?.witness.count == 2)
        #expect(Self.counterexample(v["quiet"])?.reason.contains("holds at t=0, in errorBanner") == true)
        // Three failures.
        #expect(Self.counterexample(v["fewTries"])?.witness.count == 6)
        // The timer enters errorBanner with no failure before it.
        #expect(Self.counterexample(v["triedFirst"])?.witness == [.event(EventID(0), [], time: 0), .wait(until: 4)])
        // The timer answers a second after the deadline.
        #expect(Self.counterexample(v["settles"])?.reason.contains("did not hold by the deadline t=3") == true)
        // After the third failure, retry is refused: no way to the receipt.
        #expect(Self.counterexample(v["noTrap"])?.reason.contains("no run reaches") == true)
    }

    @Test func theSameVerdictsFromThePlainSearch() throws {
        let machine = try #require(Statecraft.check(source: Self.checkout, bounds: nil).machine)
        let fast = Exploration.run(machine)
        let plain = Exploration.run(machine, reference: true)
        #expect(fast.properties == plain.properties)
    }

    @Test func aBoundThatStopsTheSearchIsNamed() throws {
        let v = try Self.verdicts(Self.checkout, bounds: ExplorationBounds(maxDepth: 12, maxConfigurations: 3))
        // (`always reachable` is decided by the search alone.)
        guard case .notDecided(let reason)? = v["noTrap"] else {
            Issue.record("expected not decided, got \(String(describing: v["noTrap"]))")
            return
        }
        #expect(reason.contains("the search stopped at its bound of 3 configurations"))
    }

    /// The counterexample is a log that replays: every expectation in it holds, and the line
    /// the search names is where the run broke the property.
    @Test func counterexamplesAreLogsThatReplay() throws {
        let result = Statecraft.check(source: Self.checkout)
        let machine = try #require(result.machine)
        let logs = Counterexamples.logs(machine, try #require(result.exploration))
        #expect(logs.map(\.property) == ["quiet", "fewTries", "triedFirst", "settles", "noTrap"])
        for log in logs {
            var reader = EventLogReader(bytes: Array(log.text.utf8))
            var replayer = Replayer(program: Program(machine), options: .init(strict: true))
            while let record = try reader.next() { try replayer.consume(record) }
            let run = try #require(replayer.report.cases.first)
            #expect(run.failureCount == 0 && run.rejected == 0
                        && run.expectations == log.lines.filter { $0.contains("\"expect\"") }.count,
                    "\(log.property): \(log.text)")
            #expect(log.violationLine >= 1 && log.violationLine <= log.lines.count)
            // Replay breaks the same property at the line the search named (it does not watch
            // `always reachable`, whose log only leads into the trap), and so fails. (The run
            // may break other properties on its way.)
            if log.property != "noTrap" {
                #expect(run.propertyViolations.first { $0.property == log.property }?.line == log.violationLine,
                        "\(log.property): \(run.propertyViolations.map { "\($0.property)@\($0.line)" }) \(log.text)")
                #expect(!replayer.report.passed)
            }
        }
        // tapPay at t=0 on line 2, and the line at t=4 (the 4th) passes the deadline.
        let settles = try #require(logs.first { $0.property == "settles" })
        #expect(settles.violationLine == 4)
        #expect(settles.lines[3].hasPrefix("{\"time\": 4, \"expect\""))
    }

    /// A timer of no delay that an event's step arms fires before the next line, at the
    /// same time: the counterexample's wait of no time belongs to the event's expectation
    /// line, which is where replay fires the timer and sees the property break.
    @Test func aTimerOfNoDelayBreaksThePropertyAtTheLineAfterItsEvent() throws {
        let source = """
            machine Blink {
                var shown: Number = 0
                event tap
                initial state idle {
                    on tap -> flash
                }
                state flash {
                    after 0s -> idle { shown += 1 }
                }
                property once: never shown > 0
            }
            """
        let result = Statecraft.check(source: source)
        let machine = try #require(result.machine)
        let exploration = try #require(result.exploration)
        let log = try #require(Counterexamples.logs(machine, exploration).first)
        var reader = EventLogReader(bytes: Array(log.text.utf8))
        var replayer = Replayer(program: Program(machine))
        while let record = try reader.next() { try replayer.consume(record) }
        let violation = try #require(replayer.report.cases.first?.propertyViolations.first)
        #expect(violation.line == log.violationLine, "\(log.text)")
        #expect(log.violationLine == 3, "the tap is line 2, its expectation line 3: \(log.text)")
    }

    @Test func theIntervalAnalysisProvesWhatTheSearchSamples() throws {
        // Every slide's payload feeds arithmetic: the search samples it and proves nothing.
        let v = try Self.verdicts("""
            machine Dimmer {
                public var level: Number = 0
                event slide(to: Number)
                event switchOff
                initial state lit {
                    on slide { level = min(max(to, 0), 1) }
                    on switchOff -> off { level = 0 }
                }
                final state off
                property inRange: always level >= 0 && level <= 1
                property darkWhenOff: never level > 0 while in(off)
                property tooStrong: always level < 1
            }
            """)
        guard case .proven(let reason)? = v["inRange"], case .proven? = v["darkWhenOff"] else {
            Issue.record("expected proofs: \(v)")
            return
        }
        #expect(reason.contains("interval analysis"))
        // `slide(to: 1)` breaks it: the sampled payloads include the constants compared with.
        #expect(Self.counterexample(v["tooStrong"]) != nil)
    }

    /// A guard that held bounds what the step reads: `x <= 50` keeps `last = x * 2` at most
    /// 100. (The arithmetic on the payload makes the search sample it, so the proof is the
    /// interval analysis's.)
    @Test func guardsNarrowTheIntervals() throws {
        let v = try Self.verdicts("""
            machine Meter {
                public var last: Number = 0
                event sample(x: Number)
                event stop
                initial state measuring {
                    on sample if x > 2 && x <= 50 { last = x * 2 }
                    on stop -> stopped
                }
                final state stopped
                property inRange: always last >= 0 && last <= 100
            }
            """)
        guard case .proven(let reason)? = v["inRange"] else {
            Issue.record("expected a proof: \(String(describing: v["inRange"]))")
            return
        }
        #expect(reason.contains("interval analysis"))
    }

    @Test func aPropertyThatCanFailIsNotProvenByIntervals() throws {
        let v = try Self.verdicts("""
            machine Ratio {
                public var width: Number = 1
                event resize(w: Number)
                initial state shown {
                    on resize { width = max(w, 0) }
                    on hide -> hidden
                }
                event hide
                final state hidden
                property sane: always 10 / width >= 0
            }
            """)
        // width can be 0: the division fails, which violates the property.
        #expect(Self.counterexample(v["sane"])?.reason.contains("cannot be evaluated") == true)
    }

    @Test func aTimerThatAlwaysLeavesProvesAResponse() throws {
        let source = """
            machine Refresh {
                public var inset: Number = 0
                event pull(by: Number)
                event done
                initial state idle {
                    on pull if by > 100 -> refreshing
                }
                state refreshing {
                    entry { inset = 110 }
                    exit { inset -= 110 }
                    after 2s -> idle
                    on done -> idle
                }
                property ends: after entering refreshing within 2s: !in(refreshing)
                property tooSoon: after entering refreshing within 1s: !in(refreshing)
            }
            """
        let v = try Self.verdicts(source)
        guard case .proven(let reason)? = v["ends"] else {
            Issue.record("expected a proof: \(String(describing: v["ends"]))")
            return
        }
        #expect(reason.contains("'after 2s' transition"))
        #expect(Self.counterexample(v["tooSoon"])?.reason.contains("the clock passed it at t=2") == true)
        // A transition that enters refreshing again while it is active re-arms the timer:
        // no proof then.
        let again = try Self.verdicts(source.replacingOccurrences(of: "on done -> idle", with: "on done -> refreshing"))
        if case .proven? = again["ends"] { Issue.record("re-entering refreshing restarts its timer") }
    }

    /// The contract's own example, `after tapPay within 10s: in(receipt) || in(errorBanner)`,
    /// on a checkout whose banner shows through an eventless transition after the payment
    /// fails or times out: every step that takes `tapPay` leaves the machine waiting on the
    /// payment's timer, where each event answers at once or keeps it waiting, and the timer's
    /// step answers. Proven on the search's configurations, and refused where an event can
    /// re-arm the timer, where a second timer is armed beside it, or where the timer comes
    /// due later than the deadline.
    @Test func aResponseIsProvenWhereTheMachineWaitsOnOneTimer() throws {
        let source = """
            machine Pay {
                public var message: String = ""
                event tapPay
                event paid
                event failed(reason: String)
                event retry
                parallel state screen {
                    state button {
                        initial state reviewing { on tapPay -> paying { message = "" } }
                        state paying {
                            on paid -> receipt
                            on failed if reason != "" -> reviewing { message = reason }
                            on failed -> reviewing { message = "failed" }
                            after 10s -> reviewing { message = "timed out" }
                        }
                        state receipt
                    }
                    state banner {
                        initial state hidden { always if message != "" -> shown }
                        state shown { always if message == "" -> hidden }
                    }
                }
                property settles: after tapPay within 10s: in(receipt) || in(shown)
            }
            """
        let v = try Self.verdicts(source)
        guard case .proven(let reason)? = v["settles"] else {
            Issue.record("expected a proof: \(String(describing: v["settles"]))")
            return
        }
        #expect(reason.contains("the 'after' timer of 'paying' (line 14)"), "\(reason)")
        // Within 9 s: the timer comes due too late, and the search finds the run.
        let late = try Self.verdicts(source.replacingOccurrences(of: "within 10s", with: "within 9s"))
        #expect(Self.counterexample(late["settles"]) != nil, "\(String(describing: late["settles"]))")
        // An event that enters paying again re-arms its timer: the environment can put the
        // answer off for ever, so no proof (the search, sending events only at the times its
        // runs reach, finds no counterexample either).
        let rearmed = try Self.verdicts(source.replacingOccurrences(of: "on paid -> receipt", with: "on paid -> receipt\n on retry -> paying"))
        if case .proven? = rearmed["settles"] { Issue.record("retry re-arms the timer: \(String(describing: rearmed["settles"]))") }
        // A second timer beside the first: the rule does not reason about which fires first.
        let twoTimers = try Self.verdicts(source.replacingOccurrences(of: "state receipt", with: "state receipt\n after 1s { message = message }")
            .replacingOccurrences(of: "on paid -> receipt", with: "on paid -> receipt\n after 5s { message = message }"))
        if case .proven? = twoTimers["settles"] { Issue.record("two timers armed: \(String(describing: twoTimers["settles"]))") }
    }

    /// A payload copied into a variable that only a property compares: the property's
    /// constants are regions of the payload too. (The search once tried one string for
    /// `text`, as nothing in the machine compares it, and called both properties proven.)
    @Test func aPropertysConstantsAreTriedAsPayloads() throws {
        let v = try Self.verdicts("""
            machine Notes {
                public var trail: String = ""
                event note(text: String)
                initial state open {
                    on note { trail = text }
                    on close -> closed
                }
                event close
                final state closed
                property neverB: never trail == "b"
                property answered: after note within 500ms: trail != "b"
            }
            """)
        let witness = Self.counterexample(v["neverB"])?.witness ?? []
        #expect(witness.contains { if case .event(_, let payload, _) = $0 { payload == [.string("b")] } else { false } },
                "\(String(describing: v["neverB"]))")
        #expect(Self.counterexample(v["answered"]) != nil, "\(String(describing: v["answered"]))")
    }
}
