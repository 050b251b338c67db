#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Statecraft
import StatecraftLanguageServer

/// `lsp-latency`: how long the language server takes from a `textDocument/didChange` to the
/// `textDocument/publishDiagnostics` it owes, in process: the change's JSON read, the text
/// edited, the spec checked, and the notification rendered as the bytes sent. Two times per
/// change: to the quick stage's diagnostics (parse, resolve, every check but the search),
/// and to the full check's (the guard-aware search with `check`'s default bounds added).
struct LSPLatency {
    var runs = 21
    var specs = "Specs"
    var transitions = 2_000

    func run() -> Int32 {
        var cases: [(String, String)] = []
        let names = ["CheckoutScreen", "Drawer", "MediaPlayer", "PeekRating", "PullToRefresh", "SwipeToDismiss", "VibrantButton"]
        for name in names {
            guard let text = Self.read("\(specs)/\(name).machine") else {
                print("Error: cannot read \(specs)/\(name).machine")
                return 2
            }
            cases.append(("\(name).machine", text))
        }
        cases.append(("generated, \(transitions) transitions", Self.generated(transitions: transitions)))
        print("didChange -> publishDiagnostics, in process, ms over \(runs) changes: median (min-max)")
        print(Table.pad("spec", 34) + Table.lpad("bytes", 8) + Table.lpad("diagnostics", 13)
              + Table.lpad("quick stage", 24) + Table.lpad("with the search", 24))
        for (name, text) in cases {
            let (quick, full, diagnostics) = measure(text)
            print(Table.pad(name, 34) + Table.lpad("\(text.utf8.count)", 8) + Table.lpad("\(diagnostics)", 13)
                  + Table.lpad(Self.summary(quick), 24) + Table.lpad(Self.summary(full), 24))
        }
        return 0
    }

    private static func summary(_ times: [Double]) -> String {
        let sorted = times.sorted()
        func ms(_ t: Double) -> String { Table.fixed(t * 1000, 1) }
        return "\(ms(sorted[sorted.count / 2])) (\(ms(sorted[0]))-\(ms(sorted[sorted.count - 1])))"
    }

    /// Opens `text`, then times `runs` edits: a space typed at the end of the first line and
    /// deleted again, alternately, so every version is new and checks the same.
    private func measure(_ text: String) -> (quick: [Double], full: [Double], diagnostics: Int) {
        var server = LanguageServer(version: "bench")
        let uri = "file:///bench.machine"
        _ = server.handle(Self.body(["jsonrpc": "2.0", "id": 1, "method": "initialize", "params": ["capabilities": [:]]]))
        _ = server.handle(Self.body(["jsonrpc": "2.0", "method": "textDocument/didOpen", "params": [
            "textDocument": ["uri": .string(uri), "languageId": "statecraft", "version": 1, "text": .string(text)]]]))
        _ = server.publishDiagnostics()
        var diagnostics = 0
        for message in server.publishExploration() {
            diagnostics = message.rendered(.compact).components(separatedBy: "\"code\":").count - 1
        }
        let firstLineLength = text.prefix { $0 != "\n" }.utf16.count
        var quick: [Double] = []
        var full: [Double] = []
        for run in 0..<runs {
            let typing = run % 2 == 0
            let start: JSON = ["line": 0, "character": .integer(firstLineLength)]
            let end: JSON = ["line": 0, "character": .integer(firstLineLength + (typing ? 0 : 1))]
            let change = Self.body(["jsonrpc": "2.0", "method": "textDocument/didChange", "params": [
                "textDocument": ["uri": .string(uri), "version": .integer(run + 2)],
                "contentChanges": [["range": ["start": start, "end": end], "text": typing ? " " : ""]]]])
            let began = System.now()
            _ = server.handle(change)
            let first = server.publishDiagnostics().map { $0.rendered(.compact).utf8.count }.reduce(0, +)
            quick.append(System.now() - began)
            var second = 0
            while server.hasUnexploredDocuments {
                second += server.publishExploration().map { $0.rendered(.compact).utf8.count }.reduce(0, +)
            }
            full.append(System.now() - began)
            guard first > 0, second > 0 else {
                print("Error: a stage published nothing")
                return ([0], [0], -1)
            }
        }
        return (quick, full, diagnostics)
    }

    private static func body(_ json: JSON) -> [UInt8] { Array(json.rendered(.compact).utf8) }

    private static func read(_ path: String) -> String? {
        guard let file = fopen(path, "rb") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = fread(&chunk, 1, chunk.count, file)
            if n <= 0 { break }
            bytes += chunk[0..<n]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A flat machine of `transitions / 10` states in a ring, each taking ten events with
    /// guards on a payload field and an assignment, so that every transition is reachable.
    static func generated(transitions: Int) -> String {
        let events = 10
        let states = max(1, transitions / events)
        var lines = ["machine Generated {", "    public var last: Number = 0"]
        for e in 0..<events { lines.append("    event e\(e)(x: Number)") }
        for s in 0..<states {
            lines.append("    \(s == 0 ? "initial " : "")state s\(s) {")
            for e in 0..<events {
                lines.append("        on e\(e) if x > \(e) -> s\((s + e + 1) % states) { last = x }")
            }
            lines.append("    }")
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }
}
