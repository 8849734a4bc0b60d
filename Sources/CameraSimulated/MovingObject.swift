import CameraCore

/// A ball that rolls back and forth along one row of a scene while the camera holds still, so
/// that consecutive frames differ where it was and where it is (ghosts in a merged bracket).
///
/// Its place is a pure function of time — it bounces off the image's left and right edges at a
/// steady speed — so a test can say where it is in any frame. It holds still through each frame's
/// exposure and read-out (no motion blur, no rolling-shutter skew) and is always sharp, so the
/// pixels it covers in a frame are exactly those `mask(at:imageSize:)` names. Positions are in the
/// scene's painted image, which is the camera's view in a scene that does not pan.
public struct MovingObject: Sendable, Hashable {
    /// The ball's radius as a fraction of the image height.
    public let radius: Double
    /// The row of its centre as a fraction of the image height (0 at the top).
    public let centreY: Double
    /// Where its centre is at time 0, as a fraction of the image width.
    public let startX: Double
    /// Image widths a second its centre travels (rightward first when positive).
    public let speed: Double
    /// Linear RGB radiance in cd/m², the same all over the ball.
    public let radiance: SIMD3<Float>
    /// Grey reflectance, for light the camera adds (torch, flash).
    public let albedo: Float
    /// Distance from the camera in metres (in front of whatever it covers).
    public let depth: Float

    public init(radius: Double, centreY: Double, startX: Double, speed: Double, radiance: SIMD3<Float>, albedo: Float, depth: Float) {
        precondition(radius > 0 && 2 * radius < 1, "a ball needs a radius between 0 and half the image height")
        self.radius = radius
        self.centreY = centreY
        self.startX = startX
        self.speed = speed
        self.radiance = radiance
        self.albedo = albedo
        self.depth = depth
    }

    /// The ball's centre at `time` seconds (normalised, top-left origin) in an image of `imageSize`:
    /// a triangle wave between the columns where it touches the left and right edges.
    public func centre(at time: Double, imageSize: PixelSize) -> NormalizedPoint {
        let halfWidth = halfWidth(in: imageSize)
        let span = 1 - 2 * halfWidth
        let travelled = (startX - halfWidth + speed * time).truncatingRemainder(dividingBy: 2 * span)
        let phase = travelled < 0 ? travelled + 2 * span : travelled
        return NormalizedPoint(x: halfWidth + (phase <= span ? phase : 2 * span - phase), y: centreY)
    }

    /// The ball's bounding box at `time` (normalised, top-left origin) in an image of `imageSize`.
    public func bounds(at time: Double, imageSize: PixelSize) -> NormalizedRect {
        let centre = centre(at: time, imageSize: imageSize)
        let halfWidth = halfWidth(in: imageSize)
        return NormalizedRect(x: centre.x - halfWidth, y: centre.y - radius, width: 2 * halfWidth, height: 2 * radius)
    }

    /// 1 on each pixel of an `imageSize` image whose centre the ball covers at `time`, row by row.
    public func mask(at time: Double, imageSize: PixelSize) -> [UInt8] {
        var mask = [UInt8](repeating: 0, count: imageSize.pixelCount)
        forEachPixel(at: time, imageSize: imageSize) { x, y in mask[y * imageSize.width + x] = 1 }
        return mask
    }

    /// Calls `body` with each pixel (column, row) whose centre the ball covers at `time`.
    func forEachPixel(at time: Double, imageSize: PixelSize, _ body: (Int, Int) -> Void) {
        let centre = centre(at: time, imageSize: imageSize)
        let height = Double(imageSize.height), width = Double(imageSize.width)
        let radiusPixels = radius * height
        let cells = bounds(at: time, imageSize: imageSize).pixelBounds(in: imageSize)
        // One pixel of margin: a pixel whose centre lies inside may start outside the rounded box.
        for y in max(cells.rows.lowerBound - 1, 0)..<min(cells.rows.upperBound + 1, imageSize.height) {
            for x in max(cells.columns.lowerBound - 1, 0)..<min(cells.columns.upperBound + 1, imageSize.width) {
                let dx = Double(x) + 0.5 - centre.x * width, dy = Double(y) + 0.5 - centre.y * height
                if dx * dx + dy * dy <= radiusPixels * radiusPixels { body(x, y) }
            }
        }
    }

    /// Half the ball's width as a fraction of the width of an image of `imageSize`.
    private func halfWidth(in imageSize: PixelSize) -> Double {
        radius * Double(imageSize.height) / Double(imageSize.width)
    }
}

extension SceneImage {
    /// Paints `object` where it is at `time`, over what it passes in front of: its radiance,
    /// albedo and depth, neither subject nor sun.
    mutating func place(_ object: MovingObject, at time: Double) {
        object.forEachPixel(at: time, imageSize: PixelSize(width: width, height: height)) { x, y in
            let i = y * width + x
            radiance[x, y] = object.radiance
            albedo[i] = object.albedo
            depth[i] = object.depth
            subjectMask[i] = 0
            sunMask[i] = 0
        }
    }
}
