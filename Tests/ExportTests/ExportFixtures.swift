import Foundation
import Statecraft
import TestSupport

/// The machines the export tests draw: the specs in `Specs/` and the fixtures in `Golden/`.
enum ExportFixtures {
    /// `Tests/ExportTests/Golden/`, where golden files and fixture specs live.
    static let golden = Repository.root.appendingPathComponent("Tests/ExportTests/Golden")

    /// The spec names in `Specs/` (file names without `.machine`), sorted.
    static let specNames: [String] = Repository.specFiles().map { $0.deletingPathExtension().lastPathComponent }

    /// The fixture spec with odd names and strings.
    static let oddName = "odd-names"

    /// Reads and checks a spec; nil (and the test fails on it) when it has errors.
    static func machine(at url: URL) -> Machine? {
        let text = String(decoding: Repository.bytes(url), as: UTF8.self)
        return Statecraft.check(source: text, path: url.path, bounds: nil).machine
    }

    /// A spec from `Specs/` by name.
    static func spec(_ name: String) -> Machine? {
        machine(at: Repository.specs.appendingPathComponent(name + ".machine"))
    }

    /// The odd-names fixture.
    static func odd() -> Machine? {
        machine(at: golden.appendingPathComponent(oddName + ".machine"))
    }

    /// Every machine the Graphviz and golden tests cover: the specs, then the fixture.
    static var allNames: [String] { specNames + [oddName] }

    /// A machine from `allNames`.
    static func named(_ name: String) -> Machine? { name == oddName ? odd() : spec(name) }
}
