import Foundation
import Statecraft
import Testing
import TestSupport

/// Values of a final state (`final state f(code: 200)`, SCXML's `<donedata>`): the parent's
/// completion carries them, computed when the final state is entered, and its `done`
/// transitions read them in guards and actions. Each test runs the compiled runtime and the
/// reference interpreter, which must agree.
@Suite struct DoneDataTests {
    /// Runs `events` on both the compiled instance and the reference stepper; returns the
    /// instance (after checking the reference ended the same).
    func run(_ source: String, _ events: [String], sourceLocation: Testing.SourceLocation = #_sourceLocation)
        throws -> (Instance, [Step.Result], [String]) {
        let p = try program(source: source)
        var instance = Instance(p)
        var reference = ReferenceStepper(p.machine)
        var outputs: [String] = []
        var referenceOutputs: [String] = []
        let describe: (OutputID, [Value]) -> String = { o, args in
            p.machine[o].name + (args.isEmpty ? "" : "(" + args.map(\.description).joined(separator: ", ") + ")")
        }
        _ = instance.start { outputs.append(describe($0, $1)) }
        _ = reference.start()
        referenceOutputs += reference.outputs.map { describe($0.0, $0.1) }
        var results: [Step.Result] = []
        for e in events {
            guard let id = p.machine.events.first(where: { $0.name == e })?.id else {
                Issue.record("no event \(e)", sourceLocation: sourceLocation)
                continue
            }
            let step = instance.send(id, payload: []) { outputs.append(describe($0, $1)) }
            let referenceStep = reference.send(id, payload: [])
            referenceOutputs += reference.outputs.map { describe($0.0, $0.1) }
            results.append(step.result)
            #expect(step == referenceStep, "the reference disagrees on \(e)", sourceLocation: sourceLocation)
        }
        #expect(instance.configuration.names(in: p.machine) == reference.activeStates.map { p.machine[$0].name },
                sourceLocation: sourceLocation)
        #expect(instance.variables == reference.variables, sourceLocation: sourceLocation)
        #expect(outputs == referenceOutputs, sourceLocation: sourceLocation)
        return (instance, results, outputs)
    }

    func isActive(_ instance: Instance, _ name: String) -> Bool {
        instance.configuration.names(in: instance.program.machine).contains(name)
    }

    static let payment = """
        machine Payment {
            var charges: Number = 0
            public var shown: String = ""
            public var code: Number = 0
            event paid
            event refused
            event again
            output receipt(note: String)

            initial state payment {
                initial state charging {
                    on paid -> settled { charges += 1 }
                    on refused -> declined
                }
                final state settled(status: 200, note: "charged \\(charges)") {
                    entry { charges += 10 }
                }
                final state declined(status: 402, note: "refused")
                done if status == 200 -> receipt { shown = note; code = status; emit receipt(note) }
                done -> failed { shown = note; code = status }
            }

            state receipt {
                on again -> payment
            }

            state failed {
                on again -> payment
            }
        }
        """

    /// The guard and the actions of `done` read the fields; the value is computed after the
    /// final state's entry actions (`charges` is 11 there, not 1).
    @Test func fieldsAreReadInGuardsAndActionsAfterEntryActions() throws {
        let (instance, results, outputs) = try run(Self.payment, ["paid"])
        #expect(results.count == 1)
        #expect(isActive(instance, "receipt"))
        #expect(instance.value(of: "shown") == .string("charged 11"))
        #expect(instance.value(of: "code") == .number(200))
        #expect(outputs == ["receipt(\"charged 11\")"])
    }

    /// Whichever final child is entered gives the values: the other `done` is taken.
    @Test func eachFinalChildGivesItsOwnValues() throws {
        let (instance, _, outputs) = try run(Self.payment, ["refused", "again", "paid"])
        #expect(instance.value(of: "shown") == .string("charged 11"))
        #expect(outputs == ["receipt(\"charged 11\")"])
        let (declined, _, none) = try run(Self.payment, ["refused"])
        #expect(declined.value(of: "shown") == .string("refused"))
        #expect(declined.value(of: "code") == .number(402))
        #expect(none.isEmpty)
    }

    /// A value that fails (a division by zero) fails the step that enters its final state:
    /// the step is undone, as when an action fails.
    @Test func aFailingValueRejectsTheStep() throws {
        let source = """
            machine Ratio {
                var n: Number = 0
                public var result: Number = 0
                event add
                event finish

                initial state counting {
                    initial state open {
                        on add { n += 1 }
                        on finish -> closed
                    }
                    final state closed(share: 1 / n)
                    done -> over { result = share }
                }

                state over
            }
            """
        let (failing, results, _) = try run(source, ["finish"])
        guard case .failed(let fault)? = results.first else {
            Issue.record("the step should fail: \(results)")
            return
        }
        #expect(fault.message.hasPrefix("division by zero"), "\(fault.message)")
        #expect(failing.program.machine.text(fault.range) == "1 / n", "the fault is at the value")
        #expect(isActive(failing, "open"), "the step is undone")
        let (passing, ok, _) = try run(source, ["add", "add", "finish"])
        #expect(ok.map { "\($0)" }.last?.hasPrefix("applied") == true, "\(ok)")
        #expect(passing.value(of: "result") == .number(0.5))
    }

    /// A region's completion carries its final state's values (`done(region)`); the
    /// parallel state's own completion, queued after it, carries none.
    @Test func aRegionCompletionCarriesValuesAndTheParallelOneNone() throws {
        let source = """
            machine Upload {
                public var size: Number = 0
                public var steps: String = ""
                event go

                initial parallel state both {
                    state file {
                        initial state sending { on go -> sent }
                        final state sent(bytes: 42)
                    }
                    state thumb {
                        initial state making { on go -> made }
                        final state made
                    }
                    done(file) { size = bytes; steps += "file " }
                    done -> over { steps += "both" }
                }

                state over
            }
            """
        let (instance, _, _) = try run(source, ["go"])
        #expect(instance.value(of: "size") == .number(42))
        #expect(instance.value(of: "steps") == .string("file both"))
    }
}
