/// Tells when the camera has come to rest on a view other than the one the exposure loop's memory
/// was formed in. The loop holds some decisions against flicker between two answers (whether the
/// scene is backlit, how far its highlights stand above the subject); in the view they were formed
/// in that is what keeps it still, but carried along a pan they decide the next view by the last
/// one. Decided afresh at once, they would be re-learnt every second of a pan, with a stop's dip
/// each time the budget looks for the highlights; so they are decided afresh once the camera rests.
struct ViewChange {
    /// The view at the last rest: the one the memory was formed in.
    private var anchor: SceneSignature?
    /// The view `framesSinceReference` frames ago, to tell whether the camera has held still since.
    private var reference: SceneSignature?
    /// The view on the frame before a judgement: how far one frame moves from the next is the
    /// noise every distance of that judgement carries.
    private var previous: SceneSignature?
    private var framesSinceReference = 0

    /// Frames over which the view must hold still for the camera to be at rest: a second at 30 fps.
    static let restFrames = 30
    /// How far (`SceneSignature.distance`, EV) beyond the noise a view may move in `restFrames`
    /// frames at rest: a second apart, a view still moved at most 0.062 on the built-in scenes and
    /// the 52 HDRI views from 160×90 to 640×360 (a night street at high gain 0.2–0.4, all of it
    /// noise); none of the eight HDRI pans at 10°/s decided anything afresh while it turned.
    static let restTolerance = 0.1
    /// How far (`SceneSignature.distance`, EV) beyond the noise a view at rest must be from the last
    /// one to be another view: four times the most a view still moved in a second (0.062).
    static let newViewDistance = 0.25

    /// Takes in this frame's view (read only on the two frames of each judgement); true when the
    /// camera has come to rest on another view than at its last rest. Whether it rests is judged
    /// every `restFrames` frames, on the view's change since the last judgement less the change
    /// from the frame before, which is noise; the view at rest becomes the one to compare the next
    /// rest with.
    mutating func update(_ frameView: @autoclosure () -> SceneSignature) -> Bool {
        guard let reference else {
            self.reference = frameView()
            return false
        }
        framesSinceReference += 1
        if framesSinceReference == ViewChange.restFrames - 1 { previous = frameView() }
        guard framesSinceReference == ViewChange.restFrames else { return false }
        let view = frameView()
        self.reference = view
        framesSinceReference = 0
        let noise = previous.flatMap { view.distance(to: $0) } ?? 0
        guard let moved = view.distance(to: reference), moved <= ViewChange.restTolerance + noise else { return false }
        defer { anchor = view }
        guard let anchor else { return false }
        // Views with no cell measured in both are far apart.
        return view.distance(to: anchor).map { $0 > ViewChange.newViewDistance + noise } ?? true
    }
}
