import StatecraftModel

/// The names the exporter makes up, in one place, since the importer reads them back:
/// timer events, send ids, completion events and the data items of `let` values.
///
/// - `after d` timer number K (counting from 0 among the `after` transitions of state S, in
///   the order written) is the event and send id `after.S.K`.
/// - `send e` is `<send id="send.e">`; when a machine sends `e` from more than one place,
///   the first (in document order) keeps `send.e` and the others are `send.e.2`,
///   `send.e.3`, …, because SCXML's schema makes a send id unique in the document; `cancel e`
///   then cancels every one of them. A send by name that may send an event some `cancel`
///   names counts as a place that sends it (`SCXMLDocument.writeNamedSend`).
/// - completion of state x is SCXML's `done.state.x`.
/// - `let y` is stored in the data item `let_y` (with `_` added while that name is taken by a
///   constant, variable or state).
enum SCXMLNames {
    /// The event (and send id) of timer `index` of state `state`.
    static func timer(_ state: String, _ index: Int) -> String { "after.\(state).\(index)" }

    /// The completion event of state `state`.
    static func done(_ state: String) -> String { "done.state.\(state)" }

    /// The send id of the `occurrence`-th (from 1) place that sends `event`.
    static func send(_ event: String, occurrence: Int = 1) -> String {
        occurrence <= 1 ? "send.\(event)" : "send.\(event).\(occurrence)"
    }

    /// The data item of a `let` whose name could not be read from the source.
    static func localFallback(_ slot: Int) -> String { "let_\(slot)" }

    /// The timers of state `s` in the order written, numbered from 0.
    static func timers(of s: StateID, in machine: Machine) -> [(index: Int, transition: Transition)] {
        machine[s].transitions.map { machine[$0] }
            .filter { if case .after = $0.trigger { true } else { false } }
            .enumerated().map { ($0.offset, $0.element) }
    }
}
