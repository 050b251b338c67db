import Foundation
import Testing
import TestSupport

// The unit test of the EmbedTheRuntime tutorial: the machine, driven through the same
// controller the app uses, with times chosen by the test instead of a clock.

@Suite struct PullToRefreshControllerTests {
    let spec = Repository.specs.appendingPathComponent("PullToRefresh.machine")

    @Test func aFullPullRefreshesUntilTheDataArrives() throws {
        let controller = try PullToRefreshController(specText: String(contentsOf: spec, encoding: .utf8))
        var refreshes = 0
        controller.onRefresh = { refreshes += 1 }

        controller.scrolled(offsetY: -55, at: 0.0)
        #expect(controller.state == "pulling")
        #expect(controller.progress == 0.5)

        controller.scrolled(offsetY: -120, at: 0.3)
        controller.endedDragging(at: 0.4)
        #expect(controller.isRefreshing)
        #expect(refreshes == 1)
        #expect(controller.insetTop == 110)

        controller.finishedRefreshing(at: 1.0)
        #expect(controller.state == "idle")
        #expect(controller.insetTop == 0)
    }

    @Test func aRefreshGivesUpAfterTwoSeconds() throws {
        let controller = try PullToRefreshController(specText: String(contentsOf: spec, encoding: .utf8))
        controller.scrolled(offsetY: -120, at: 0.0)
        controller.endedDragging(at: 0.5)
        controller.tick(at: 2.4)
        #expect(controller.isRefreshing)
        controller.tick(at: 2.5)
        #expect(!controller.isRefreshing)
        #expect(controller.insetTop == 0)
    }

    @Test func lettingGoTooEarlyDoesNothingAndSaysWhy() throws {
        let controller = try PullToRefreshController(specText: String(contentsOf: spec, encoding: .utf8))
        controller.scrolled(offsetY: -55, at: 0.0)
        controller.endedDragging(at: 0.2)
        #expect(controller.state == "pulling")
        #expect(controller.whyNotTaken?.contains("progress >= 1") == true)
    }

    @Test func anOffsetThatIsNotANumberIsRejectedAndChangesNothing() throws {
        let controller = try PullToRefreshController(specText: String(contentsOf: spec, encoding: .utf8))
        controller.scrolled(offsetY: -55, at: 0.0)
        controller.scrolled(offsetY: -.infinity, at: 0.1)
        #expect(controller.whyNotTaken?.hasPrefix("scroll was rejected: ") == true)
        #expect(controller.state == "pulling")
        #expect(controller.progress == 0.5)
    }
}
