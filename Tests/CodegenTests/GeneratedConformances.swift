import GeneratedMachines

// What the differential tests need of a generated type, as protocols its members already
// satisfy: the generated file knows nothing of these (it imports nothing of ours), and each
// type joins them below with an empty extension.

protocol GeneratedValue: Sendable {
    static func number(_ n: Double) -> Self
    static func bool(_ b: Bool) -> Self
    static func string(_ s: String) -> Self
    var numberValue: Double? { get }
    var boolValue: Bool? { get }
    var stringValue: String? { get }
}

protocol GeneratedFailure: Sendable {
    var message: String { get }
    var line: Int { get }
    var column: Int { get }
}

protocol GeneratedOutcome: Sendable {
    associatedtype Failure: GeneratedFailure
    var name: String { get }
    var transition: Int? { get }
    var failure: Failure? { get }
}

protocol GeneratedOutput: Sendable {
    associatedtype Value: GeneratedValue
    var name: String { get }
    var arguments: [Value] { get }
}

protocol GeneratedEvent: Sendable {
    associatedtype Value: GeneratedValue
    init?(name: String, fields: [Value])
}

protocol GeneratedStepResult: Sendable {
    associatedtype Outcome: GeneratedOutcome
    associatedtype Output: GeneratedOutput
    var outcome: Outcome { get }
    var outputs: [Output] { get }
}

protocol GeneratedMachine: Sendable {
    associatedtype Value: GeneratedValue
    associatedtype Event: GeneratedEvent where Event.Value == Value
    associatedtype Output: GeneratedOutput where Output.Value == Value
    associatedtype Outcome: GeneratedOutcome
    associatedtype StepResult: GeneratedStepResult where StepResult.Outcome == Outcome, StepResult.Output == Output
    init()
    var start: StepResult { get }
    var configurationNames: [String] { get }
    var variableValues: [(name: String, value: Value)] { get }
    var isFinished: Bool { get }
    var now: Double { get }
    var nextDeadline: Double? { get }
    mutating func send(_ event: Event, emit: (Output) -> Void) -> Outcome
    mutating func advance(to time: Double, emit: (Output) -> Void, onStep: (Outcome) -> Void)
    mutating func fireNext(dueBy time: Double, firedAtOnce: inout Int, emit: (Output) -> Void) -> (outcome: Outcome, sentEvent: String?)?
    associatedtype Recorded: GeneratedRecorded where Recorded.Value == Value
    mutating func send(_ event: Event, at time: Double?, recordingTo record: (Recorded) -> Void) -> StepResult
    associatedtype SnapshotError: Error & CustomStringConvertible
    func snapshotJSON() -> String
    init(restoring json: String) throws(SnapshotError)
}

protocol GeneratedRecorded: Sendable {
    associatedtype Value: GeneratedValue
    var name: String { get }
    var time: Double { get }
    func forEachField<E: Error>(_ body: (String, Value) throws(E) -> Void) throws(E)
}

