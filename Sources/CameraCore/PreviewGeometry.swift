/// Converts between points in a preview view and normalised device points, so a tap on the preview
/// can set the focus or exposure point of interest, and a point the camera reports (a face, the
/// metered spot) can be drawn over the preview (AVCaptureVideoPreviewLayer's point conversions).
///
/// The sensor image is displayed in three steps, each undone in reverse by `devicePoint`:
///
///     device point ──rotation──▶ rotated image ──mirror──▶ displayed image ──gravity──▶ view point
///     (unrotated sensor, 0…1)     (clockwise)    (flip x)    (0…1)        (displayedRect)   (points)
///
/// View points are in points with the origin at the view's top-left and y growing downwards.
public struct PreviewGeometry: Sendable, Hashable {
    /// A position in the view, in points from its top-left corner.
    public struct ViewPoint: Sendable, Hashable {
        public var x: Double
        public var y: Double

        public init(x: Double, y: Double) {
            self.x = x
            self.y = y
        }
    }

    /// A rectangle in the view, in points from its top-left corner.
    public struct ViewRect: Sendable, Hashable {
        public var x: Double
        public var y: Double
        public var width: Double
        public var height: Double

        public init(x: Double, y: Double, width: Double, height: Double) {
            self.x = x
            self.y = y
            self.width = width
            self.height = height
        }

        /// True when `point` lies in the rectangle, edges included.
        public func contains(_ point: ViewPoint) -> Bool {
            point.x >= x && point.x <= x + width && point.y >= y && point.y <= y + height
        }
    }

    /// The view sizes accepted, in points: a view under one point wide or tall is a layout error.
    public static let viewSizeRange: ClosedRange<Double> = 1...1_000_000

    /// The sensor image size, before rotation.
    public let imageSize: PixelSize
    /// The view's size in points.
    public let viewWidth: Double
    public let viewHeight: Double
    public let gravity: VideoGravity
    /// The clockwise rotation applied to the sensor image before display.
    public let rotation: Rotation
    /// Whether the rotated image is flipped horizontally, as a front camera's preview is.
    public let mirrored: Bool
    /// Where the whole displayed image lies in the view: inside it with bars around for `fit`,
    /// overflowing it for `fill`, the view itself for `stretch`.
    public let displayedRect: ViewRect

    /// The geometry of an `imageSize` sensor image shown in a `viewWidth`×`viewHeight` view.
    ///
    /// Throws when a view dimension is outside `viewSizeRange` or an image dimension is outside
    /// 1…16384 pixels (the sizes a `PixelBuffer` can have), naming the value.
    public init(
        imageSize: PixelSize, viewWidth: Double, viewHeight: Double, gravity: VideoGravity,
        rotation: Rotation = .degrees0, mirrored: Bool = false
    ) throws(ValueOutOfRangeError) {
        let pixelRange: ClosedRange<Double> = 1...16384
        _ = try ValueOutOfRangeError.check(Double(imageSize.width), in: pixelRange, setting: "preview image width", unit: "pixels")
        _ = try ValueOutOfRangeError.check(Double(imageSize.height), in: pixelRange, setting: "preview image height", unit: "pixels")
        self.viewWidth = try ValueOutOfRangeError.check(viewWidth, in: Self.viewSizeRange, setting: "preview view width", unit: "points")
        self.viewHeight = try ValueOutOfRangeError.check(viewHeight, in: Self.viewSizeRange, setting: "preview view height", unit: "points")
        self.imageSize = imageSize
        self.gravity = gravity
        self.rotation = rotation
        self.mirrored = mirrored
        displayedRect = Self.displayedRect(of: rotation.apply(to: imageSize), inWidth: viewWidth, height: viewHeight, gravity: gravity)
    }

    /// The device point shown at `viewPoint`, or nil when the view shows no image there: outside
    /// the view, or in the letterbox bars of `fit`.
    public func devicePoint(fromViewPoint viewPoint: ViewPoint) -> NormalizedPoint? {
        let view = ViewRect(x: 0, y: 0, width: viewWidth, height: viewHeight)
        guard view.contains(viewPoint), displayedRect.contains(viewPoint) else { return nil }
        let displayedX = (viewPoint.x - displayedRect.x) / displayedRect.width
        let displayedY = (viewPoint.y - displayedRect.y) / displayedRect.height
        let rotated = NormalizedPoint(x: mirrored ? 1 - displayedX : displayedX, y: displayedY)
        // Clamped so that rounding at the image's edges never reports a point just outside it.
        return rotation.inverse.apply(to: rotated).clamped
    }

    /// Where `devicePoint` is shown in the view. For `fill`, points of the cropped-off part of the
    /// image land outside the view; points outside 0…1 land beyond the image's edges.
    public func viewPoint(fromDevicePoint devicePoint: NormalizedPoint) -> ViewPoint {
        let rotated = rotation.apply(to: devicePoint)
        let displayedX = mirrored ? 1 - rotated.x : rotated.x
        return ViewPoint(x: displayedRect.x + displayedX * displayedRect.width,
                         y: displayedRect.y + rotated.y * displayedRect.height)
    }

    /// The rectangle a `size` image (already rotated) occupies in a `width`×`height` view.
    private static func displayedRect(of size: PixelSize, inWidth width: Double, height: Double,
                                      gravity: VideoGravity) -> ViewRect {
        let imageWidth = Double(size.width), imageHeight = Double(size.height)
        // The image is relatively wider than the view when imageWidth / imageHeight > width / height.
        let imageIsWider = imageWidth * height > imageHeight * width
        let matchesViewWidth: Bool
        switch gravity {
        case .stretch: return ViewRect(x: 0, y: 0, width: width, height: height)
        case .fit: matchesViewWidth = imageIsWider
        case .fill: matchesViewWidth = !imageIsWider
        }
        // The matched dimension is set exactly, so that its edges coincide with the view's.
        if matchesViewWidth {
            let scaledHeight = width * imageHeight / imageWidth
            return ViewRect(x: 0, y: (height - scaledHeight) / 2, width: width, height: scaledHeight)
        } else {
            let scaledWidth = height * imageWidth / imageHeight
            return ViewRect(x: (width - scaledWidth) / 2, y: 0, width: scaledWidth, height: height)
        }
    }
}
