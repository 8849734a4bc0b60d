import CameraCore

/// A scene the simulated camera can look at: how to paint it, how its light changes over time,
/// whether the camera moves, and the exposure its subject should get.
public struct SimulatedScene: Sendable {
    /// Short identifier, e.g. "backlit-portrait".
    public let name: String
    /// One sentence on what the scene is and what it tests.
    public let summary: String
    /// The exposure the subject should get, in EV relative to mid-grey (0 for an ordinary subject,
    /// about +1.7 for snow, below 0 for a night scene that should stay dark).
    public let subjectIntent: Double
    public let illumination: Illumination
    /// How the camera pans across the painted image, if it does.
    public let pan: Pan?
    /// What moves across the painted image, if anything does.
    public let movingObject: MovingObject?
    /// The colour of the light on the subject (its main light where several reach it), relative
    /// to the daylight the scene is painted under: the light auto white balance should make
    /// neutral, and the one the ground truth's `neutralMask` finds grey surfaces under.
    public let subjectLight: SIMD3<Float>
    private let paint: @Sendable (PixelSize) -> SceneImage

    public init(name: String, summary: String, subjectIntent: Double, illumination: Illumination = .constant,
                pan: Pan? = nil, movingObject: MovingObject? = nil, subjectLight: SIMD3<Float> = SIMD3(1, 1, 1),
                paint: @escaping @Sendable (PixelSize) -> SceneImage) {
        self.name = name
        self.summary = summary
        self.subjectIntent = subjectIntent
        self.illumination = illumination
        self.pan = pan
        self.movingObject = movingObject
        self.subjectLight = subjectLight
        self.paint = paint
    }

    /// The scene painted for a camera view of `viewSize` (wider than the view when it pans).
    public func render(viewSize: PixelSize) -> SceneImage {
        let image = paint(pan.map { PixelSize(width: Int((Double(viewSize.width) * $0.imageWidthFactor).rounded()), height: viewSize.height) } ?? viewSize)
        precondition(image.height == viewSize.height, "scene \(name) painted \(image.height) rows for a \(viewSize) view")
        return image
    }

    /// The scene painted for a camera view of `viewSize` with its moving object, if any, where it
    /// is at `time` seconds: the radiance and ground truth of that instant.
    public func render(viewSize: PixelSize, at time: Double) -> SceneImage {
        objectPlaced(in: render(viewSize: viewSize), at: time)
    }

    /// `image`, this scene's painting, with its moving object placed where it is at `time`.
    func objectPlaced(in image: SceneImage, at time: Double) -> SceneImage {
        guard let movingObject else { return image }
        var placed = image
        placed.place(movingObject, at: time)
        return placed
    }

    /// The first column of the view at `time` seconds in an image `imageWidth` wide.
    public func viewOrigin(at time: Double, imageWidth: Int, viewWidth: Int) -> Int {
        guard let pan else { return 0 }
        return Int((Double(imageWidth - viewWidth) * pan.fraction(at: time)).rounded())
    }

    /// The scene with its view held where it stands at `time`: one view of a panning scene, to
    /// measure it at length (itself when it does not pan).
    public func heldStill(at time: Double) -> SimulatedScene {
        SimulatedScene(name: name, summary: summary, subjectIntent: subjectIntent, illumination: illumination,
                       pan: pan?.held(at: time), movingObject: movingObject, subjectLight: subjectLight, paint: paint)
    }

    /// A horizontal pan across an image `imageWidthFactor` times as wide as the view.
    public struct Pan: Sendable, Hashable {
        public let imageWidthFactor: Double
        public let startTime: Double
        /// Fraction of the full travel per second; 0 for a view held still.
        public let speed: Double
        /// Fraction of the travel already made at `startTime`.
        public let startFraction: Double

        public init(imageWidthFactor: Double, startTime: Double, speed: Double, startFraction: Double = 0) {
            precondition(imageWidthFactor >= 1, "a pan needs an image at least as wide as the view")
            self.imageWidthFactor = imageWidthFactor
            self.startTime = startTime
            self.speed = speed
            self.startFraction = startFraction
        }

        /// How far along its travel the view is at `time`: 0 at its start, 1 at its end.
        func fraction(at time: Double) -> Double {
            min(max(startFraction + max(time - startTime, 0) * speed, 0), 1)
        }

        /// This pan stopped where it is at `time`.
        func held(at time: Double) -> Pan {
            Pan(imageWidthFactor: imageWidthFactor, startTime: 0, speed: 0, startFraction: fraction(at: time))
        }
    }
}
