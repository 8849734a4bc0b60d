import CameraCore
import Foundation

/// Scenes made from HDR photographs: a flat image used as it is, or an equirectangular (2:1)
/// panorama seen through a pinhole camera pointing at `yaw`/`pitch` with a horizontal field of
/// view `fov` (all in degrees).
extension SimulatedScene {
    /// Where the virtual camera looks inside a panorama.
    public struct ViewDirection: Sendable, Hashable {
        /// Degrees to the right of the panorama's centre column (−180…180).
        public var yaw: Double
        /// Degrees above the horizon (−90…90).
        public var pitch: Double
        /// Horizontal field of view in degrees (1…170).
        public var fov: Double
        /// Degrees the camera turns to the right from `yaw`, at `panRate` from `panStart` seconds
        /// (0: it holds still).
        public var pan: Double

        /// A pan's speed in degrees a second: a slow, steady turn by hand.
        public static let panRate = 10.0
        /// When a pan starts, in seconds: the exposure has settled by then.
        public static let panStart = 1.0

        public init(yaw: Double = 0, pitch: Double = 0, fov: Double = 70, pan: Double = 0) {
            self.yaw = yaw
            self.pitch = pitch
            self.fov = fov
            self.pan = pan
        }

        /// The `sim:hdr=` options (`,yaw=90,fov=90`) that differ from the default view: two views
        /// of one panorama get different scene names.
        public var options: String {
            let standard = ViewDirection()
            return [("yaw", yaw, standard.yaw), ("pitch", pitch, standard.pitch), ("fov", fov, standard.fov), ("pan", pan, standard.pan)]
                .filter { $0.1 != $0.2 }
                .map { ",\($0.0)=\(String(format: "%g", $0.1))" }
                .joined()
        }
    }

    /// Pixels this many times brighter than the image's median luminance count as the sun or
    /// another saturating source in the ground-truth mask.
    static let hdrSunRatio: Float = 1000

    /// The luminance an HDR image's median is scaled to by default, in cd/m²: HDR files carry
    /// relative values, and a daylight-like level keeps the sensor out of high-gain noise.
    public static let hdrMedianLuminance: Float = 1000

    /// The median luminances (cd/m²) an HDR image may be given: a moonlit street to snow in sun.
    public static let hdrMedianRange: ClosedRange<Double> = 0.01...100_000

    /// A scene from an HDR image, scaled so its median luminance is `medianLuminance` cd/m² (a
    /// dusk view is dim, so the intent drawn from the scene's luminance works on it). Images
    /// with a 2:1 aspect ratio are treated as equirectangular panoramas and projected through
    /// `view` (panning when `view.pan` is set); others are scaled to the camera's view as they are.
    /// `subject` marks the subject in the view (normalised, top-left origin) for closed-loop
    /// evaluation, with its intent in EV; along a pan it is the rectangle's rows, all the way round.
    ///
    /// `source` is consumed and scaled in place: a decoded HDR image can be gigabytes, and the
    /// scene keeps the only copy.
    public static func hdrImage(_ source: consuming RadianceImage, named name: String, view: ViewDirection = ViewDirection(),
                                subject: NormalizedRect? = nil, intent: Double = 0,
                                medianLuminance: Float = hdrMedianLuminance) -> SimulatedScene {
        hdrScene(scaled(consume source, toMedian: medianLuminance), named: name, view: view, subject: subject, intent: intent,
                 medianLuminance: medianLuminance)
    }

    /// A scene from an HDR image given as Radiance RGBE words (`width × height`, top row first:
    /// red in bits 0…7, green 8…15, blue 16…23, exponent E in 24…31, each channel mantissa ×
    /// 2^(E − 136)), as `hdrImage(_:named:…)` makes one from floats. The words are kept as they
    /// are, 4 bytes a pixel, and scaled as they are read: an environment map at the decoder's
    /// 100 Mpixel limit takes 400 MB instead of 1.2 GB.
    public static func hdrImage(packed pixels: consuming [UInt32], width: Int, height: Int, named name: String,
                                view: ViewDirection = ViewDirection(), subject: NormalizedRect? = nil, intent: Double = 0,
                                medianLuminance: Float = hdrMedianLuminance) -> SimulatedScene {
        var image = PackedRadianceImage(width: width, height: height, pixels: pixels)
        image.scale = medianLuminance / Self.medianLuminance(image)
        return hdrScene(image, named: name, view: view, subject: subject, intent: intent, medianLuminance: medianLuminance)
    }

