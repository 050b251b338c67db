import Statecraft
import Testing

/// Properties in the index: each is declared, and the names it uses are references, so a
/// rename reaches them too.
@Suite struct PropertyIndexTests {
    static let file = SourceFile(path: "p.machine", text: """
        machine M {
            const limit = 2
            var count: Number = 0
            event go(count2: Number)
            initial state idle { on go -> busy { count += 1 } }
            state busy { on go -> idle }
            property bounded: always count <= limit while in(busy)
            property answered: after go within limit: in(idle)
            property entered: after entering busy within 1s: !in(idle)
            property bounded: never in(idle) && in(busy)
        }
        """)

    static func offset(of text: String, _ occurrence: Int = 0) -> Int {
        let haystack = String(decoding: file.bytes, as: UTF8.self)
        var from = haystack.startIndex
        var found = haystack.startIndex
        for _ in 0...occurrence {
            guard let r = haystack.range(of: text, range: from..<haystack.endIndex) else { return -1 }
            found = r.lowerBound
            from = r.upperBound
        }
        return haystack.utf8.distance(from: haystack.startIndex, to: found)
    }

    @Test func propertiesAreDeclared() {
        let index = SymbolIndex(Self.file)
        let names = index.names(of: .property).map(\.symbol.name)
        #expect(names == ["bounded", "answered", "entered"], "a repeated name is one symbol, as for states")
        #expect(index.declaration(of: Symbol(.property, "answered"))?.signature
            == "property answered: after go within limit: in(idle)")
    }

    @Test func namesInPropertiesAreReferences() {
        let index = SymbolIndex(Self.file)
        func uses(_ symbol: Symbol) -> [Int] {
            index.references(of: symbol, includingDeclarations: false).map(\.start)
        }
        #expect(uses(Symbol(.variable, "count")).contains(Self.offset(of: "count <=")))
        #expect(uses(Symbol(.constant, "limit")) == [Self.offset(of: "limit while"), Self.offset(of: "limit:")])
        #expect(uses(Symbol(.event, "go")).contains(Self.offset(of: "go within")))
        #expect(uses(Symbol(.state, "busy")).contains(Self.offset(of: "busy within")))
        #expect(uses(Symbol(.state, "idle")).contains(Self.offset(of: "idle)", 1)))
    }

    @Test func renamingAnEventReachesTheProperty() throws {
        let index = SymbolIndex(Self.file)
        let ranges = try index.rename(at: Self.offset(of: "event go") + 6, to: "tap").get()
        #expect(ranges.map(\.start).contains(Self.offset(of: "go within")))
    }
}
