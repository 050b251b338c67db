import GeneratedMachines
import Testing

@Suite struct PlayerControlsTests {
    @Test func theRegionsMoveOnTheirOwnAndComeBackTogether() {
        var controls = PlayerControls()
        #expect(controls.outputs == [.showSpinner])
        controls.handle(.loaded(itemDuration: 600), at: 0.3)
        controls.handle(.prerolled, at: 0.4)
        // Loading completed; with autoplay the machine pressed play itself, in the same step.
        #expect(controls.outputs == [.hideSpinner])
        #expect(controls.showsPauseButton && !controls.showsSpinner)
        controls.handle(.mute, at: 1)
        #expect(controls.isMuted && controls.showsPauseButton)
        #expect(controls.player.configuration == [.player, .session, .playback, .playing, .streaming,
                                                  .sound, .muted, .screen, .layout, .inline])
        // A phone call leaves the player; its end brings back every region as it was.
        controls.handle(.interruptionBegan, at: 2)
        #expect(controls.player.configuration == [.interrupted])
        controls.handle(.interruptionEnded(shouldResume: true), at: 30)
        #expect(controls.isMuted && controls.showsPauseButton)
    }
}