/// Every generated golden, by the spec it comes from: a path under the repository, or a random
/// chart's seed (`RandomCharts`). Random charts 5, 20 and 38 send themselves events.
let generatedMachines: [(spec: String, type: any GeneratedMachine.Type)] = [
    ("Specs/CheckoutScreen.machine", CheckoutScreen.self),
    ("Specs/Drawer.machine", Drawer.self),
    ("Specs/MediaPlayer.machine", MediaPlayer.self),
    ("Specs/PeekRating.machine", PeekRating.self),
    ("Specs/PullToRefresh.machine", PullToRefresh.self),
    ("Specs/SwipeToDismiss.machine", SwipeToDismiss.self),
    ("Specs/VibrantButton.machine", VibrantButton.self),
    ("Tests/CheckerTests/Fixtures/analysis.machine", Fixture_analysis.self),
    ("Tests/CheckerTests/Fixtures/completion-reached.machine", Fixture_completion_reached.self),
    ("Tests/CheckerTests/Fixtures/cross-region-transition.machine", Fixture_cross_region_transition.self),
    ("Tests/CheckerTests/Fixtures/depth-frontier.machine", Fixture_depth_frontier.self),
    ("Tests/CheckerTests/Fixtures/eventless.machine", Fixture_eventless.self),
    ("Tests/CheckerTests/Fixtures/eventless-settles.machine", Fixture_eventless_settles.self),
    ("Tests/CheckerTests/Fixtures/exhaustive-proof.machine", Fixture_exhaustive_proof.self),
    ("Tests/CheckerTests/Fixtures/external-names.machine", Fixture_external_names.self),
    ("Tests/CheckerTests/Fixtures/guard-clamp.machine", Fixture_guard_clamp.self),
    ("Tests/CheckerTests/Fixtures/guard-equality.machine", Fixture_guard_equality.self),
    ("Tests/CheckerTests/Fixtures/guard-overlap.machine", Fixture_guard_overlap.self),
    ("Tests/CheckerTests/Fixtures/history-always-default.machine", Fixture_history_always_default.self),
    ("Tests/CheckerTests/Fixtures/history-defaults.machine", Fixture_history_defaults.self),
    ("Tests/CheckerTests/Fixtures/history-entry.machine", Fixture_history_entry.self),
    ("Tests/CheckerTests/Fixtures/nested.machine", Fixture_nested.self),
    ("Tests/CheckerTests/Fixtures/not-reached-collapse.machine", Fixture_not_reached_collapse.self),
    ("Tests/CheckerTests/Fixtures/parallel.machine", Fixture_parallel.self),
    ("Tests/CheckerTests/Fixtures/payload-constants.machine", Fixture_payload_constants.self),
    ("Tests/CheckerTests/Fixtures/player.machine", Fixture_player.self),
    ("Tests/CheckerTests/Fixtures/private-fields.machine", Fixture_private_fields.self),
    ("Tests/CheckerTests/Fixtures/run-time-faults.machine", Fixture_run_time_faults.self),
    ("Tests/CheckerTests/Fixtures/short-circuit.machine", Fixture_short_circuit.self),
    ("Tests/CheckerTests/Fixtures/sole-child.machine", Fixture_sole_child.self),
    ("Tests/CheckerTests/Fixtures/start-fails.machine", Fixture_start_fails.self),
    ("Tests/CheckerTests/Fixtures/string-copied.machine", Fixture_string_copied.self),
    ("Tests/CheckerTests/Fixtures/string-emitted.machine", Fixture_string_emitted.self),
    ("Tests/CheckerTests/Fixtures/timer-loop.machine", Fixture_timer_loop.self),
    ("Tests/CheckerTests/Fixtures/timer-race.machine", Fixture_timer_race.self),
    ("Tests/CheckerTests/Fixtures/unhandled-raise.machine", Fixture_unhandled_raise.self),
    ("Tests/CheckerTests/Fixtures/unreachable-reasons.machine", Fixture_unreachable_reasons.self),
    ("random-chart:12", RandomChart_12.self),
    ("random-chart:41", RandomChart_41.self),
    ("random-chart:61", RandomChart_61.self),
    ("random-chart:116", RandomChart_116.self),
    ("random-chart:142", RandomChart_142.self),
    ("random-chart:164", RandomChart_164.self),
    ("random-chart:0", WideChart.self),
    ("Tests/CheckerTests/Fixtures/debounce-chain.machine", Fixture_debounce_chain.self),
    ("Tests/CheckerTests/Fixtures/debounce-checkout.machine", Fixture_debounce_checkout.self),
    ("random-chart:5", RandomChart_5.self),
    ("random-chart:20", RandomChart_20.self),
    ("random-chart:38", RandomChart_38.self),
    ("Tests/CheckerTests/Fixtures/timer-fails.machine", Fixture_timer_fails.self),
    ("Tests/CheckerTests/Fixtures/send-fails.machine", Fixture_send_fails.self),
    ("Tests/CheckerTests/Fixtures/properties.machine", Fixture_properties.self),
    ("Tests/CheckerTests/Fixtures/watched-properties.machine", Fixture_watched_properties.self),
    ("Tests/CheckerTests/Fixtures/default-entry-actions.machine", Fixture_default_entry_actions.self),
    ("Tests/CheckerTests/Fixtures/default-entry-sends.machine", Fixture_default_entry_sends.self),
    ("Tests/CheckerTests/Fixtures/done-data.machine", Fixture_done_data.self),
    ("Tests/CheckerTests/Fixtures/send-by-name.machine", Fixture_send_by_name.self),
]

extension CheckoutScreen: GeneratedMachine {}
extension CheckoutScreen.Value: GeneratedValue {}
extension CheckoutScreen.Failure: GeneratedFailure {}
extension CheckoutScreen.Outcome: GeneratedOutcome {}
extension CheckoutScreen.Output: GeneratedOutput {}
extension CheckoutScreen.Event: GeneratedEvent {}
extension CheckoutScreen.StepResult: GeneratedStepResult {}
extension CheckoutScreen.Recorded: GeneratedRecorded {}

extension Drawer: GeneratedMachine {}
extension Drawer.Value: GeneratedValue {}
extension Drawer.Failure: GeneratedFailure {}
extension Drawer.Outcome: GeneratedOutcome {}
extension Drawer.Output: GeneratedOutput {}
extension Drawer.Event: GeneratedEvent {}
extension Drawer.StepResult: GeneratedStepResult {}
extension Drawer.Recorded: GeneratedRecorded {}

extension MediaPlayer: GeneratedMachine {}
extension MediaPlayer.Value: GeneratedValue {}
extension MediaPlayer.Failure: GeneratedFailure {}
extension MediaPlayer.Outcome: GeneratedOutcome {}
extension MediaPlayer.Output: GeneratedOutput {}
extension MediaPlayer.Event: GeneratedEvent {}
extension MediaPlayer.StepResult: GeneratedStepResult {}
extension MediaPlayer.Recorded: GeneratedRecorded {}

