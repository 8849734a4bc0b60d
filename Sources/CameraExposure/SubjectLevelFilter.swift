/// A backlit subject's scene-referred level (log2 of its metered value over the exposure that made
/// the frame), filtered over frames: whether `BacklitSubject`'s region takes in a block at the edge
/// of its tolerance depends on noise, and the exposure loop must not follow those flips. A jump of
/// more than `newSceneJump` EV counts once the next frame confirms it, and is then taken whole
/// (`AimLimiter` keeps a settled exposure from following it at once where the light has not changed).
struct SubjectLevelFilter {
    /// How much of a new reading is taken each frame.
    static let smoothing = 0.08
    static let newSceneJump = 1.5

    private var level: Double?
    private var jumped = false

    /// Takes in a reading; returns the filtered level.
    mutating func update(_ reading: Double) -> Double {
        guard let previous = level else {
            level = reading
            return reading
        }
        let change = reading - previous
        let jump = abs(change) > SubjectLevelFilter.newSceneJump
        // Alone, a jump is a flip of the region: wait for the next frame to confirm it.
        let pending = jump && !jumped
        let filtered = pending ? previous : jump ? reading : previous + SubjectLevelFilter.smoothing * change
        jumped = pending
        level = filtered
        return filtered
    }

    /// Forgets the level (the scene is no longer metered as backlit).
    mutating func reset() {
        level = nil
        jumped = false
    }
}
