/// A backlit subject's scene-referred level (log2 of its metered value over the exposure that made
/// the frame), filtered over frames: whether `BacklitSubject`'s region takes in a block at the edge
/// of its tolerance depends on noise, and the exposure loop must not follow those flips. A jump of
/// more than `newSceneJump` EV is a new scene when the next frame confirms it, and is then taken whole.
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
        let jump = abs(reading - previous) > SubjectLevelFilter.newSceneJump
        // Alone, a jump is a flip of the region: wait for the next frame to confirm it.
        let filtered = jump ? (jumped ? reading : previous) : previous + SubjectLevelFilter.smoothing * (reading - previous)
        jumped = jump && !jumped
        level = filtered
        return filtered
    }

    /// Forgets the level (the scene is no longer metered as backlit).
    mutating func reset() {
        level = nil
        jumped = false
    }
}
