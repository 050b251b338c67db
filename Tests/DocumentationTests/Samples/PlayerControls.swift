import GeneratedMachines

// The "From spec to app" tutorial's statechart: the controls of a video player screen, driven
// by the type `statecraft swift MediaPlayer.machine` generates. Its states nest and run in
// parallel regions (playback, sound, screen), so the controls ask which states are active.

/// What the player's controls show, read from the machine.
struct PlayerControls {
    private(set) var player = MediaPlayer()
    /// The outputs of the last step (`showSpinner`, `finished`, ...).
    private(set) var outputs: [MediaPlayer.Output]

    init() { outputs = player.start.outputs }

    /// The spinner shows while the item loads, and while playback waits for the network.
    var showsSpinner: Bool { player.isActive(.loading) || player.isActive(.buffering) }
    /// The pause button replaces the play button while playing (buffering included).
    var showsPauseButton: Bool { player.isActive(.playing) }
    /// The sound region, independent of playback.
    var isMuted: Bool { player.isActive(.muted) }

    mutating func handle(_ event: MediaPlayer.Event, at time: Double) {
        outputs = player.send(event, at: time).outputs
    }
}