extension PeekRating: GeneratedMachine {}
extension PeekRating.Value: GeneratedValue {}
extension PeekRating.Failure: GeneratedFailure {}
extension PeekRating.Outcome: GeneratedOutcome {}
extension PeekRating.Output: GeneratedOutput {}
extension PeekRating.Event: GeneratedEvent {}
extension PeekRating.StepResult: GeneratedStepResult {}
extension PeekRating.Recorded: GeneratedRecorded {}

extension PullToRefresh: GeneratedMachine {}
extension PullToRefresh.Value: GeneratedValue {}
extension PullToRefresh.Failure: GeneratedFailure {}
extension PullToRefresh.Outcome: GeneratedOutcome {}
extension PullToRefresh.Output: GeneratedOutput {}
extension PullToRefresh.Event: GeneratedEvent {}
extension PullToRefresh.StepResult: GeneratedStepResult {}
extension PullToRefresh.Recorded: GeneratedRecorded {}

extension SwipeToDismiss: GeneratedMachine {}
extension SwipeToDismiss.Value: GeneratedValue {}
extension SwipeToDismiss.Failure: GeneratedFailure {}
extension SwipeToDismiss.Outcome: GeneratedOutcome {}
extension SwipeToDismiss.Output: GeneratedOutput {}
extension SwipeToDismiss.Event: GeneratedEvent {}
extension SwipeToDismiss.StepResult: GeneratedStepResult {}
extension SwipeToDismiss.Recorded: GeneratedRecorded {}

extension VibrantButton: GeneratedMachine {}
extension VibrantButton.Value: GeneratedValue {}
extension VibrantButton.Failure: GeneratedFailure {}
extension VibrantButton.Outcome: GeneratedOutcome {}
extension VibrantButton.Output: GeneratedOutput {}
extension VibrantButton.Event: GeneratedEvent {}
extension VibrantButton.StepResult: GeneratedStepResult {}
extension VibrantButton.Recorded: GeneratedRecorded {}

extension Fixture_analysis: GeneratedMachine {}
extension Fixture_analysis.Value: GeneratedValue {}
extension Fixture_analysis.Failure: GeneratedFailure {}
extension Fixture_analysis.Outcome: GeneratedOutcome {}
extension Fixture_analysis.Output: GeneratedOutput {}
extension Fixture_analysis.Event: GeneratedEvent {}
extension Fixture_analysis.StepResult: GeneratedStepResult {}
extension Fixture_analysis.Recorded: GeneratedRecorded {}

extension Fixture_completion_reached: GeneratedMachine {}
extension Fixture_completion_reached.Value: GeneratedValue {}
extension Fixture_completion_reached.Failure: GeneratedFailure {}
extension Fixture_completion_reached.Outcome: GeneratedOutcome {}
extension Fixture_completion_reached.Output: GeneratedOutput {}
extension Fixture_completion_reached.Event: GeneratedEvent {}
extension Fixture_completion_reached.StepResult: GeneratedStepResult {}
extension Fixture_completion_reached.Recorded: GeneratedRecorded {}

extension Fixture_cross_region_transition: GeneratedMachine {}
extension Fixture_cross_region_transition.Value: GeneratedValue {}
extension Fixture_cross_region_transition.Failure: GeneratedFailure {}
extension Fixture_cross_region_transition.Outcome: GeneratedOutcome {}
extension Fixture_cross_region_transition.Output: GeneratedOutput {}
extension Fixture_cross_region_transition.Event: GeneratedEvent {}
extension Fixture_cross_region_transition.StepResult: GeneratedStepResult {}
extension Fixture_cross_region_transition.Recorded: GeneratedRecorded {}

extension Fixture_depth_frontier: GeneratedMachine {}
extension Fixture_depth_frontier.Value: GeneratedValue {}
extension Fixture_depth_frontier.Failure: GeneratedFailure {}
extension Fixture_depth_frontier.Outcome: GeneratedOutcome {}
extension Fixture_depth_frontier.Output: GeneratedOutput {}
extension Fixture_depth_frontier.Event: GeneratedEvent {}
extension Fixture_depth_frontier.StepResult: GeneratedStepResult {}
extension Fixture_depth_frontier.Recorded: GeneratedRecorded {}

