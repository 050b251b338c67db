import Statecraft
import Testing

/// "Did you mean" suggestions, shared by specs, logs and the command line.
@Suite struct EditDistanceTests {
    @Test(arguments: [
        ("opne", ["open", "closed"], "open"),          // two letters swapped
        ("runing", ["running", "idle"], "running"),     // one letter missing
        ("tapp", ["tap", "tip"], "tap"),                // one letter extra
        ("touchBegn", ["touchBegan", "touchMoved"], "touchBegan"),
        ("Strng", ["Number", "Bool", "String"], "String"),
    ])
    func suggestsTheClosestName(typo: String, candidates: [String], expected: String) {
        #expect(EditDistance.closest(to: typo, among: candidates) == expected)
    }

    @Test func staysQuietWhenNothingIsClose() {
        #expect(EditDistance.closest(to: "xyz", among: ["open", "closed"]) == nil)
        #expect(EditDistance.closest(to: "open", among: ["open"]) == nil, "an exact match is no typo")
        #expect(EditDistance.closest(to: "", among: ["a"]) == "a")
        #expect(EditDistance.closest(to: "--trcae", among: ["--trace"], limit: 2) == "--trace")
    }
}
