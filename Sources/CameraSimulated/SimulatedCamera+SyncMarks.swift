extension SimulatedCamera {
    /// How much brighter the whole scene is on a frame carrying a sync mark: one stop, plain to
    /// see in any picture.
    public static let syncMarkGain: Float = 2

    /// Whether the frame from `start` lasting `duration` seconds of stream time holds a whole
    /// second (1 s, 2 s, …) in [start, start + duration): the frame the simulated microphone's
    /// click at that second belongs to. At 30 fps the frame starts on the second, so a recording's
    /// A/V offset is the time between the click and that frame.
    static func holdsWholeSecond(_ start: Double, duration: Double) -> Bool {
        let second = start.rounded(.up)
        return second >= 1 && second < start + duration
    }
}
