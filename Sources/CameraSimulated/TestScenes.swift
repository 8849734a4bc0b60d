import CameraCore

/// Scenes made for testing one feature end to end. They are found by name (`named`, so
/// `--source sim:moving-subject` works) but are not among the `builtIn` scenes of the command-line
/// contract, which `scene list` shows and `ae-eval` judges by default.
extension SimulatedScene {
    /// Every test scene.
    public static let testScenes: [SimulatedScene] = [.movingSubject]

    /// `backlitPortrait` with a white ball rolling back and forth across the ground in front of
    /// the person, for bracketed HDR photos whose ghost rejection must take the ball from one
    /// frame. The subject stays the person: the AE is judged as on `backlitPortrait`, so the two
    /// scenes' results differ only by what the motion does, and the ball — under 1% of the frame,
    /// somewhere else in each frame — would make a subject no metering can hold.
    public static let movingSubject = SimulatedScene(
        name: "moving-subject",
        summary: "backlit-portrait with a white ball rolling across the ground at 1.5 frame widths a second (5% a frame at 30 fps), "
            + "bouncing off the edges: ghosts in merged brackets.",
        subjectIntent: 0,
        movingObject: movingBall,
        subjectLight: backlitSubjectLight,
        paint: paintBacklitPortrait)

    /// A white ball (reflectance 0.8, in the sun that lights the ground, about 3 EV above the ground
    /// and 5 EV above the person's shirt, under the sky) 0.12 of the image height across, rolling
    /// along the ground in front of the person.
    static let movingBall = MovingObject(radius: 0.06, centreY: 0.875, startX: 0.1, speed: 1.5,
                                         radiance: Palette.surface(0.8, midGray: 600, light: Palette.warmSun),
                                         albedo: 0.8, depth: 1.2)
}