extension Fixture_eventless: GeneratedMachine {}
extension Fixture_eventless.Value: GeneratedValue {}
extension Fixture_eventless.Failure: GeneratedFailure {}
extension Fixture_eventless.Outcome: GeneratedOutcome {}
extension Fixture_eventless.Output: GeneratedOutput {}
extension Fixture_eventless.Event: GeneratedEvent {}
extension Fixture_eventless.StepResult: GeneratedStepResult {}
extension Fixture_eventless.Recorded: GeneratedRecorded {}
extension Fixture_eventless_settles: GeneratedMachine {}
extension Fixture_eventless_settles.Value: GeneratedValue {}
extension Fixture_eventless_settles.Failure: GeneratedFailure {}
extension Fixture_eventless_settles.Outcome: GeneratedOutcome {}
extension Fixture_eventless_settles.Output: GeneratedOutput {}
extension Fixture_eventless_settles.Event: GeneratedEvent {}
extension Fixture_eventless_settles.StepResult: GeneratedStepResult {}
extension Fixture_eventless_settles.Recorded: GeneratedRecorded {}

extension Fixture_exhaustive_proof: GeneratedMachine {}
extension Fixture_exhaustive_proof.Value: GeneratedValue {}
extension Fixture_exhaustive_proof.Failure: GeneratedFailure {}
extension Fixture_exhaustive_proof.Outcome: GeneratedOutcome {}
extension Fixture_exhaustive_proof.Output: GeneratedOutput {}
extension Fixture_exhaustive_proof.Event: GeneratedEvent {}
extension Fixture_exhaustive_proof.StepResult: GeneratedStepResult {}
extension Fixture_exhaustive_proof.Recorded: GeneratedRecorded {}
extension Fixture_external_names: GeneratedMachine {}
extension Fixture_external_names.Value: GeneratedValue {}
extension Fixture_external_names.Failure: GeneratedFailure {}
extension Fixture_external_names.Outcome: GeneratedOutcome {}
extension Fixture_external_names.Output: GeneratedOutput {}
extension Fixture_external_names.Event: GeneratedEvent {}
extension Fixture_external_names.StepResult: GeneratedStepResult {}
extension Fixture_external_names.Recorded: GeneratedRecorded {}

extension Fixture_guard_clamp: GeneratedMachine {}
extension Fixture_guard_clamp.Value: GeneratedValue {}
extension Fixture_guard_clamp.Failure: GeneratedFailure {}
extension Fixture_guard_clamp.Outcome: GeneratedOutcome {}
extension Fixture_guard_clamp.Output: GeneratedOutput {}
extension Fixture_guard_clamp.Event: GeneratedEvent {}
extension Fixture_guard_clamp.StepResult: GeneratedStepResult {}
extension Fixture_guard_clamp.Recorded: GeneratedRecorded {}

extension Fixture_guard_equality: GeneratedMachine {}
extension Fixture_guard_equality.Value: GeneratedValue {}
extension Fixture_guard_equality.Failure: GeneratedFailure {}
extension Fixture_guard_equality.Outcome: GeneratedOutcome {}
extension Fixture_guard_equality.Output: GeneratedOutput {}
extension Fixture_guard_equality.Event: GeneratedEvent {}
extension Fixture_guard_equality.StepResult: GeneratedStepResult {}
extension Fixture_guard_equality.Recorded: GeneratedRecorded {}

extension Fixture_guard_overlap: GeneratedMachine {}
extension Fixture_guard_overlap.Value: GeneratedValue {}
extension Fixture_guard_overlap.Failure: GeneratedFailure {}
extension Fixture_guard_overlap.Outcome: GeneratedOutcome {}
extension Fixture_guard_overlap.Output: GeneratedOutput {}
extension Fixture_guard_overlap.Event: GeneratedEvent {}
extension Fixture_guard_overlap.StepResult: GeneratedStepResult {}
extension Fixture_guard_overlap.Recorded: GeneratedRecorded {}

extension Fixture_history_always_default: GeneratedMachine {}
extension Fixture_history_always_default.Value: GeneratedValue {}
extension Fixture_history_always_default.Failure: GeneratedFailure {}
extension Fixture_history_always_default.Outcome: GeneratedOutcome {}
extension Fixture_history_always_default.Output: GeneratedOutput {}
extension Fixture_history_always_default.Event: GeneratedEvent {}
extension Fixture_history_always_default.StepResult: GeneratedStepResult {}
extension Fixture_history_always_default.Recorded: GeneratedRecorded {}

extension Fixture_history_defaults: GeneratedMachine {}
extension Fixture_history_defaults.Value: GeneratedValue {}
extension Fixture_history_defaults.Failure: GeneratedFailure {}
extension Fixture_history_defaults.Outcome: GeneratedOutcome {}
extension Fixture_history_defaults.Output: GeneratedOutput {}
extension Fixture_history_defaults.Event: GeneratedEvent {}
extension Fixture_history_defaults.StepResult: GeneratedStepResult {}
extension Fixture_history_defaults.Recorded: GeneratedRecorded {}
extension Fixture_history_entry: GeneratedMachine {}
extension Fixture_history_entry.Value: GeneratedValue {}
extension Fixture_history_entry.Failure: GeneratedFailure {}
extension Fixture_history_entry.Outcome: GeneratedOutcome {}
extension Fixture_history_entry.Output: GeneratedOutput {}
extension Fixture_history_entry.Event: GeneratedEvent {}
extension Fixture_history_entry.StepResult: GeneratedStepResult {}
extension Fixture_history_entry.Recorded: GeneratedRecorded {}

