import StatecraftReplay
import StatecraftDiagnostics
import StatecraftRuntime

/// `statecraft replay --format html`: the summary of many logs as one self-contained page
/// (no script, no external asset): the figures, the properties broken (only when some case
/// broke one), the machine's diagram coloured by how often each transition was taken (an SVG
/// drawn by Graphviz, given here), the transitions, the time in each state with a
/// histogram, and the events not taken.
public enum ReplaySummaryHTML {
    /// The page; `svg` is the diagram (nil when Graphviz is not installed: the page says so).
    /// `note`, when the diagram is not the whole chart, says so under it.
    public static func render(_ document: SummaryDocument, svg: String?, note: String? = nil) -> String {
        let s = document.summary
        var html = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <title>\(text(document.machine)): replay of \(s.logs) \(s.logs == 1 ? "log" : "logs")</title>
            <style>
            body { font: 14px/1.45 -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; margin: 2em auto; max-width: 72em; color: #1d1d1f; padding: 0 1em; }
            h1 { font-size: 1.6em; margin-bottom: 0.2em; }
            h2 { font-size: 1.2em; margin-top: 2em; border-bottom: 1px solid #ddd; padding-bottom: 0.2em; }
            .spec { color: #666; margin-top: 0; }
            table { border-collapse: collapse; margin: 0.5em 0; }
            th, td { text-align: left; padding: 0.25em 0.8em 0.25em 0; vertical-align: top; }
            th { font-weight: 600; border-bottom: 1px solid #ccc; }
            td.n { text-align: right; font-variant-numeric: tabular-nums; }
            code { font: 12.5px/1.4 ui-monospace, Menlo, Consolas, monospace; }
            .never td { color: #888; }
            .diagram svg { max-width: 100%; height: auto; }
            .note { color: #666; font-style: italic; }
            \(s.propertyViolations.isEmpty ? "" : ".violated td { background: #fde7e9; }\n")</style>
            </head>
            <body>
            <h1>\(text(document.machine))</h1>
            <p class="spec">Replay of \(s.logs) \(s.logs == 1 ? "log" : "logs") against <code>\(text(document.spec))</code></p>

            """
        html += section("summary", "Summary", table(["", ""], [
            ["Logs", "\(s.logs)" + (s.malformedLogs > 0 ? ", \(s.malformedLogs) stopped at a malformed line" : "")
                + (s.unreadableLogs > 0 ? ", \(s.unreadableLogs) could not be read" : "")],
            ["Cases", "\(s.cases)"],
            ["Fitting cases", "\(s.fittingCases)" + ReplaySummaryText.percent(s.fittingShare)],
            ["Events", "\(s.events): \(s.applied) applied, \(s.ignored) ignored, \(s.rejected) rejected"],
            ["Event fitness", ReplaySummaryText.percent(s.eventFitness, bare: true).trimmingLeadingSpace],
            ["Expectations", "\(s.expectations) checked, \(s.failedExpectations) failed"],
        ].map { row in row.map(text) }, header: false))
        // Only where a case broke a property: a page of a spec without properties (or of
        // logs that keep them) reads as it always did. Failures come before the figures of
        // where the logs went, most often broken first.
        if !s.propertyViolations.isEmpty {
            let broken = s.propertyViolations.sorted { ($1.value, $0.key) < ($0.value, $1.key) }
            html += section("properties", "Properties broken", table(["Cases", "Property", "Spec line"], broken.map { name, count in
                ["\(count)", "<code>\(text(name))</code>", document.propertyLines[name].map { "\($0)" } ?? "–"]
            }, numeric: [0, 2], rowClass: { _ in "violated" })
                + "\n<p class=\"note\">A case counts once per property it broke; each log's report says at which line.</p>")
        }
        let diagram = svg.map(inlineSVG) ?? "<p class=\"note\">No diagram: Graphviz's <code>dot</code> is not installed.</p>"
        html += section("diagram", "Transitions taken",
                        "<div class=\"diagram\">\(diagram)</div>\n<p class=\"note\">Thicker and redder: taken more often; dashed grey: never taken.</p>"
                            + (note.map { "\n<p class=\"note\">\(text($0))</p>" } ?? ""))
        let counts = s.transitionCounts
        let order = document.transitions.indices.sorted { (-counts[$0], $0) < (-counts[$1], $1) }
        html += section("transitions", "Transitions", table(["Taken", "State", "Line", "Transition"], order.map { t in
            let name = document.transitions[t]
            return ["\(counts[t])", text(name.state), "\(name.line)", "<code>\(text(name.text))</code>"]
        }, numeric: [0, 2], rowClass: { counts[order[$0]] == 0 ? "never" : nil }))
        let visited = document.states.indices.dropFirst().filter { s.dwell[$0].visits > 0 }
        html += section("states", "Time in states", visited.isEmpty ? "<p class=\"note\">No state was entered.</p>"
            : table(["State", "Visits", "Median", "p90", "p99", "Durations (log scale)"], visited.map { k in
                let d = s.dwell[k]
                let q = [0.5, 0.9, 0.99].map { d.durations.quantile($0).map { ReplaySummaryText.seconds($0) + " s" } ?? "–" }
                return [text(document.states[k]), "\(d.visits)"] + q + [histogram(d.durations)]
            }, numeric: [1, 2, 3, 4])
            + "<p class=\"note\">Virtual time between entering a state and leaving it, over the visits that ended; "
            + "percentiles exact up to \(DurationSketch.exactLimit) visits ended, else within 1%.</p>")
        let deviations = s.deviationsByFrequency
        let shown = deviations.prefix(ConformanceSummary.shownDeviations)
        let rest = deviations.dropFirst(ConformanceSummary.shownDeviations)
        let restEvents = rest.reduce(0) { $0 + $1.group.count }
        html += section("deviations", "Events not taken", deviations.isEmpty ? "<p class=\"note\">Every event was taken.</p>"
            : table(["Count", "Event", "How", "States", "First places", "Why (at the first place)"], shown.map { key, group in
                ["\(group.count)", "<code>\(text(key.event))</code>", key.kind.rawValue,
                 key.configuration.isEmpty ? "(no active state takes it)" : text(key.configuration.joined(separator: ", ")),
                 group.places.map { text("\($0.log):\($0.line)") }.joined(separator: "<br>"),
                 group.why.map(text).joined(separator: "<br>")]
            }, numeric: [0])
            + (rest.isEmpty ? "" : "<p class=\"note\">And \(rest.count) more \(rest.count == 1 ? "group" : "groups"), "
               + "\(restEvents) \(restEvents == 1 ? "event" : "events") (the JSON summary lists them all).</p>"))
        return html + "</body>\n</html>\n"
    }

    static func text(_ s: String) -> String { XMLEscaping.text(s) }

    static func section(_ id: String, _ title: String, _ body: String) -> String {
        "<section id=\"\(id)\">\n<h2>\(title)</h2>\n\(body)\n</section>\n"
    }

    /// A table of already escaped cells.
    static func table(_ headers: [String], _ rows: [[String]], header: Bool = true, numeric: Set<Int> = [],
                      rowClass: (Int) -> String? = { _ in nil }) -> String {
        var out = "<table>\n"
        if header { out += "<tr>" + headers.map { "<th>\(text($0))</th>" }.joined() + "</tr>\n" }
        for (r, row) in rows.enumerated() {
            out += rowClass(r).map { "<tr class=\"\($0)\">" } ?? "<tr>"
            out += row.enumerated().map { c, cell in numeric.contains(c) ? "<td class=\"n\">\(cell)</td>" : "<td>\(cell)</td>" }.joined()
            out += "</tr>\n"
        }
        return out + "</table>"
    }

    /// Graphviz's SVG without its XML declaration and DOCTYPE, to sit inside the page.
    static func inlineSVG(_ svg: String) -> String {
        let bytes = Array(svg.utf8)
        let marker = Array("<svg".utf8)
        guard bytes.count >= marker.count,
              let start = (0...(bytes.count - marker.count)).first(where: { bytes[$0..<$0 + marker.count].elementsEqual(marker) }) else {
            return ""
        }
        return String(decoding: bytes[start...], as: UTF8.self)
    }

    /// The sketch's buckets as bars, shortest durations on the left.
    static func histogram(_ sketch: DurationSketch) -> String {
        let buckets = sketch.bucketsInOrder.map { (key: $0.index, value: $0.count) }
        let bars = (sketch.zeros > 0 ? [(key: Int.min, value: sketch.zeros)] : []) + buckets
        guard let most = bars.map(\.value).max(), let first = buckets.first?.key, let last = buckets.last?.key else {
            return sketch.zeros > 0 ? "all 0 s" : ""
        }
        let width = 240.0, height = 36.0
        let span = Double(max(1, last - first + 1)) + (sketch.zeros > 0 ? 2 : 0)
        let barWidth = max(1, width / span)
        var rects = ""
        for bar in bars {
            let slot = bar.key == Int.min ? 0 : Double(bar.key - first) + (sketch.zeros > 0 ? 2 : 0)
            let h = max(1, height * Double(bar.value) / Double(most))
            rects += "<rect x=\"\(format(slot * barWidth))\" y=\"\(format(height - h))\" width=\"\(format(barWidth))\" "
                + "height=\"\(format(h))\" fill=\"#5b7fb9\"><title>\(bar.value)</title></rect>"
        }
        return "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width))\" height=\"\(Int(height))\" "
            + "viewBox=\"0 0 \(Int(width)) \(Int(height))\" role=\"img\">\(rects)</svg>"
    }

    static func format(_ x: Double) -> String { String(Double((x * 10).rounded()) / 10) }
}

extension String {
    fileprivate var trimmingLeadingSpace: String { String(drop { $0 == " " }) }
}
