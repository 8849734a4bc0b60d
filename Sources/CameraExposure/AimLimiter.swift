/// Keeps a settled exposure from jumping where the light has not changed. What the sun-aware loop
/// aims at can move by stops from one frame to the next while the scene stands still: the backlit
/// flag comes or goes and another meter takes over, the backlit subject's region moves to another
/// part of the view, or keeping the highlights comes to cost the subject more or less than 1 EV. On
/// the HDRI pans the picture jumped 1.6–3.4 EV in one frame. So in a settled scene whose own level
/// holds steady the aim moves at most `step` EV a frame; new light (the frame's level moving with
/// the aim) or a scene not yet settled is followed at once.
struct AimLimiter {
    /// EV a frame by which a settled aim may move: 1 EV in four frames.
    static let step = 0.25

    /// The exposure aimed at last frame (log2, scene-referred: independent of the exposure that
    /// made the frame).
    private var aim: Double?
    /// The frame's own level on the last frame (log2 of its lower-quartile pixel over the exposure).
    private var frameLevel: Double?

    /// The exposure to aim at (log2) when the loop wants `wanted` on a frame of level `frame`.
    mutating func limit(_ wanted: Double, frame: Double, settled: Bool) -> Double {
        defer { frameLevel = frame }
        guard let last = aim, let lastFrame = frameLevel, settled, abs(frame - lastFrame) < abs(wanted - last) / 2 else {
            aim = wanted
            return wanted
        }
        let next = last + min(max(wanted - last, -AimLimiter.step), AimLimiter.step)
        aim = next
        return next
    }
}
