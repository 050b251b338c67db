import Foundation
import Statecraft
import Testing
import TestSupport

/// `private` before an event's payload field: the mark reaches the model, `fmt` keeps it, the
/// editor shows it, and it is refused on an output's argument. (What recorders do with it is
/// tested where recordings are made.)
@Suite struct PrivateFieldTests {
    static let spec = """
        machine SignIn {
            event submit(user: String, private password: String, private: Bool)
            output signIn(user: String)

            initial state form {
                on submit if password != "" && !private { emit signIn(user) }
            }
        }

        """

    @Test func theMarkReachesTheModelAndAFieldMayStillBeCalledPrivate() throws {
        let program = try Program(specText: Self.spec)
        let fields = try #require(program.machine.events.first).fields
        #expect(fields.map(\.name) == ["user", "password", "private"])
        #expect(fields.map(\.isPrivate) == [false, true, false])
        #expect(program.machine.outputs[0].fields.map(\.isPrivate) == [false])
    }

    @Test func anOutputArgumentCannotBePrivate() {
        let text = "machine M {\n    event e\n    output o(private x: Number)\n    initial state a { on e { emit o(1) } }\n}\n"
        do {
            _ = try Program(specText: text, path: "M.machine")
            Issue.record("a private output argument was accepted")
        } catch {
            #expect(error.diagnostics.map(\.id) == [.expectedToken])
            #expect(error.description.hasPrefix(
                "M.machine:3:14: error: 'private' marks an event's payload field; an output's arguments are never recorded"),
                "\(error.description)")
        }
    }

    @Test func fmtLaysTheMarkOutLikeAModifier() throws {
        let messy = "machine SignIn {\n    event submit(user:String,private    password : String)\n    initial state a\n}\n"
        let result = SpecFormatter.format(SourceFile(path: "SignIn.machine", text: messy))
        guard case .formatted(let bytes) = result.outcome else {
            Issue.record("not formatted: \(result.outcome)")
            return
        }
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.contains("    event submit(user: String, private password: String)\n"), "\(text)")
        let again = SpecFormatter.format(SourceFile(path: "SignIn.machine", bytes: bytes))
        #expect(again.outcome == .formatted(bytes))
    }

    @Test func hoverAndTheFingerprintShowTheMark() {
        let file = SourceFile(path: "SignIn.machine", text: Self.spec)
        let index = SymbolIndex(file)
        let offset = Array(Self.spec.utf8).firstRange(of: Array("password:".utf8))!.lowerBound
        #expect(index.definition(at: offset).map(\.signature) == ["private password: String (a field of event submit)"])
        let event = Array(Self.spec.utf8).firstRange(of: Array("submit(".utf8))!.lowerBound
        #expect(index.definition(at: event).map(\.signature)
                == ["event submit(user: String, private password: String, private: Bool)"])
        // A recording made before a field became private is not of this spec.
        let unmarked = Self.spec.replacingOccurrences(of: "private password", with: "password")
        #expect(SpecFingerprint(specText: unmarked) != SpecFingerprint(specText: Self.spec))
    }
}
