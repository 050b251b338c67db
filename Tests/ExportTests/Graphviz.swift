import Foundation

/// Runs Graphviz's `dot` on DOT text, when it is installed.
enum Graphviz {
    /// The `dot` executable: the usual install places, then every folder on `PATH`.
    static let dotPath: String? = {
        var candidates = ["/usr/bin/dot", "/usr/local/bin/dot", "/opt/homebrew/bin/dot"]
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        candidates += path.split(separator: ":").map { $0 + "/dot" }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    /// Whether `dot` was found.
    static var isInstalled: Bool { dotPath != nil }

    /// Whether the environment asks for the Graphviz tests to run (CI with Graphviz).
    static var isRequired: Bool { ProcessInfo.processInfo.environment["STATECRAFT_REQUIRE_GRAPHVIZ"] == "1" }

    /// How to get Graphviz, for failure messages.
    static let installHint = "install Graphviz: apt-get install -y graphviz (Debian, Ubuntu) or brew install graphviz (macOS)"

    /// What one run of `dot -Tsvg` produced.
    struct Run {
        var status: Int32
        var svg: String
        var stderr: String
    }

    /// Runs `dot -Tsvg` with `source` on standard input.
    static func svg(_ source: String) throws -> Run { try run(source, format: "svg") }

    /// Runs `dot -Tjson` with `source` on standard input: the layout with every position,
    /// bounding box and text Graphviz drew (`svg` holds the JSON).
    static func json(_ source: String) throws -> Run { try run(source, format: "json") }

    /// Runs `dot -T<format>` with `source` on standard input.
    private static func run(_ source: String, format: String) throws -> Run {
        guard let dotPath else { throw CocoaError(.fileNoSuchFile) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: dotPath)
        process.arguments = ["-T" + format]
        let input = Pipe()
        let output = Pipe()
        let error = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = error
        try process.run()
        // Write and read on separate threads so neither pipe can fill up and block dot.
        let data = Data(source.utf8)
        let writer = input.fileHandleForWriting
        DispatchQueue.global().async {
            writer.write(data)
            try? writer.close()
        }
        let group = DispatchGroup()
        nonisolated(unsafe) var errData = Data()
        group.enter()
        DispatchQueue.global().async {
            errData = error.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let outData = output.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return Run(status: process.terminationStatus, svg: String(decoding: outData, as: UTF8.self),
                   stderr: String(decoding: errData, as: UTF8.self))
    }

    /// The contents of every `<text>` element of an SVG, entities decoded and non-breaking
    /// spaces (Graphviz's spelling of repeated spaces) turned back into spaces.
    static func texts(inSVG svg: String) -> [String] {
        var result: [String] = []
        var rest = svg[...]
        while let open = rest.range(of: "<text") {
            guard let tagEnd = rest[open.upperBound...].firstIndex(of: ">"),
                  let close = rest[tagEnd...].range(of: "</text>") else { break }
            let raw = String(rest[rest.index(after: tagEnd)..<close.lowerBound])
            result.append(decodeEntities(raw).replacingOccurrences(of: "\u{A0}", with: " "))
            rest = rest[close.upperBound...]
        }
        return result
    }

    /// Decodes XML character references and the five named entities, once, left to right.
    static func decodeEntities(_ s: String) -> String {
        let named = ["lt": "<", "gt": ">", "amp": "&", "quot": "\"", "apos": "'"]
        var out = ""
        var rest = s[...]
        while let amp = rest.firstIndex(of: "&") {
            out += rest[..<amp]
            let after = rest[rest.index(after: amp)...]
            if let semi = after.prefix(12).firstIndex(of: ";") {
                let name = String(after[..<semi])
                var decoded: String?
                if let value = named[name] {
                    decoded = value
                } else if name.hasPrefix("#x") || name.hasPrefix("#X") {
                    decoded = UInt32(name.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init).map { String($0) }
                } else if name.hasPrefix("#") {
                    decoded = UInt32(name.dropFirst()).flatMap(Unicode.Scalar.init).map { String($0) }
                }
                if let decoded {
                    out += decoded
                    rest = after[after.index(after: semi)...]
                    continue
                }
            }
            out += "&"
            rest = after
        }
        return out + rest
    }
}
