import CameraCore

/// A scene rendered at a resolution: radiance plus the ground truth the sensor never sees.
///
/// The image may be wider than the camera's view when the camera pans across it.
public struct SceneImage: Sendable {
    /// Linear RGB radiance in cd/m².
    public var radiance: RadianceImage
    /// Grey reflectance (0…1) of each pixel, for light the camera adds (torch, flash); 0 for
    /// light sources and sky.
    public var albedo: [Float]
    /// Distance from the camera in metres, for defocus.
    public var depth: [Float]
    /// 1 where the subject the exposure is judged on lies.
    public var subjectMask: [UInt8]
    /// 1 on the sun and other saturated light sources, including their glare.
    public var sunMask: [UInt8]

    public var width: Int { radiance.width }
    public var height: Int { radiance.height }

    /// What a painter says about one point of the scene.
    public struct Point: Sendable {
        public var radiance: SIMD3<Float>
        public var albedo: Float = 0
        public var depth: Float = 1000
        public var isSubject = false
        public var isSun = false

        public init(radiance: SIMD3<Float>, albedo: Float = 0, depth: Float = 1000, isSubject: Bool = false, isSun: Bool = false) {
            self.radiance = radiance
            self.albedo = albedo
            self.depth = depth
            self.isSubject = isSubject
            self.isSun = isSun
        }
    }

    /// Paints a `width`×`height` image by asking `painter` about the centre of each pixel, in
    /// normalised coordinates (u across, v down, both 0…1 over the image height for v and the
    /// image width for u).
    public init(width: Int, height: Int, painter: (_ u: Float, _ v: Float) -> Point) {
        radiance = RadianceImage(width: width, height: height)
        albedo = [Float](repeating: 0, count: width * height)
        depth = [Float](repeating: 0, count: width * height)
        subjectMask = [UInt8](repeating: 0, count: width * height)
        sunMask = [UInt8](repeating: 0, count: width * height)
        for y in 0..<height {
            let v = (Float(y) + 0.5) / Float(height)
            for x in 0..<width {
                let point = painter((Float(x) + 0.5) / Float(width), v)
                let i = y * width + x
                radiance[x, y] = point.radiance
                albedo[i] = point.albedo
                depth[i] = point.depth
                subjectMask[i] = point.isSubject ? 1 : 0
                sunMask[i] = point.isSun ? 1 : 0
            }
        }
    }

    /// 1 on the grey surfaces lit by `light` alone (any scale): reflecting pixels (albedo above 0,
    /// not a light source) whose radiance in `optical` — this scene as the lens images it — has the
    /// light's chromaticity within `tolerance` (a fraction, per channel). Surfaces lit by another
    /// light or a mix of lights, and their edges that defocus mixes with another light, are left out.
    public func neutralMask(under light: SIMD3<Float>, seenAs optical: RadianceImage, tolerance: Float = 0.01) -> [UInt8] {
        precondition(optical.width == width && optical.height == height, "the optical image of this scene")
        let white = light / light.sum()
        return (0..<(width * height)).map { i in
            guard albedo[i] > 0, sunMask[i] == 0 else { return 0 }
            let rgb = optical[i % width, i / width]
            let sum = rgb.sum()
            guard sum > 0 else { return 0 }
            let ratio = rgb / sum / white
            return ratio.max() - 1 <= tolerance && 1 - ratio.min() <= tolerance ? 1 : 0
        }
    }

    /// A scene with no ground truth beyond its radiance (e.g. an HDR photograph): everything is
    /// far away, nothing is marked as subject, and the sun mask marks pixels above `sunThreshold`.
    public init(radiance: RadianceImage, sunThreshold: Float) {
        self.radiance = radiance
        let count = radiance.width * radiance.height
        albedo = [Float](repeating: 0, count: count)
        depth = [Float](repeating: 1000, count: count)
        subjectMask = [UInt8](repeating: 0, count: count)
        sunMask = (0..<count).map { i in
            radiance.luminance(x: i % radiance.width, y: i / radiance.width) > sunThreshold ? 1 : 0
        }
    }
}
