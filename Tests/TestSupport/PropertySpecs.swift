/// Specs with properties that more than one test target replays.
package enum PropertySpecs {
    /// A door whose logs break each kind of property in its own way: a state (`never`,
    /// `always`), a precondition (`only after`) and a missed deadline (`after … within`).
    package static let door = """
        machine Door {
            var opens: Number = 0
            event open
            event close
            event lock
            event alarm
            initial state closed {
                on open -> opened { opens += 1 }
                on alarm -> ringing
            }
            state opened {
                on close -> closed
                on lock -> lockedOpen
            }
            state lockedOpen
            state ringing
            property noLockOpen: never in(lockedOpen)
            property fewOpens: always opens < 2
            property quiet: in(ringing) only after in(opened)
            property shuts: after open within 5s: in(closed)
        }
        """

    /// Three cases that break the door's properties: `a` locks it open (`noLockOpen`) and
    /// closes it past its 5 s (`shuts`), `b` rings before it ever opened (`quiet`), `c` opens
    /// it twice (`fewOpens`).
    package static let doorLog = """
        {"case": "a", "event": "open"}
        {"case": "a", "time": 3, "event": "lock"}
        {"case": "b", "event": "alarm"}
        {"case": "a", "time": 9, "event": "close"}
        {"case": "c", "event": "open"}
        {"case": "c", "time": 1, "event": "close"}
        {"case": "c", "time": 2, "event": "open"}
        """
}