extension Fixture_nested: GeneratedMachine {}
extension Fixture_nested.Value: GeneratedValue {}
extension Fixture_nested.Failure: GeneratedFailure {}
extension Fixture_nested.Outcome: GeneratedOutcome {}
extension Fixture_nested.Output: GeneratedOutput {}
extension Fixture_nested.Event: GeneratedEvent {}
extension Fixture_nested.StepResult: GeneratedStepResult {}
extension Fixture_nested.Recorded: GeneratedRecorded {}

extension Fixture_not_reached_collapse: GeneratedMachine {}
extension Fixture_not_reached_collapse.Value: GeneratedValue {}
extension Fixture_not_reached_collapse.Failure: GeneratedFailure {}
extension Fixture_not_reached_collapse.Outcome: GeneratedOutcome {}
extension Fixture_not_reached_collapse.Output: GeneratedOutput {}
extension Fixture_not_reached_collapse.Event: GeneratedEvent {}
extension Fixture_not_reached_collapse.StepResult: GeneratedStepResult {}
extension Fixture_not_reached_collapse.Recorded: GeneratedRecorded {}

extension Fixture_parallel: GeneratedMachine {}
extension Fixture_parallel.Value: GeneratedValue {}
extension Fixture_parallel.Failure: GeneratedFailure {}
extension Fixture_parallel.Outcome: GeneratedOutcome {}
extension Fixture_parallel.Output: GeneratedOutput {}
extension Fixture_parallel.Event: GeneratedEvent {}
extension Fixture_parallel.StepResult: GeneratedStepResult {}
extension Fixture_parallel.Recorded: GeneratedRecorded {}

extension Fixture_payload_constants: GeneratedMachine {}
extension Fixture_payload_constants.Value: GeneratedValue {}
extension Fixture_payload_constants.Failure: GeneratedFailure {}
extension Fixture_payload_constants.Outcome: GeneratedOutcome {}
extension Fixture_payload_constants.Output: GeneratedOutput {}
extension Fixture_payload_constants.Event: GeneratedEvent {}
extension Fixture_payload_constants.StepResult: GeneratedStepResult {}
extension Fixture_payload_constants.Recorded: GeneratedRecorded {}

extension Fixture_player: GeneratedMachine {}
extension Fixture_player.Value: GeneratedValue {}
extension Fixture_player.Failure: GeneratedFailure {}
extension Fixture_player.Outcome: GeneratedOutcome {}
extension Fixture_player.Output: GeneratedOutput {}
extension Fixture_player.Event: GeneratedEvent {}
extension Fixture_player.StepResult: GeneratedStepResult {}
extension Fixture_player.Recorded: GeneratedRecorded {}

extension Fixture_private_fields: GeneratedMachine {}
extension Fixture_private_fields.Value: GeneratedValue {}
extension Fixture_private_fields.Failure: GeneratedFailure {}
extension Fixture_private_fields.Outcome: GeneratedOutcome {}
extension Fixture_private_fields.Output: GeneratedOutput {}
extension Fixture_private_fields.Event: GeneratedEvent {}
extension Fixture_private_fields.StepResult: GeneratedStepResult {}
extension Fixture_private_fields.Recorded: GeneratedRecorded {}

extension Fixture_run_time_faults: GeneratedMachine {}
extension Fixture_run_time_faults.Value: GeneratedValue {}
extension Fixture_run_time_faults.Failure: GeneratedFailure {}
extension Fixture_run_time_faults.Outcome: GeneratedOutcome {}
extension Fixture_run_time_faults.Output: GeneratedOutput {}
extension Fixture_run_time_faults.Event: GeneratedEvent {}
extension Fixture_run_time_faults.StepResult: GeneratedStepResult {}
extension Fixture_run_time_faults.Recorded: GeneratedRecorded {}
extension Fixture_short_circuit: GeneratedMachine {}
extension Fixture_short_circuit.Value: GeneratedValue {}
extension Fixture_short_circuit.Failure: GeneratedFailure {}
extension Fixture_short_circuit.Outcome: GeneratedOutcome {}
extension Fixture_short_circuit.Output: GeneratedOutput {}
extension Fixture_short_circuit.Event: GeneratedEvent {}
extension Fixture_short_circuit.StepResult: GeneratedStepResult {}
extension Fixture_short_circuit.Recorded: GeneratedRecorded {}

extension Fixture_sole_child: GeneratedMachine {}
extension Fixture_sole_child.Value: GeneratedValue {}
extension Fixture_sole_child.Failure: GeneratedFailure {}
extension Fixture_sole_child.Outcome: GeneratedOutcome {}
extension Fixture_sole_child.Output: GeneratedOutput {}
extension Fixture_sole_child.Event: GeneratedEvent {}
extension Fixture_sole_child.StepResult: GeneratedStepResult {}
extension Fixture_sole_child.Recorded: GeneratedRecorded {}

