/// Hands the exposure from one subject meter to the other without a jump. `SunAwareExposure`
/// meters a backlit scene's subject (`BacklitSubject`) and any other scene's centre-weighted
/// median, and as the camera turns the backlit flag comes and goes: on a frame whose light has not
/// changed the two meters can read stops apart, and on the HDRI pans the picture jumped 1.6–3.4 EV
/// from one frame to the next. So in a settled scene whose own level holds steady, a switch of
/// meter moves the subject level toward the new meter's reading `SubjectLevelFilter.switchStep` EV
/// a frame. New light (the frame's level moving with the reading at the switch, or by more than
/// `SubjectLevelFilter.newSceneJump` during the hand-over) or a scene not yet settled takes the
/// new reading whole.
struct MeterHandOver {
    /// The subject level given out last frame (log2 of the metered value over the exposure).
    private var level: Double?
    /// Whether last frame's reading came from the backlit subject's meter.
    private var backlit = false
    /// The frame's own level on the last frame (log2 of its lower-quartile pixel over the exposure).
    private var frameLevel: Double?
    private var handingOver = false

    /// Takes in this frame's subject `reading`, which meter made it, the frame's own level, and
    /// whether the exposure has settled; returns the subject level to expose for.
    mutating func update(_ reading: Double, backlit: Bool, frame: Double, settled: Bool) -> Double {
        defer {
            self.backlit = backlit
            frameLevel = frame
        }
        guard let previous = level, let lastFrame = frameLevel, settled else {
            handingOver = false
            level = reading
            return reading
        }
        let change = reading - previous
        let frameChange = abs(frame - lastFrame)
        if backlit != self.backlit {
            handingOver = frameChange < abs(change) / 2
        } else if frameChange > SubjectLevelFilter.newSceneJump {
            handingOver = false
        }
        let step = SubjectLevelFilter.switchStep
        handingOver = handingOver && abs(change) > step
        let next = handingOver ? previous + min(max(change, -step), step) : reading
        level = next
        return next
    }
}
