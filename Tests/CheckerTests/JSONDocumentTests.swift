import Foundation
import Statecraft
import Testing

/// `JSON`, the document every structured report is built as: its two layouts, its member
/// order, and that Foundation's parser (a reader we did not write) reads back what it holds.
@Suite struct JSONDocumentTests {
    static let sample: JSON = [
        "file": "Specs/drawer.machine",
        "line": 12,
        "ratio": .number(0.25),
        "huge": .number(1e300),
        "nan": .number(.nan),
        "ok": true,
        "none": nil,
        "tags": ["a", "b\n\"c\""],
        "empty": [],
        "nested": ["deep": [["x": 1], "é 🎈"]],
    ]

    @Test func indentedKeepsScalarsOnOneLine() {
        let expected = """
            {
              "file": "Specs/drawer.machine",
              "line": 12,
              "ratio": 0.25,
              "huge": 1e+300,
              "nan": null,
              "ok": true,
              "none": null,
              "tags": ["a", "b\\n\\"c\\""],
              "empty": [],
              "nested": {
                "deep": [
                  {"x": 1},
                  "é 🎈"
                ]
              }
            }
            """
        #expect(Self.sample.rendered() == expected)
    }

    @Test func compactIsOneLine() {
        let text = Self.sample.rendered(.compact)
        #expect(!text.contains("\n") && !text.contains(": "))
        #expect(text.hasPrefix("{\"file\":\"Specs/drawer.machine\",\"line\":12,"))
    }

    /// `outline` breaks only the outer levels: below them each record is one line, written
    /// with the same spaces as `indented`.
    @Test func outlineBreaksTheOuterLevelsOnly() {
        let expected = """
            {
              "file": "Specs/drawer.machine",
              "line": 12,
              "ratio": 0.25,
              "huge": 1e+300,
              "nan": null,
              "ok": true,
              "none": null,
              "tags": ["a", "b\\n\\"c\\""],
              "empty": [],
              "nested": {"deep": [{"x": 1}, "é 🎈"]}
            }
            """
        #expect(Self.sample.rendered(.outline(levels: 1)) == expected)
        #expect(Self.sample.rendered(.outline(levels: 0)).hasPrefix("{\"file\": \"Specs/drawer.machine\", \"line\": 12, "))
        #expect(!Self.sample.rendered(.outline(levels: 0)).contains("\n"))
        #expect(Self.sample.rendered(.outline(levels: 9)) == Self.sample.rendered(.indented))
    }

    /// Every layout parses to the same values, and the members come in the order added.
    @Test(arguments: [JSON.Layout.compact, .indented, .outline(levels: 0), .outline(levels: 2)])
    func foundationReadsItBack(layout: JSON.Layout) throws {
        let data = Data(Self.sample.rendered(layout).utf8)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["file"] as? String == "Specs/drawer.machine")
        #expect(object["line"] as? Int == 12)
        #expect(object["huge"] as? Double == 1e300)
        #expect(object["nan"] is NSNull)
        #expect(object["tags"] as? [String] == ["a", "b\n\"c\""])
        let nested = try #require(object["nested"] as? [String: Any])
        let deep = try #require(nested["deep"] as? [Any])
        #expect(deep.last as? String == "é 🎈")
    }

    @Test func settingAKeyAgainReplacesItInPlace() {
        var o = JSONObject([("a", 1), ("b", 2)])
        o["a"] = 3
        o["c"] = 4
        o["b"] = nil
        #expect(JSON.object(o).rendered(.compact) == "{\"a\":3,\"c\":4}")
        #expect(JSON.integer(Int.max).rendered() == "9223372036854775807")
    }
}
