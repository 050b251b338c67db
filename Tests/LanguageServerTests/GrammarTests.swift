import Foundation
import Statecraft
import Testing
import TestSupport

/// The TextMate grammar shipped for editors that highlight with one (VS Code, and others
/// through it): valid JSON, every pattern a regular expression, every reserved word of the
/// lexer given a keyword-like scope.
@Suite struct GrammarTests {
    static let url = Repository.root.appendingPathComponent("Sources/LanguageServer/Editors/statecraft.tmLanguage.json")

    /// Every rule of the grammar (patterns and repository entries, at any depth).
    static func rules() throws -> [[String: Any]] {
        let data = try Data(contentsOf: url)
        let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        var rules: [[String: Any]] = []
        func walk(_ value: Any) {
            if let rule = value as? [String: Any] {
                rules.append(rule)
                rule.values.forEach(walk)
            } else if let list = value as? [Any] {
                list.forEach(walk)
            }
        }
        walk(root["patterns"] as Any)
        walk(root["repository"] as Any)
        return rules
    }

    @Test func isJSONWithTheScopeAndFileType() throws {
        let data = try Data(contentsOf: Self.url)
        let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(root["scopeName"] as? String == "source.statecraft")
        #expect(root["fileTypes"] as? [String] == ["machine"])
        // Every include names a repository entry.
        let repository = try #require(root["repository"] as? [String: Any])
        for rule in try Self.rules() {
            if let include = rule["include"] as? String {
                #expect(include.hasPrefix("#") && repository[String(include.dropFirst())] != nil, "\(include)")
            }
        }
    }

    @Test func everyPatternCompiles() throws {
        var count = 0
        for rule in try Self.rules() {
            for key in ["match", "begin", "end"] {
                guard let pattern = rule[key] as? String else { continue }
                count += 1
                #expect(throws: Never.self, "\(pattern)") {
                    _ = try NSRegularExpression(pattern: pattern, options: [.anchorsMatchLines])
                }
            }
        }
        #expect(count > 20)
    }

    /// Each keyword the lexer reserves, written on its own, is matched whole by a rule that
    /// gives it a keyword, storage or language-constant scope.
    @Test(arguments: TokenKind.keywords.keys.sorted())
    func coversTheKeyword(_ keyword: String) throws {
        let line = "\(keyword) "
        let whole = NSRange(location: 0, length: keyword.utf16.count)
        let scopes = ["keyword.", "storage.", "constant.language"]
        let covered = try Self.rules().contains { rule in
            guard let pattern = rule["match"] as? String, let name = rule["name"] as? String,
                  scopes.contains(where: name.hasPrefix),
                  let regex = try? NSRegularExpression(pattern: pattern, options: [.anchorsMatchLines]) else { return false }
            return regex.firstMatch(in: line, range: NSRange(location: 0, length: line.utf16.count))?.range == whole
        }
        #expect(covered, "no rule scopes the keyword '\(keyword)'")
    }

    /// The words that are keywords only in place are scoped there, and stay names elsewhere:
    /// PeekRating's event `cancel`.
    @Test func contextualWordsDependOnWhatFollows() throws {
        let rules = try Self.rules().filter { ($0["name"] as? String)?.hasPrefix("keyword.control") == true }
        func isKeyword(_ line: String, _ word: String) -> Bool {
            let start = (line as NSString).range(of: word)
            return rules.contains { rule in
                guard let pattern = rule["match"] as? String,
                      let regex = try? NSRegularExpression(pattern: pattern, options: [.anchorsMatchLines]) else { return false }
                return regex.matches(in: line, range: NSRange(location: 0, length: line.utf16.count)).contains { $0.range == start }
            }
        }
        #expect(isKeyword("        cancel retry", "cancel"))
        #expect(!isKeyword("    event cancel", "cancel"))
        #expect(!isKeyword("        on cancel -> idle", "cancel"))
        #expect(isKeyword("        done -> idle", "done"))
        #expect(isKeyword("        send tick after 2", "send"))
    }
}