extension Fixture_start_fails: GeneratedMachine {}
extension Fixture_start_fails.Value: GeneratedValue {}
extension Fixture_start_fails.Failure: GeneratedFailure {}
extension Fixture_start_fails.Outcome: GeneratedOutcome {}
extension Fixture_start_fails.Output: GeneratedOutput {}
extension Fixture_start_fails.Event: GeneratedEvent {}
extension Fixture_start_fails.StepResult: GeneratedStepResult {}
extension Fixture_start_fails.Recorded: GeneratedRecorded {}

extension Fixture_string_copied: GeneratedMachine {}
extension Fixture_string_copied.Value: GeneratedValue {}
extension Fixture_string_copied.Failure: GeneratedFailure {}
extension Fixture_string_copied.Outcome: GeneratedOutcome {}
extension Fixture_string_copied.Output: GeneratedOutput {}
extension Fixture_string_copied.Event: GeneratedEvent {}
extension Fixture_string_copied.StepResult: GeneratedStepResult {}
extension Fixture_string_copied.Recorded: GeneratedRecorded {}

extension Fixture_string_emitted: GeneratedMachine {}
extension Fixture_string_emitted.Value: GeneratedValue {}
extension Fixture_string_emitted.Failure: GeneratedFailure {}
extension Fixture_string_emitted.Outcome: GeneratedOutcome {}
extension Fixture_string_emitted.Output: GeneratedOutput {}
extension Fixture_string_emitted.Event: GeneratedEvent {}
extension Fixture_string_emitted.StepResult: GeneratedStepResult {}
extension Fixture_string_emitted.Recorded: GeneratedRecorded {}

extension Fixture_timer_loop: GeneratedMachine {}
extension Fixture_timer_loop.Value: GeneratedValue {}
extension Fixture_timer_loop.Failure: GeneratedFailure {}
extension Fixture_timer_loop.Outcome: GeneratedOutcome {}
extension Fixture_timer_loop.Output: GeneratedOutput {}
extension Fixture_timer_loop.Event: GeneratedEvent {}
extension Fixture_timer_loop.StepResult: GeneratedStepResult {}
extension Fixture_timer_loop.Recorded: GeneratedRecorded {}

extension Fixture_timer_race: GeneratedMachine {}
extension Fixture_timer_race.Value: GeneratedValue {}
extension Fixture_timer_race.Failure: GeneratedFailure {}
extension Fixture_timer_race.Outcome: GeneratedOutcome {}
extension Fixture_timer_race.Output: GeneratedOutput {}
extension Fixture_timer_race.Event: GeneratedEvent {}
extension Fixture_timer_race.StepResult: GeneratedStepResult {}
extension Fixture_timer_race.Recorded: GeneratedRecorded {}

extension Fixture_unhandled_raise: GeneratedMachine {}
extension Fixture_unhandled_raise.Value: GeneratedValue {}
extension Fixture_unhandled_raise.Failure: GeneratedFailure {}
extension Fixture_unhandled_raise.Outcome: GeneratedOutcome {}
extension Fixture_unhandled_raise.Output: GeneratedOutput {}
extension Fixture_unhandled_raise.Event: GeneratedEvent {}
extension Fixture_unhandled_raise.StepResult: GeneratedStepResult {}
extension Fixture_unhandled_raise.Recorded: GeneratedRecorded {}

extension Fixture_unreachable_reasons: GeneratedMachine {}
extension Fixture_unreachable_reasons.Value: GeneratedValue {}
extension Fixture_unreachable_reasons.Failure: GeneratedFailure {}
extension Fixture_unreachable_reasons.Outcome: GeneratedOutcome {}
extension Fixture_unreachable_reasons.Output: GeneratedOutput {}
extension Fixture_unreachable_reasons.Event: GeneratedEvent {}
extension Fixture_unreachable_reasons.StepResult: GeneratedStepResult {}
extension Fixture_unreachable_reasons.Recorded: GeneratedRecorded {}

extension RandomChart_12: GeneratedMachine {}
extension RandomChart_12.Value: GeneratedValue {}
extension RandomChart_12.Failure: GeneratedFailure {}
extension RandomChart_12.Outcome: GeneratedOutcome {}
extension RandomChart_12.Output: GeneratedOutput {}
extension RandomChart_12.Event: GeneratedEvent {}
extension RandomChart_12.StepResult: GeneratedStepResult {}
extension RandomChart_12.Recorded: GeneratedRecorded {}

