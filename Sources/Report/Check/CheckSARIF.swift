import StatecraftDiagnostics

/// `check --format sarif`: a SARIF 2.1.0 log (the OASIS Static Analysis Results
/// Interchange Format), the form GitHub code scanning and other viewers read.
///
/// One run: the tool with every diagnostic of the catalogue as a rule (its description and
/// help are the words of the table in <doc:Diagnostics>), then each diagnostic as a result
/// with its rule, level, message, region, its notes as related locations, and a fingerprint that keeps
/// its identity across commits (`Fingerprint`). Paths are made relative to `root` (the
/// repository's root, where the workflow runs) under the base id `%SRCROOT%`, as code
/// scanning expects; a file outside the root keeps an absolute `file:` URI.
public enum CheckSARIF {
    /// The key of our fingerprint in `partialFingerprints`; the version changes if the
    /// hashed text ever does.
    public static let fingerprintKey = "statecraftFinding/v1"
    /// The base id that stands for the repository's root.
    public static let rootBaseID = "%SRCROOT%"

    /// The SARIF log of `report`. `root` is an absolute folder path; `toolVersion` is
    /// `statecraft --version`'s.
    public static func document(_ report: CheckReport, root: String, toolVersion: String) -> JSON {
        let rules = DiagnosticID.allCases
        let ruleIndex = Dictionary(uniqueKeysWithValues: rules.enumerated().map { ($1, $0) })
        var fingerprints = Fingerprint()
        let results: [JSON] = report.diagnostics.map { d in
            var result = JSONObject([
                ("ruleId", .string(d.id.rawValue)), ("ruleIndex", .integer(ruleIndex[d.id] ?? 0)),
                ("level", .string(level(d.severity))), ("message", ["text": .string(d.message)]),
                ("locations", [location(d.path, d.span, root: root)]),
            ])
            // A proof is a rule evaluated and passed: code scanning shows it, and raises no alert.
            if d.id == .propertyProven {
                result["kind"] = "pass"
                result["level"] = "none"
            }
            if !d.notes.isEmpty {
                result["relatedLocations"] = .array(d.notes.enumerated().map { i, note in
                    var related = JSONObject([("id", .integer(i + 1))])
                    if let span = note.span {
                        related["physicalLocation"] = physicalLocation(d.path, span, root: root)
                    }
                    related["message"] = ["text": .string(note.message)]
                    return .object(related)
                })
            }
            result["partialFingerprints"] = [
                fingerprintKey: .string(fingerprints.next(id: d.id.rawValue, path: d.path, lineText: d.lineText)),
            ]
            return .object(result)
        }
        let notifications: [JSON] = report.unreadable.map { file in
            [
                "level": "error", "message": ["text": .string(file.message)],
                "locations": [["physicalLocation": ["artifactLocation": artifactLocation(file.path, root: root)]]],
            ]
        }
        let run: JSON = [
            "tool": ["driver": [
                "name": "statecraft", "version": .string(toolVersion), "semanticVersion": .string(toolVersion),
                "rules": .array(rules.map(rule)),
            ]],
            "originalUriBaseIds": [rootBaseID: ["uri": .string(fileURI(directory: root))]],
            "columnKind": "unicodeCodePoints",
            "invocations": [["executionSuccessful": .bool(report.unreadable.isEmpty),
                             "toolExecutionNotifications": .array(notifications)]],
            "results": .array(results),
        ]
        return [
            "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
            "version": "2.1.0",
            "runs": [run],
        ]
    }

    /// The log as `check` prints it: each rule and each result on a line of its own.
    public static func rendered(_ report: CheckReport, root: String, toolVersion: String) -> String {
        document(report, root: root, toolVersion: toolVersion).rendered(.outline(levels: 6)) + "\n"
    }

    /// A diagnostic of the catalogue as a SARIF rule.
    static func rule(_ id: DiagnosticID) -> JSON {
        [
            "id": .string(id.rawValue),
            "shortDescription": ["text": .string(id.summary)],
            "fullDescription": ["text": .string(id.summary)],
            "help": ["text": .string(id.summary + ". Example: " + id.example.replacingOccurrences("`", "")),
                     "markdown": .string(id.summary + ".\n\nExample: " + id.example)],
            "defaultConfiguration": ["level": .string(level(id.defaultSeverity))],
        ]
    }

    static func level(_ severity: Severity) -> String {
        switch severity {
        case .error: "error"
        case .warning: "warning"
        case .note: "note"
        }
    }

    static func location(_ path: String, _ span: ReportSpan, root: String) -> JSON {
        ["physicalLocation": physicalLocation(path, span, root: root)]
    }

    static func physicalLocation(_ path: String, _ span: ReportSpan, root: String) -> JSON {
        [
            "artifactLocation": artifactLocation(path, root: root),
            "region": ["startLine": .integer(span.line), "startColumn": .integer(span.column),
                       "endLine": .integer(span.endLine), "endColumn": .integer(span.endColumn)],
        ]
    }

    /// `{"uri": "Specs/Drawer.machine", "uriBaseId": "%SRCROOT%"}` for a file under `root`;
    /// an absolute `file:` URI for one outside it.
    static func artifactLocation(_ path: String, root: String) -> JSON {
        switch relativePath(path, root: root) {
        case .inside(let relative): ["uri": .string(percentEncoded(relative)), "uriBaseId": .string(rootBaseID)]
        case .outside(let absolute): ["uri": .string("file://" + percentEncoded(absolute))]
        }
    }

    enum Placement: Equatable {
        case inside(String)
        case outside(String)
    }

    /// Where `path` (absolute, or relative to `root`) lies: inside `root`, as a path relative
    /// to it without `.` or `..` components, or outside it, as an absolute path.
    static func relativePath(_ path: String, root: String) -> Placement {
        let rootComponents = normalized(root.split(separator: "/").map(String.init)) ?? []
        let joined = path.hasPrefix("/") ? path : root + "/" + path
        guard let components = normalized(joined.split(separator: "/").map(String.init)) else {
            return .outside(path)
        }
        if components.count > rootComponents.count && Array(components.prefix(rootComponents.count)) == rootComponents {
            return .inside(components.dropFirst(rootComponents.count).joined(separator: "/"))
        }
        return .outside("/" + components.joined(separator: "/"))
    }

    /// `a/./b/../c` as `a/c`; nil when `..` climbs above the top.
    private static func normalized(_ components: [String]) -> [String]? {
        var out: [String] = []
        for c in components where !c.isEmpty && c != "." {
            if c == ".." {
                guard out.popLast() != nil else { return nil }
            } else {
                out.append(c)
            }
        }
        return out
    }

    /// A `file:` URI for a folder, ending with `/` as a base URI must.
    static func fileURI(directory: String) -> String {
        let path = directory.hasSuffix("/") ? directory : directory + "/"
        return "file://" + percentEncoded(path.hasPrefix("/") ? path : "/" + path)
    }

    /// A path as a URI reference: `/` and RFC 3986's unreserved characters as they are,
    /// every other byte of the UTF-8 as `%XX`.
    static func percentEncoded(_ path: String) -> String {
        var out = ""
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                 UInt8(ascii: "~"), UInt8(ascii: "/"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                out += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return out
    }
}

extension String {
    /// The string without any `target`, for Foundation-free code.
    fileprivate func replacingOccurrences(_ target: Character, _ replacement: String) -> String {
        var out = ""
        for c in self { if c == target { out += replacement } else { out.append(c) } }
        return out
    }
}