    private static func hdrScene(_ image: some RadianceSampling, named name: String, view: ViewDirection, subject: NormalizedRect?,
                                 intent: Double, medianLuminance: Float) -> SimulatedScene {
        let isPanorama = image.width == image.height * 2
        let pans = isPanorama && view.pan > 0
        let summary = isPanorama
            ? "HDR panorama \(name) (\(image.width)x\(image.height)) seen at yaw \(view.yaw)°, pitch \(view.pitch)°, fov \(view.fov)°"
                + (pans ? ", turning \(view.pan)° right at \(ViewDirection.panRate)°/s after \(ViewDirection.panStart) s." : ".")
            : "HDR image \(name) (\(image.width)x\(image.height))."
        let pan = pans ? Pan(imageWidthFactor: 1 + view.pan / view.fov, startTime: ViewDirection.panStart,
                             speed: ViewDirection.panRate / view.pan) : nil
        let level = medianLuminance == hdrMedianLuminance ? "" : ",median=\(String(format: "%g", medianLuminance))"
        return SimulatedScene(name: "hdr:\(name)\(isPanorama ? view.options : "")\(level)", summary: summary, subjectIntent: intent,
                              pan: pan) { size in
            let radiance = pans ? projectPan(image, view: view, size: size)
                : isPanorama ? project(image, view: view, size: size) : resample(image, to: size)
            var scene = SceneImage(radiance: radiance, sunThreshold: medianLuminance * hdrSunRatio)
            if let subject {
                let bounds = subject.pixelBounds(in: size)
                for y in bounds.rows { for x in pans ? 0..<size.width : bounds.columns { scene.subjectMask[y * size.width + x] = 1 } }
            }
            return scene
        }
    }

    /// The perspective view of an equirectangular panorama (bilinear, wrapping in longitude).
    static func project(_ panorama: some RadianceSampling, view: ViewDirection, size: PixelSize) -> RadianceImage {
        let focal = Double(size.width) / 2 / tan(view.fov * .pi / 360)
        return sample(panorama, pitch: view.pitch, focal: focal, size: size) { x in
            (Double(x) + 0.5 - Double(size.width) / 2, view.yaw)
        }
    }

    /// The strip a pan sweeps, `size` wide (the view's width × (1 + pan ÷ fov)): each column is
    /// the middle column of the view turned to its angle, so a window sliding along the strip is
    /// the view turning (with the horizontal scale of the view's middle throughout).
    static func projectPan(_ panorama: some RadianceSampling, view: ViewDirection, size: PixelSize) -> RadianceImage {
        let sweep = view.fov + view.pan
        let viewWidth = Double(size.width) * view.fov / sweep
        let focal = viewWidth / 2 / tan(view.fov * .pi / 360)
        return sample(panorama, pitch: view.pitch, focal: focal, size: size) { x in
            (0, view.yaw - view.fov / 2 + (Double(x) + 0.5) / Double(size.width) * sweep)
        }
    }

    /// Samples `panorama` along camera rays: for pixel column x, `column(x)` gives the ray's
    /// horizontal offset on the image plane at `focal` and the camera's yaw in degrees.
    private static func sample(_ panorama: some RadianceSampling, pitch: Double, focal: Double, size: PixelSize,
                               column: (Int) -> (cx: Double, yaw: Double)) -> RadianceImage {
        var output = RadianceImage(width: size.width, height: size.height)
        let pitch = pitch * .pi / 180
        for x in 0..<size.width {
            let (cx, yawDegrees) = column(x)
            let yaw = yawDegrees * .pi / 180
            for y in 0..<size.height {
                // Camera ray: x right, y up, z forward; then pitch about x, yaw about y.
                let cy = Double(size.height) / 2 - (Double(y) + 0.5)
                let (ry, rz) = (cy * cos(pitch) + focal * sin(pitch), -cy * sin(pitch) + focal * cos(pitch))
                let (rx, rz2) = (cx * cos(yaw) + rz * sin(yaw), -cx * sin(yaw) + rz * cos(yaw))
                let longitude = atan2(rx, rz2)
                let latitude = atan2(ry, (rx * rx + rz2 * rz2).squareRoot())
                let u = (longitude / (2 * .pi) + 0.5) * Double(panorama.width) - 0.5
                let v = (0.5 - latitude / .pi) * Double(panorama.height) - 0.5
                output[x, y] = panorama.bilinear(x: u, y: v, wrapsHorizontally: true)
            }
        }
        return output
    }

    /// A flat image scaled to `size` (bilinear).
    static func resample(_ image: some RadianceSampling, to size: PixelSize) -> RadianceImage {
        var output = RadianceImage(width: size.width, height: size.height)
        let sx = Double(image.width) / Double(size.width), sy = Double(image.height) / Double(size.height)
        for y in 0..<size.height {
            for x in 0..<size.width {
                output[x, y] = image.bilinear(x: (Double(x) + 0.5) * sx - 0.5, y: (Double(y) + 0.5) * sy - 0.5, wrapsHorizontally: false)
            }
        }
        return output
    }

    /// `image` scaled so its median luminance is `median` cd/m², in place.
    static func scaled(_ image: consuming RadianceImage, toMedian median: Float = hdrMedianLuminance) -> RadianceImage {
        image.scale(by: median / medianLuminance(image))
        return image
    }

    private static func medianLuminance(_ image: some RadianceSampling) -> Float {
        let step = max(1, image.width * image.height / 4096)
        let values = stride(from: 0, to: image.width * image.height, by: step)
            .map { image.luminance(x: $0 % image.width, y: $0 / image.width) }
        return max(quantile(values, 0.5) ?? 0, 1e-6)
    }
}