extension RandomChart_41: GeneratedMachine {}
extension RandomChart_41.Value: GeneratedValue {}
extension RandomChart_41.Failure: GeneratedFailure {}
extension RandomChart_41.Outcome: GeneratedOutcome {}
extension RandomChart_41.Output: GeneratedOutput {}
extension RandomChart_41.Event: GeneratedEvent {}
extension RandomChart_41.StepResult: GeneratedStepResult {}
extension RandomChart_41.Recorded: GeneratedRecorded {}

extension RandomChart_61: GeneratedMachine {}
extension RandomChart_61.Value: GeneratedValue {}
extension RandomChart_61.Failure: GeneratedFailure {}
extension RandomChart_61.Outcome: GeneratedOutcome {}
extension RandomChart_61.Output: GeneratedOutput {}
extension RandomChart_61.Event: GeneratedEvent {}
extension RandomChart_61.StepResult: GeneratedStepResult {}
extension RandomChart_61.Recorded: GeneratedRecorded {}

extension RandomChart_116: GeneratedMachine {}
extension RandomChart_116.Value: GeneratedValue {}
extension RandomChart_116.Failure: GeneratedFailure {}
extension RandomChart_116.Outcome: GeneratedOutcome {}
extension RandomChart_116.Output: GeneratedOutput {}
extension RandomChart_116.Event: GeneratedEvent {}
extension RandomChart_116.StepResult: GeneratedStepResult {}
extension RandomChart_116.Recorded: GeneratedRecorded {}

extension RandomChart_142: GeneratedMachine {}
extension RandomChart_142.Value: GeneratedValue {}
extension RandomChart_142.Failure: GeneratedFailure {}
extension RandomChart_142.Outcome: GeneratedOutcome {}
extension RandomChart_142.Output: GeneratedOutput {}
extension RandomChart_142.Event: GeneratedEvent {}
extension RandomChart_142.StepResult: GeneratedStepResult {}
extension RandomChart_142.Recorded: GeneratedRecorded {}

extension RandomChart_164: GeneratedMachine {}
extension RandomChart_164.Value: GeneratedValue {}
extension RandomChart_164.Failure: GeneratedFailure {}
extension RandomChart_164.Outcome: GeneratedOutcome {}
extension RandomChart_164.Output: GeneratedOutput {}
extension RandomChart_164.Event: GeneratedEvent {}
extension RandomChart_164.StepResult: GeneratedStepResult {}
extension RandomChart_164.Recorded: GeneratedRecorded {}

extension WideChart: GeneratedMachine {}
extension WideChart.Value: GeneratedValue {}
extension WideChart.Failure: GeneratedFailure {}
extension WideChart.Outcome: GeneratedOutcome {}
extension WideChart.Output: GeneratedOutput {}
extension WideChart.Event: GeneratedEvent {}
extension WideChart.StepResult: GeneratedStepResult {}
extension WideChart.Recorded: GeneratedRecorded {}

extension Fixture_debounce_chain: GeneratedMachine {}
extension Fixture_debounce_chain.Value: GeneratedValue {}
extension Fixture_debounce_chain.Failure: GeneratedFailure {}
extension Fixture_debounce_chain.Outcome: GeneratedOutcome {}
extension Fixture_debounce_chain.Output: GeneratedOutput {}
extension Fixture_debounce_chain.Event: GeneratedEvent {}
extension Fixture_debounce_chain.StepResult: GeneratedStepResult {}
extension Fixture_debounce_chain.Recorded: GeneratedRecorded {}

extension Fixture_debounce_checkout: GeneratedMachine {}
extension Fixture_debounce_checkout.Value: GeneratedValue {}
extension Fixture_debounce_checkout.Failure: GeneratedFailure {}
extension Fixture_debounce_checkout.Outcome: GeneratedOutcome {}
extension Fixture_debounce_checkout.Output: GeneratedOutput {}
extension Fixture_debounce_checkout.Event: GeneratedEvent {}
extension Fixture_debounce_checkout.StepResult: GeneratedStepResult {}
extension Fixture_debounce_checkout.Recorded: GeneratedRecorded {}

extension RandomChart_5: GeneratedMachine {}
extension RandomChart_5.Value: GeneratedValue {}
extension RandomChart_5.Failure: GeneratedFailure {}
extension RandomChart_5.Outcome: GeneratedOutcome {}
extension RandomChart_5.Output: GeneratedOutput {}
extension RandomChart_5.Event: GeneratedEvent {}
extension RandomChart_5.StepResult: GeneratedStepResult {}
extension RandomChart_5.Recorded: GeneratedRecorded {}

extension RandomChart_20: GeneratedMachine {}
extension RandomChart_20.Value: GeneratedValue {}
extension RandomChart_20.Failure: GeneratedFailure {}
extension RandomChart_20.Outcome: GeneratedOutcome {}
extension RandomChart_20.Output: GeneratedOutput {}
extension RandomChart_20.Event: GeneratedEvent {}
extension RandomChart_20.StepResult: GeneratedStepResult {}
extension RandomChart_20.Recorded: GeneratedRecorded {}

