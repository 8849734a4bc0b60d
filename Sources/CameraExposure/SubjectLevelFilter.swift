/// A backlit subject's scene-referred level (log2 of its metered value over the exposure that made
/// the frame), filtered over frames: whether `BacklitSubject`'s region takes in a block at the edge
/// of its tolerance depends on noise, and the exposure loop must not follow those flips. A jump of
/// more than `newSceneJump` EV counts once the next frame confirms it. New light moves the frame's
/// own level with the subject's, and is taken whole; a subject that jumped within a steady frame is
/// the region moving to another part of the view (a pan brings a darker or brighter one in), and the
/// level follows it `switchStep` EV a frame, so the picture does not jump.
struct SubjectLevelFilter {
    /// How much of a new reading is taken each frame.
    static let smoothing = 0.08
    static let newSceneJump = 1.5
    /// EV a frame by which the level follows a subject that moved within a steady frame.
    static let switchStep = 0.25

    private var level: Double?
    /// The frame's own level (log2 of its lower-quartile pixel over the exposure) when `level` was
    /// last taken in.
    private var frameLevel: Double?
    private var jumped = false
    private var switching = false

    /// Takes in a reading and the frame's level; returns the filtered level.
    mutating func update(_ reading: Double, frame: Double) -> Double {
        guard let previous = level, let steadyFrame = frameLevel else {
            level = reading
            frameLevel = frame
            return reading
        }
        let change = reading - previous
        let step = min(max(change, -SubjectLevelFilter.switchStep), SubjectLevelFilter.switchStep)
        let jump = abs(change) > SubjectLevelFilter.newSceneJump
        // Alone, a jump is a flip of the region: wait for the next frame to confirm it.
        let pending = jump && !jumped && !switching
        var filtered = previous + SubjectLevelFilter.smoothing * change
        if switching {
            filtered = previous + step
            switching = abs(change) > SubjectLevelFilter.switchStep
        } else if pending {
            filtered = previous
        } else if jump {
            switching = abs(frame - steadyFrame) < abs(change) / 2
            filtered = switching ? previous + step : reading
        }
        jumped = pending
        if !pending { frameLevel = frame }
        level = filtered
        return filtered
    }

    /// Forgets the level (the scene is no longer metered as backlit).
    mutating func reset() {
        level = nil
        frameLevel = nil
        jumped = false
        switching = false
    }
}
