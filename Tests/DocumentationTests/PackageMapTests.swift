import Foundation
import Testing
import TestSupport

/// The map of the pipeline that `Package.swift`'s header draws, held to the manifest itself:
/// every arrow drawn is a dependency the manifest declares, and every dependency a target
/// under `Sources/` declares is drawn. `Sources/README.md` names every folder of `Sources/`.
@Suite struct PackageMapTests {
    static var manifest: String {
        get throws { try String(contentsOf: Repository.root.appendingPathComponent("Package.swift"), encoding: .utf8) }
    }

    @Test func everyArrowOfTheHeaderIsADependencyAndEveryDependencyIsDrawn() throws {
        let text = try Self.manifest
        let drawn = try #require(PackageMap.header(text))
        let declared = PackageMap.dependencies(text)
        #expect(!declared.isEmpty)
        for (target, dependencies) in declared {
            let arrows = drawn[target] ?? []
            #expect(drawn[target] != nil, "the header of Package.swift does not draw target '\(target)'")
            for missing in dependencies.subtracting(arrows).sorted() {
                Issue.record("'\(target)' depends on '\(missing)' in the manifest, but the header draws no such arrow")
            }
            for extra in arrows.subtracting(dependencies).sorted() {
                Issue.record("the header draws '\(target) -> \(extra)', which the manifest does not declare")
            }
        }
        for target in Set(drawn.keys).subtracting(declared.keys).sorted() {
            Issue.record("the header draws '\(target)', which is not a target under Sources/")
        }
    }

    /// The checker itself: a header that leaves out an arrow, or draws one too many, is caught.
    @Test func aWrongHeaderIsCaught() throws {
        let manifest = """
            // The pipeline:
            //   A
            //   B -> A
            let package = Package(targets: [
                .target(name: "TA", path: "Sources/A"),
                .target(name: "TB", dependencies: ["TA", "TC"], path: "Sources/B"),
                .target(name: "TC", path: "Sources/C"),
            ])
            """
        let drawn = try #require(PackageMap.header(manifest))
        #expect(drawn == ["A": [], "B": ["A"]])
        #expect(PackageMap.dependencies(manifest) == ["A": [], "B": ["A", "C"], "C": []])
    }

    @Test func theSourcesReadmeNamesEveryFolder() throws {
        let readme = try String(contentsOf: Repository.root.appendingPathComponent("Sources/README.md"), encoding: .utf8)
        let folders = try FileManager.default.contentsOfDirectory(atPath: Repository.root.appendingPathComponent("Sources").path)
            .filter { !$0.contains(".") }
        #expect(folders.count > 10)
        for folder in folders.sorted() {
            #expect(readme.contains("| `\(folder)` |"), "Sources/README.md's table has no row for Sources/\(folder)")
        }
    }
}

/// Reading the map and the manifest (text only: running `swift package` inside `swift test`
/// would wait for the build folder's lock).
enum PackageMap {
    /// The header's arrows, by target (its folder under `Sources/`): the lines
    /// `//   Name -> Dep, Dep` (a line ending in a comma goes on) between the first comment
    /// line and `let package`; a name alone depends on nothing.
    static func header(_ manifest: String) -> [String: Set<String>]? {
        guard let end = manifest.range(of: "let package") else { return nil }
        var map: [String: Set<String>] = [:]
        var pending = ""
        for raw in manifest[..<end.lowerBound].split(separator: "\n") {
            let line = raw.trimmingCharacters(in: .whitespaces)
            guard line.hasPrefix("//   ") || (!pending.isEmpty && line.hasPrefix("//")) else { continue }
            pending += String(line.dropFirst(2)).trimmingCharacters(in: .whitespaces) + " "
            if pending.trimmingCharacters(in: .whitespaces).hasSuffix(",") { continue }
            let parts = pending.components(separatedBy: "->")
            pending = ""
            let name = parts[0].trimmingCharacters(in: .whitespaces)
            guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" }) else { continue }
            let dependencies = parts.count > 1
                ? parts[1].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty } : []
            map[name] = Set(dependencies)
        }
        return map.isEmpty ? nil : map
    }

    /// Each target under `Sources/` (by folder) and the targets it depends on (by folder).
    static func dependencies(_ manifest: String) -> [String: Set<String>] {
        var folders: [String: String] = [:]  // target name -> folder
        var declared: [String: [String]] = [:]
        var rest = manifest[...]
        while let start = rest.range(of: #"\.(target|executableTarget|testTarget|plugin)\("#, options: .regularExpression) {
            // The target's arguments: up to the parenthesis that closes it.
            var depth = 0
            var end = start.upperBound
            var i = rest.index(before: start.upperBound)
            while i < rest.endIndex {
                if rest[i] == "(" { depth += 1 }
                if rest[i] == ")" { depth -= 1; if depth == 0 { end = i; break } }
                i = rest.index(after: i)
            }
            let body = String(rest[start.upperBound..<end])
            rest = rest[end...]
            guard let name = capture(#"name:\s*"([^"]+)""#, in: body),
                  let path = capture(#"path:\s*"([^"]+)""#, in: body), path.hasPrefix("Sources/") else { continue }
            folders[name] = String(path.dropFirst("Sources/".count))
            let list = capture(#"dependencies:\s*\[([^\]]*)\]"#, in: body) ?? ""
            declared[name] = list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
                .map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "\"")) }.filter { !$0.isEmpty }
        }
        var result: [String: Set<String>] = [:]
        for (name, dependencies) in declared {
            guard let folder = folders[name] else { continue }
            result[folder] = Set(dependencies.map { folders[$0] ?? $0 })
        }
        return result
    }

    private static func capture(_ pattern: String, in text: String) -> String? {
        guard let regex = try? NSRegularExpression(pattern: pattern),
              let match = regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)),
              let range = Range(match.range(at: 1), in: text) else { return nil }
        return String(text[range])
    }
}
