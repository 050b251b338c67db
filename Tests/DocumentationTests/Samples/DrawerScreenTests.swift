import GeneratedMachines
import Testing

/// The view a test gives the screen: it only remembers where it was put.
final class FakeDrawerView: DrawerView {
    var originY = 0.0
}

@Suite struct DrawerScreenTests {
    /// A drag from near the bottom to the top closes the drawer.
    @Test func aDragUpClosesTheDrawer() {
        let view = FakeDrawerView()
        let screen = DrawerScreen(view: view)
        #expect(view.originY == 0)  // fell open at launch
        screen.touchBegan(y: 600, onContent: true, at: 1.0)
        screen.touchMoved(y: 80, at: 1.2)
        #expect(view.originY == -520)  // follows the finger
        screen.touchEnded(y: 80, at: 1.3)
        #expect(screen.drawer.state == .closed)
        #expect(view.originY == -617)
    }

    /// Saved mid-drag and restored after a "relaunch", the drawer is still being dragged, and
    /// the drag ends as it would have.
    @Test func aRestoredDrawerFinishesTheDrag() throws {
        let screen = DrawerScreen(view: FakeDrawerView())
        screen.touchBegan(y: 600, onContent: true, at: 1.0)
        let saved = screen.save()

        let view = FakeDrawerView()
        let relaunched = DrawerScreen(view: view)
        try relaunched.restore(saved)
        #expect(relaunched.drawer.state == .dragging)
        relaunched.touchMoved(y: 80, at: 1.2)
        relaunched.touchEnded(y: 80, at: 1.3)
        #expect(relaunched.drawer.state == .closed)
        #expect(view.originY == -617)
    }
}