extension RandomChart_38: GeneratedMachine {}
extension RandomChart_38.Value: GeneratedValue {}
extension RandomChart_38.Failure: GeneratedFailure {}
extension RandomChart_38.Outcome: GeneratedOutcome {}
extension RandomChart_38.Output: GeneratedOutput {}
extension RandomChart_38.Event: GeneratedEvent {}
extension RandomChart_38.StepResult: GeneratedStepResult {}
extension RandomChart_38.Recorded: GeneratedRecorded {}

extension Fixture_timer_fails: GeneratedMachine {}
extension Fixture_timer_fails.Value: GeneratedValue {}
extension Fixture_timer_fails.Failure: GeneratedFailure {}
extension Fixture_timer_fails.Outcome: GeneratedOutcome {}
extension Fixture_timer_fails.Output: GeneratedOutput {}
extension Fixture_timer_fails.Event: GeneratedEvent {}
extension Fixture_timer_fails.StepResult: GeneratedStepResult {}
extension Fixture_timer_fails.Recorded: GeneratedRecorded {}

extension Fixture_send_fails: GeneratedMachine {}
extension Fixture_send_fails.Value: GeneratedValue {}
extension Fixture_send_fails.Failure: GeneratedFailure {}
extension Fixture_send_fails.Outcome: GeneratedOutcome {}
extension Fixture_send_fails.Output: GeneratedOutput {}
extension Fixture_send_fails.Event: GeneratedEvent {}
extension Fixture_send_fails.StepResult: GeneratedStepResult {}
extension Fixture_send_fails.Recorded: GeneratedRecorded {}

extension Fixture_properties: GeneratedMachine {}
extension Fixture_properties.Value: GeneratedValue {}
extension Fixture_properties.Failure: GeneratedFailure {}
extension Fixture_properties.Outcome: GeneratedOutcome {}
extension Fixture_properties.Output: GeneratedOutput {}
extension Fixture_properties.Event: GeneratedEvent {}
extension Fixture_properties.StepResult: GeneratedStepResult {}
extension Fixture_properties.Recorded: GeneratedRecorded {}

extension Fixture_watched_properties: GeneratedMachine {}
extension Fixture_watched_properties.Value: GeneratedValue {}
extension Fixture_watched_properties.Failure: GeneratedFailure {}
extension Fixture_watched_properties.Outcome: GeneratedOutcome {}
extension Fixture_watched_properties.Output: GeneratedOutput {}
extension Fixture_watched_properties.Event: GeneratedEvent {}
extension Fixture_watched_properties.StepResult: GeneratedStepResult {}
extension Fixture_watched_properties.Recorded: GeneratedRecorded {}

extension Fixture_default_entry_actions: GeneratedMachine {}
extension Fixture_default_entry_actions.Value: GeneratedValue {}
extension Fixture_default_entry_actions.Failure: GeneratedFailure {}
extension Fixture_default_entry_actions.Outcome: GeneratedOutcome {}
extension Fixture_default_entry_actions.Output: GeneratedOutput {}
extension Fixture_default_entry_actions.Event: GeneratedEvent {}
extension Fixture_default_entry_actions.StepResult: GeneratedStepResult {}
extension Fixture_default_entry_actions.Recorded: GeneratedRecorded {}
extension Fixture_default_entry_sends: GeneratedMachine {}
extension Fixture_default_entry_sends.Value: GeneratedValue {}
extension Fixture_default_entry_sends.Failure: GeneratedFailure {}
extension Fixture_default_entry_sends.Outcome: GeneratedOutcome {}
extension Fixture_default_entry_sends.Output: GeneratedOutput {}
extension Fixture_default_entry_sends.Event: GeneratedEvent {}
extension Fixture_default_entry_sends.StepResult: GeneratedStepResult {}
extension Fixture_default_entry_sends.Recorded: GeneratedRecorded {}
extension Fixture_done_data: GeneratedMachine {}
extension Fixture_done_data.Value: GeneratedValue {}
extension Fixture_done_data.Failure: GeneratedFailure {}
extension Fixture_done_data.Outcome: GeneratedOutcome {}
extension Fixture_done_data.Output: GeneratedOutput {}
extension Fixture_done_data.Event: GeneratedEvent {}
extension Fixture_done_data.StepResult: GeneratedStepResult {}
extension Fixture_done_data.Recorded: GeneratedRecorded {}
extension Fixture_send_by_name: GeneratedMachine {}
extension Fixture_send_by_name.Value: GeneratedValue {}
extension Fixture_send_by_name.Failure: GeneratedFailure {}
extension Fixture_send_by_name.Outcome: GeneratedOutcome {}
extension Fixture_send_by_name.Output: GeneratedOutput {}
extension Fixture_send_by_name.Event: GeneratedEvent {}
extension Fixture_send_by_name.StepResult: GeneratedStepResult {}
extension Fixture_send_by_name.Recorded: GeneratedRecorded {}
