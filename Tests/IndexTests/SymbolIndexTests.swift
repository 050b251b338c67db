import Foundation
import Statecraft
import Testing
import TestSupport

/// The index on the bundled specs: definitions, references and renames as an editor asks for
/// them, at offsets found by searching the spec's text.
@Suite struct SymbolIndexTests {
    static func spec(_ name: String) -> SourceFile {
        let url = Repository.specs.appendingPathComponent(name + ".machine")
        return SourceFile(path: url.path, bytes: Repository.bytes(url))
    }

    /// The byte offset of the `occurrence`-th (0-based) appearance of `text` after `after`.
    static func offset(of text: String, _ occurrence: Int = 0, after: String? = nil, in file: SourceFile) -> Int {
        let haystack = String(decoding: file.bytes, as: UTF8.self)
        var from = haystack.startIndex
        if let after, let r = haystack.range(of: after) { from = r.upperBound }
        var found = haystack.startIndex
        for _ in 0...occurrence {
            guard let r = haystack.range(of: text, range: from..<haystack.endIndex) else { return -1 }
            found = r.lowerBound
            from = r.upperBound
        }
        return haystack.utf8.distance(from: haystack.startIndex, to: found)
    }

    static func text(_ range: SourceRange, _ file: SourceFile) -> String {
        String(decoding: file.bytes[range.start..<range.end], as: UTF8.self)
    }

    @Test func aTargetLeadsToItsStateDeclaration() throws {
        let file = Self.spec("PeekRating")
        let index = SymbolIndex(file)
        let definition = index.definition(at: Self.offset(of: "-> pressing", in: file) + 3)
        let state = try #require(definition.first)
        #expect(definition.count == 1)
        #expect(state.symbol == Symbol(.state, "pressing"))
        #expect(state.nameRange.start == Self.offset(of: "state pressing", in: file) + 6)
        #expect(state.signature == "state pressing")
    }

    /// An event's signature, as hover shows it, ends with the name other systems give it.
    @Test func anEventsSignatureShowsItsExternalName() throws {
        let file = SourceFile(path: "t.machine", text: """
            machine M {
                event key(value: Number) as "DIGIT.*"
                event quote as "say.\\"hi\\""
                initial state s { on key, quote -> s }
            }
            """)
        let index = SymbolIndex(file)
        #expect(index.declaration(of: Symbol(.event, "key"))?.signature == "event key(value: Number) as \"DIGIT.*\"")
        #expect(index.declaration(of: Symbol(.event, "quote"))?.signature == "event quote as \"say.\\\"hi\\\"\"")
    }

    @Test func aVariableHasItsDeclarationAndEveryUse() {
        let file = Self.spec("PeekRating")
        let index = SymbolIndex(file)
        let ranges = index.references(of: Symbol(.variable, "cellMidY"))
        // Declared, set on the press, read in both commit transitions.
        #expect(ranges.count == 4)
        #expect(ranges.allSatisfy { Self.text($0, file) == "cellMidY" })
        #expect(index.references(of: Symbol(.variable, "cellMidY"), includingDeclarations: false).count == 3)
    }

    @Test func aPayloadFieldIsTheFieldOfTheTransitionsEvent() throws {
        let file = Self.spec("PeekRating")
        let index = SymbolIndex(file)
        // `x` in the commit transitions is commitUpdate's `x`, not pressBegan's.
        let use = Self.offset(of: "x >= cellMinX", in: file)
        #expect(index.symbol(at: use) == Symbol(.eventField, "x", owner: "commitUpdate"))
        let definition = try #require(index.definition(at: use).first)
        #expect(definition.nameRange.start == Self.offset(of: "x: Number", after: "event commitUpdate", in: file))
        #expect(definition.type == "Number")
        // Two transitions read it twice each.
        #expect(index.references(of: Symbol(.eventField, "x", owner: "commitUpdate")).count == 5)
        #expect(index.references(of: Symbol(.eventField, "x", owner: "pressBegan")).count == 1)
    }

    @Test func aLetValueIsItsOwnSymbol() throws {
        let file = Self.spec("PeekRating")
        let index = SymbolIndex(file)
        let use = Self.offset(of: "insideCell ?", in: file)
        let definition = try #require(index.definition(at: use).first)
        #expect(definition.symbol.kind == .local)
        #expect(definition.nameRange.start == Self.offset(of: "insideCell", in: file))
    }

    @Test func eventsAndOutputsAreFoundWhereTheyAreUsed() {
        let file = Self.spec("PeekRating")
        let index = SymbolIndex(file)
        #expect(index.symbol(at: Self.offset(of: "rated(rating)", in: file)) == Symbol(.output, "rated"))
        #expect(index.references(of: Symbol(.event, "commitUpdate")).count == 3)
        #expect(index.references(of: Symbol(.event, "cancel")).count == 2)
    }

    @Test func aStateKnowsWhatComesInAndGoesOut() {
        let index = SymbolIndex(Self.spec("PeekRating"))
        #expect(index.incoming(to: "idle").map(\.trigger) == ["on cancel", "on commitUpdate"])
        #expect(index.outgoing(from: "idle").map(\.target) == ["pressing"])
        #expect(index.outgoing(from: "preview").map(\.trigger) == ["on previewUpdate", "on previewUpdate"])
    }

    @Test func renamingAStateRewritesEveryMention() throws {
        let file = Self.spec("PeekRating")
        let index = SymbolIndex(file)
        let ranges = try index.rename(at: Self.offset(of: "state idle", in: file) + 6, to: "resting").get()
        #expect(ranges.count == 4)  // the declaration, two targets, `in(idle)` in a property
        #expect(ranges.allSatisfy { Self.text($0, file) == "idle" })
    }

