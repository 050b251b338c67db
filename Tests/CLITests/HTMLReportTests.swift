import Foundation
import Testing
import TestSupport

/// `statecraft replay --format html`: one self-contained page, opened in a real browser
/// (headless Chromium): it loads without a console message, and its screenshot shows the
/// diagram (the heat map's red), the tables (text), the histograms (their blue) and, when
/// some case broke a property, the properties broken (their rows' pink).
@Suite struct HTMLReportTests {
    static func page() throws -> (dir: URL, page: URL, run: CLI.Result) {
        let (dir, _) = try MergeCommandTests.logs()
        let page = dir.appendingPathComponent("report.html")
        let run = try CLI.run(["replay", "Specs/PullToRefresh.machine", dir.path, "--format", "html", "-o", page.path])
        return (dir, page, run)
    }

    /// The page of three logs of `ReplayPropertyCommandTests.spec`, two of which break its
    /// property `quick` (declared on line 14); none breaks `held`.
    static func pageOfBrokenProperties() throws -> (dir: URL, page: URL, run: CLI.Result) {
        let dir = try ReplayCommandTests.folder(["Refresh.machine": ReplayPropertyCommandTests.spec,
                                                 "a.jsonl": ReplayPropertyCommandTests.breaking,
                                                 "b.jsonl": ReplayPropertyCommandTests.breaking,
                                                 "c.jsonl": ReplayPropertyCommandTests.keeping])
        let page = dir.appendingPathComponent("report.html")
        let run = try CLI.run(["replay", dir.appendingPathComponent("Refresh.machine").path]
                              + ["a.jsonl", "b.jsonl", "c.jsonl"].map { dir.appendingPathComponent($0).path }
                              + ["--format", "html", "-o", page.path])
        return (dir, page, run)
    }

    /// The row of each property broken: how many cases broke it, its name, its spec line.
    static let brokenRow = "<tr class=\"violated\"><td class=\"n\">2</td><td><code>quick</code></td><td class=\"n\">14</td></tr>"

    struct Look: Decodable { var width: Int; var height: Int; var colours: Int; var heat: Int; var dark: Int; var blue: Int; var violated: Int }

    /// The page as headless Chromium shows it: the screenshot's look, the DOM it built, and
    /// the console messages it logged (`…:CONSOLE(line)] "message"` on standard error: an
    /// error, a resource that failed to load).
    static func inBrowser(_ page: URL, in dir: URL) throws -> (look: Look, dom: String, console: [Substring]) {
        let chromium = try ExternalTool.require(ExternalTool.find("chromium") ?? ExternalTool.find("chromium-browser"),
                                                "chromium is not installed", unlessRequiredBy: "STATECRAFT_REQUIRE_CHROMIUM")
        let screenshot = dir.appendingPathComponent("report.png")
        let run = try chromium.run(["--headless", "--no-sandbox", "--disable-gpu", "--enable-logging=stderr", "--v=0",
                                    "--window-size=1200,2400", "--screenshot=" + screenshot.path, page.absoluteString])
        #expect(run.status == 0, "\(run.stderr)")
        let console = run.stderr.split(separator: "\n").filter { $0.contains(":CONSOLE") }
        let dom = try chromium.run(["--headless", "--no-sandbox", "--disable-gpu", "--dump-dom", page.absoluteString])
        let python = try ExternalTool.require(ExternalTool.find("python3"), "python3 is not installed",
                                              unlessRequiredBy: "STATECRAFT_REQUIRE_CHROMIUM")
        let read = try python.run([Repository.root.appendingPathComponent("Tests/ReportTests/python/read_png.py").path, screenshot.path])
        return (try JSONDecoder().decode(Look.self, from: Data(read.stdout.utf8)), dom.stdout, console)
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
        // The spec has no property: no section for them, not even an empty one.
        #expect(!html.contains("<section id=\"properties\">") && !html.contains("violated"))
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
        let (dir, page, _) = try Self.page()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (look, dom, console) = try Self.inBrowser(page, in: dir)
        #expect(console.isEmpty, "\(console)")
        #expect(dom.contains("<svg") && dom.contains("<table>"), "the browser's DOM has the diagram and the tables")
        #expect(look.width == 1200 && look.height == 2400)
        #expect(look.heat > 200, "the diagram's most taken transitions, in red: \(look)")
        #expect(look.dark > 5000, "the tables' text: \(look)")
        #expect(look.blue > 200, "the histograms' bars: \(look)")
        #expect(look.violated < 50, "no property broken, so no pink rows: \(look)")
    }

    /// Broken properties get a section of their own, right after the figures: a row per
    /// property broken, most often first, with its count of cases and spec line; a property
    /// no case broke has no row.
    @Test func thePageCountsTheBrokenPropertiesWithTheirSpecLines() throws {
        let (dir, page, run) = try Self.pageOfBrokenProperties()
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(run.status == 1, "a broken property fails the replay: \(run.stderr)")
        let html = try String(contentsOf: page, encoding: .utf8)
        let section = try #require(html.range(of: "<section id=\"properties\">\n<h2>Properties broken</h2>\n<table>\n"
                                              + "<tr><th>Cases</th><th>Property</th><th>Spec line</th></tr>\n"
                                              + Self.brokenRow + "\n</table>\n"), "\(html)")
        #expect(!html.contains("<code>held</code>"))
        // Between the figures and the diagram.
        let summary = try #require(html.range(of: "<section id=\"summary\">"))
        let diagram = try #require(html.range(of: "<section id=\"diagram\">"))
        #expect(summary.upperBound < section.lowerBound && section.upperBound < diagram.lowerBound)
    }

    @Test(.enabled(if: ProcessInfo.processInfo.environment["STATECRAFT_SANITIZER"] == nil, "Chromium under a sanitizer run"))
    func aBrowserShowsTheBrokenProperties() throws {
        let (dir, page, _) = try Self.pageOfBrokenProperties()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (look, dom, console) = try Self.inBrowser(page, in: dir)
        #expect(console.isEmpty, "\(console)")
        #expect(dom.contains("<h2>Properties broken</h2>") && dom.contains(Self.brokenRow), "the browser's DOM has the row: \(dom)")
        // A row of three cells, about 160 by 22 pixels, drawn on its pale background.
        #expect(look.violated > 1500, "the broken property's row, in pink: \(look)")
        #expect(look.dark > 2000, "the tables' text: \(look)")
    }
}
