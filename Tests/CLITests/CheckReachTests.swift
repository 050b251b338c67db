import Foundation
import Testing
import TestSupport

/// `check --reach STATE|LINE`: the whole search budget spent on one target, with its
/// witness, its proof, or the limit that stopped it; and the words that name no target.
@Suite struct CheckReachTests {
    static let checkout = "\(CheckCommandTests.fixtures)/debounce-checkout.machine"

    @Test func aStateIsReachedWithItsWitness() throws {
        let r = try CLI.run(["check", "--reach", "paid", Self.checkout])
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        let lines = r.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 2, "\(r.stdout)")
        #expect(lines.first?.hasPrefix("\(Self.checkout): state paid (") == true, "\(r.stdout)")
        #expect(lines.last == "  reached by add, checkout, validate(length: 5), next, next, validate(length: 16), next, pay, approved",
                "\(r.stdout)")
        // A path of parents names the same kind of target; one that is not is refused.
        let card = try CLI.run(["check", "--reach", "form.payment.card", Self.checkout])
        #expect(card.status == 0, "\(card.stdout)\(card.stderr)")
        #expect(card.stdout.hasPrefix("\(Self.checkout): state card ("), "\(card.stdout)")
        let wrong = try CLI.run(["check", "--reach", "form.card", Self.checkout])
        #expect(wrong.status == 2)
        #expect(wrong.stderr == "error: '\(Self.checkout)' has no state 'card' directly inside 'form'; its parent is 'payment'\n")
    }

    /// The transitions written on one line; a line without one is refused.
    @Test func aLineNamesItsTransitions() throws {
        let r = try CLI.run(["check", "--reach", "50", Self.checkout])
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        #expect(r.stdout.hasPrefix("\(Self.checkout): transition paying --approved--> paid (line 50) ("), "\(r.stdout)")
        let none = try CLI.run(["check", "--reach", "2", Self.checkout])
        #expect(none.status == 2)
        #expect(none.stderr == "error: '\(Self.checkout)' has no transition on line 2\n")
    }

    /// Unreachable, but only the search can tell: `n` is 1 or -1, never 0, which the
    /// interval analysis (n in [-1, 1]) cannot rule out.
    @Test func anExhaustedSearchProvesUnreachable() throws {
        let spec = try AnalysisVerdictTests.spec("""
            machine Flip {
                var n: Number = 1
                event flip
                event open
                initial state closed {
                    on flip { n = n * -1 }
                    on open if n == 0 -> opened
                }
                state opened
            }
            """, name: "Flip.machine")
        let r = try CLI.run(["check", "--reach", "opened", spec])
        #expect(r.status == 1, "\(r.stdout)\(r.stderr)")
        #expect(r.stdout.hasSuffix("""
            : state opened (2 configurations searched)
              unreachable: the search visited every configuration from which it can be reached (2) and tried every distinct input in each

            """), "\(r.stdout)")
    }

    @Test func aSearchCutShortSaysWhichLimit() throws {
        let r = try CLI.run(["check", "--reach", "paid", "--max-configurations", "5", Self.checkout])
        #expect(r.status == 3, "\(r.stdout)\(r.stderr)")
        #expect(r.stdout.contains("  not reached: the search stopped at its bound of 5 configurations (raise it with --max-configurations); "
            + "this is not a proof that it is unreachable\n"), "\(r.stdout)")
    }

    @Test func anUnknownNameGetsDidYouMean() throws {
        let r = try CLI.run(["check", "--reach", "payed", Self.checkout])
        #expect(r.status == 2)
        #expect(r.stdout.isEmpty)
        #expect(r.stderr == "error: '\(Self.checkout)' has no state named 'payed'; did you mean 'paid'?\n")
        let two = try CLI.run(["check", "--reach", "paid", Self.checkout, "Specs/Drawer.machine"])
        #expect(two.status == 2)
        #expect(two.stderr.hasPrefix("Error: --reach searches one spec; found 2\n"), "\(two.stderr)")
    }
}