    @Test(arguments: [
        ("state idle", "pressing", "cannot rename 'idle' to 'pressing': a state named 'pressing' is already declared at line 52"),
        ("state idle", "on", "cannot rename 'idle' to 'on': 'on' is a keyword"),
        ("state idle", "2x", "cannot rename 'idle' to '2x': '2x' is not a name (letters, digits and '_', not starting with a digit)"),
        ("cellMinX", "rating", "cannot rename 'cellMinX' to 'rating': a variable named 'rating' is already declared at line 12"),
        ("cellMinX", "progress", "cannot rename 'cellMinX' to 'progress': an event field named 'progress' is already declared at line 27"),
        ("cellMinX", "overCell", "cannot rename 'cellMinX' to 'overCell': a let value named 'overCell' is already declared at line 74"),
        ("insideCell", "x", "cannot rename 'insideCell' to 'x': an event field named 'x' is already declared at line 23"),
    ])
    func aCollidingRenameIsRefusedWithAReason(_ name: String, _ newName: String, _ message: String) {
        let file = Self.spec("PeekRating")
        let index = SymbolIndex(file)
        let at = Self.offset(of: name, in: file) + (name.hasPrefix("state ") ? 6 : 0)
        let result = index.rename(at: at, to: newName)
        #expect(result.failureMessage == message)
    }

    /// A new name that is free where it is declared but would be read as another symbol's
    /// somewhere: the field `x` of `a` renamed `y` would, in `on a, b`, also read `b`'s `y`.
    @Test func aRenameThatWouldChangeWhatANameMeansIsRefused() {
        let text = """
            machine M {
                event a(x: Number)
                event b(y: Number)
                initial state s {
                    on a, b if x > 0 -> s
                }
            }
            """
        let file = SourceFile(path: "M.machine", text: text)
        let index = SymbolIndex(file)
        let x = Self.offset(of: "x: Number", in: file)
        #expect(index.rename(at: x, to: "y").failureMessage == "cannot rename 'x' to 'y': another name would hide it or be hidden by it")
        #expect((try? index.rename(at: x, to: "z").get())?.count == 2)
    }

    /// Every declared name of every bundled spec renamed to a fresh name: the spec checks to the
    /// same diagnostics, and the new name sits exactly where the old one was used.
    @Test(arguments: ["CheckoutScreen", "Drawer", "MediaPlayer", "PeekRating", "PullToRefresh", "SwipeToDismiss", "VibrantButton"])
    func everyRenameKeepsTheSpecMeaningTheSame(_ name: String) throws {
        let file = Self.spec(name)
        let index = SymbolIndex(file)
        let before = Statecraft.check(file, bounds: nil).diagnostics.map(\.id)
        for declaration in index.declarations {
            let ranges = try index.rename(at: declaration.nameRange.start, to: "renamed_\(declaration.symbol.name)").get()
            var bytes = file.bytes
            for r in ranges.sorted(by: { $0.start > $1.start }) {
                bytes.replaceSubrange(r.start..<r.end, with: Array("renamed_\(declaration.symbol.name)".utf8))
            }
            let after = Statecraft.check(SourceFile(path: file.path, bytes: bytes), bounds: nil)
            #expect(after.diagnostics.map(\.id) == before, "renaming \(declaration.symbol)")
            #expect(after.symbols.references(of: Symbol(declaration.symbol.kind, "renamed_\(declaration.symbol.name)",
                                                         owner: declaration.symbol.owner)).count == ranges.count
                    || declaration.symbol.kind == .local, "renaming \(declaration.symbol)")
        }
    }

    /// A file broken half-way still answers for the parts that parsed, and `check` reports only
    /// the syntax error.
    @Test func aFileWithASyntaxErrorIsIndexedAsFarAsItParsed() throws {
        let file = Self.spec("PeekRating")
        var text = String(decoding: file.bytes, as: UTF8.self)
        // Half-typed: a transition whose target is not written yet.
        text = text.replacingOccurrences(of: "on cancel -> idle", with: "on cancel -> ")
        let result = Statecraft.check(source: text, path: "PeekRating.machine")
        #expect(result.diagnostics.allSatisfy { $0.severity != .error || $0.id == .expectedToken }, "\(result.diagnostics)")
        #expect(result.errorCount >= 1)
        #expect(result.machine == nil)
        let broken = result.symbols
        let use = Self.offset(of: "-> commit", in: result.file) + 3
        #expect(broken.definition(at: use).first?.symbol == Symbol(.state, "commit"))
        #expect(broken.references(of: Symbol(.variable, "cellMidY")).count == 4)
    }
}

extension Result where Failure == RenameRefusal {
    var failureMessage: String? {
        if case .failure(let refusal) = self { return refusal.message }
        return nil
    }
}

/// The UsingTheLibrary article's index example, on Drawer.
@Suite struct ReadmeIndexExampleTests {
    @Test func theExampleSaysWhatItPrints() throws {
        let spec = String(decoding: Repository.bytes(Repository.specs.appendingPathComponent("Drawer.machine")), as: UTF8.self)
        let result = Statecraft.check(source: spec, path: "Drawer.machine", bounds: nil)
        let index = result.symbols
        let text = String(decoding: result.file.bytes, as: UTF8.self)
        let target = try #require(text.range(of: "-> open"))
        let offset = text.utf8.distance(from: text.startIndex, to: target.upperBound) - 1
        #expect(index.symbol(at: offset) == Symbol(.state, "open"))
        #expect(index.definition(at: offset).map(\.signature) == ["initial state open"])
        #expect(index.references(of: Symbol(.state, "open")).count == 3)  // and `in(open)` in a property
        #expect(index.rename(at: offset, to: "closed").failureMessage
                == "cannot rename 'open' to 'closed': a state named 'closed' is already declared at line 45")
    }
}
