import Foundation
import Testing
import TestSupport

/// `statecraft replay --format html`: one self-contained page, opened in a real browser
/// (headless Chromium): it loads without a console message, and its screenshot shows the
/// diagram (the heat map's red), the tables (text) and the histograms (their blue).
@Suite struct HTMLReportTests {
    static func page() throws -> (dir: URL, page: URL, run: CLI.Result) {
        let (dir, _) = try MergeCommandTests.logs()
        let page = dir.appendingPathComponent("report.html")
        let run = try CLI.run(["replay", "Specs/PullToRefresh.machine", dir.path, "--format", "html", "-o", page.path])
        return (dir, page, run)
    }

    @Test func thePageHoldsEverythingItShows() throws {
        let (dir, page, run) = try Self.page()
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(run.status == 2, "a malformed log exits 2 and still reports: \(run.stderr)")
        let html = try String(contentsOf: page, encoding: .utf8)
        for section in ["summary", "diagram", "transitions", "states", "deviations"] {
            #expect(html.contains("<section id=\"\(section)\">"), "\(section)")
        }
        // Self-contained: nothing fetched, nothing run.
        #expect(!html.contains("<script") && !html.contains("src=") && !html.contains("href="), "external asset or script")
        #expect(html.contains("<td>Fitting cases</td>"))
        #expect(html.contains("<code>on endDragging if progress &gt;= 1 -&gt; refreshing</code>"))
        let refused = try CLI.run(["replay", "Specs/PullToRefresh.machine", "Specs/PullToRefresh.session.jsonl", "-o", page.path])
        #expect(refused.status == 2 && refused.stderr.contains("-o writes the HTML page: use it with --format html"))
        try Skip.unless(ExternalTool.find("dot") != nil, "Graphviz is not installed", unlessRequiredBy: "STATECRAFT_REQUIRE_GRAPHVIZ")
        #expect(html.contains("<svg") && html.contains("penwidth") == false, "an inline SVG, not DOT")
        #expect(html.contains("#c01c28"), "the most taken transition in the heat map's red")
    }

    /// (Under a sanitizer this would time Chromium, not us: the page's text is checked above.)
    @Test(.enabled(if: ProcessInfo.processInfo.environment["STATECRAFT_SANITIZER"] == nil, "Chromium under a sanitizer run"))
    func aBrowserShowsThePageWithoutAConsoleMessage() throws {
        let chromium = try ExternalTool.require(ExternalTool.find("chromium") ?? ExternalTool.find("chromium-browser"),
                                                "chromium is not installed", unlessRequiredBy: "STATECRAFT_REQUIRE_CHROMIUM")
        let (dir, page, _) = try Self.page()
        defer { try? FileManager.default.removeItem(at: dir) }
        let screenshot = dir.appendingPathComponent("report.png")
        // Chromium logs every console message (an error, a resource that failed to load) as
        // `…:CONSOLE(line)] "message"` on standard error.
        let run = try chromium.run(["--headless", "--no-sandbox", "--disable-gpu", "--enable-logging=stderr", "--v=0",
                                    "--window-size=1200,2400", "--screenshot=" + screenshot.path, page.absoluteString])
        #expect(run.status == 0, "\(run.stderr)")
        let console = run.stderr.split(separator: "\n").filter { $0.contains(":CONSOLE") }
        #expect(console.isEmpty, "\(console)")
        let dom = try chromium.run(["--headless", "--no-sandbox", "--disable-gpu", "--dump-dom", page.absoluteString])
        #expect(dom.stdout.contains("<svg") && dom.stdout.contains("<table>"), "the browser's DOM has the diagram and the tables")
        let python = try ExternalTool.require(ExternalTool.find("python3"), "python3 is not installed",
                                              unlessRequiredBy: "STATECRAFT_REQUIRE_CHROMIUM")
        let read = try python.run([Repository.root.appendingPathComponent("Tests/ReportTests/python/read_png.py").path, screenshot.path])
        struct Look: Decodable { var width: Int; var height: Int; var colours: Int; var heat: Int; var dark: Int; var blue: Int }
        let look = try JSONDecoder().decode(Look.self, from: Data(read.stdout.utf8))
        #expect(look.width == 1200 && look.height == 2400)
        #expect(look.heat > 200, "the diagram's most taken transitions, in red: \(look)")
        #expect(look.dark > 5000, "the tables' text: \(look)")
        #expect(look.blue > 200, "the histograms' bars: \(look)")
    }
}
