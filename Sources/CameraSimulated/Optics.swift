import CameraCore

/// The lens between the scene and the sensor: the camera's own light (torch, flash) on the scene,
/// defocus that grows with the distance between the focus plane and each point (in dioptres), and
/// zoom as a centred crop.
enum Optics {
    /// Blur radius in pixels per dioptre of defocus for a 1920-pixel-wide image.
    static let blurPerDioptre: Float = 4
    /// The closest focus distance in dioptres (10 cm), at lens position 0.
    static let nearestFocusDioptres: Float = 10
    /// Box-blur radii the defocus is quantised to, in pixels.
    static let blurLevels: [Int] = [0, 1, 2, 3, 5, 8, 13, 21, 34]

    /// The dioptres the lens focuses at: lens position 1 is infinity, 0 the nearest distance.
    static func focusDioptres(lensPosition: Double) -> Float {
        nearestFocusDioptres * Float(1 - lensPosition)
    }

    /// The blur radius in pixels of a point `depth` metres away, for an image `width` wide.
    static func blurRadius(depth: Float, lensPosition: Double, width: Int) -> Float {
        blurPerDioptre * Float(width) / 1920 * abs(focusDioptres(lensPosition: lensPosition) - 1 / depth)
    }

    /// The scene as the lens images it: plus the light of a source at the camera (torch, flash)
    /// that gives a white surface 1 m away `cameraLight` cd/m², added in grey as albedo ×
    /// `cameraLight` / depth² (so it falls off with the square of depth, and surfaces of albedo 0 —
    /// sky, light sources, every pixel of an HDR image — get none); blurred per pixel by its defocus.
    static func image(of scene: SceneImage, lensPosition: Double, cameraLight: Float) -> RadianceImage {
        var lit = scene.radiance
        if cameraLight > 0 {
            for i in 0..<(scene.width * scene.height) {
                let added = addedLight(cameraLight, albedo: scene.albedo[i], depth: scene.depth[i])
                for channel in 0..<3 { lit.samples[i * 3 + channel] += added }
            }
        }
        // A byte per pixel: the index of its blur level (nine of them).
        let level = scene.depth.map { depth in
            UInt8(nearestLevel(blurRadius(depth: depth, lensPosition: lensPosition, width: scene.width)))
        }
        let usedLevels = Set(level).sorted()
        guard usedLevels != [0] else { return lit }
        var result = lit
        for levelIndex in usedLevels where levelIndex != 0 {
            let blurred = boxBlur(lit, radius: blurLevels[Int(levelIndex)])
            for i in level.indices where level[i] == levelIndex {
                for channel in 0..<3 { result.samples[i * 3 + channel] = blurred.samples[i * 3 + channel] }
            }
        }
        return result
    }

    /// The radiance a source at the camera adds to a surface of `albedo` `depth` metres away: the
    /// surface 1 m away gets `cameraLight` if white.
    static func addedLight(_ cameraLight: Float, albedo: Float, depth: Float) -> Float {
        albedo * cameraLight / (depth * depth)
    }

    /// The centred `1/factor` crop of the `viewWidth`-wide window at `originX`, scaled back up to
    /// the window's size (bilinear).
    static func zoom(_ image: RadianceImage, originX: Int, viewWidth: Int, factor: Double) -> RadianceImage {
        var output = RadianceImage(width: viewWidth, height: image.height)
        for y in 0..<image.height {
            for x in 0..<viewWidth {
                let source = sourcePoint(x: x, y: y, originX: originX, viewSize: PixelSize(width: viewWidth, height: image.height), zoom: factor)
                output[x, y] = image.bilinear(x: source.x, y: source.y)
            }
        }
        return output
    }

    /// Where output pixel (`x`, `y`) of a zoomed view looks in the scene image (pixel centres at integers).
    static func sourcePoint(x: Int, y: Int, originX: Int, viewSize: PixelSize, zoom: Double) -> (x: Double, y: Double) {
        let cx = Double(viewSize.width) / 2, cy = Double(viewSize.height) / 2
        return (Double(originX) + cx + (Double(x) + 0.5 - cx) / zoom - 0.5, cy + (Double(y) + 0.5 - cy) / zoom - 0.5)
    }

    /// A ground-truth mask as the zoomed, panned view sees it (nearest neighbour).
    static func viewMask(_ mask: [UInt8], imageWidth: Int, originX: Int, viewSize: PixelSize, zoom: Double) -> [UInt8] {
        let imageHeight = mask.count / imageWidth
        var result = [UInt8](repeating: 0, count: viewSize.pixelCount)
        for y in 0..<viewSize.height {
            for x in 0..<viewSize.width {
                let source = sourcePoint(x: x, y: y, originX: originX, viewSize: viewSize, zoom: zoom)
                let sx = min(max(Int(source.x.rounded()), 0), imageWidth - 1)
                let sy = min(max(Int(source.y.rounded()), 0), imageHeight - 1)
                result[y * viewSize.width + x] = mask[sy * imageWidth + sx]
            }
        }
        return result
    }

    private static func nearestLevel(_ radius: Float) -> Int {
        var best = 0
        for (index, level) in blurLevels.enumerated() where abs(Float(level) - radius) < abs(Float(blurLevels[best]) - radius) {
            best = index
        }
        return best
    }

    /// A separable box blur of `radius` pixels (window 2r+1), edges clamped: one copy of the image,
    /// blurred along rows and then columns in place through one line of scratch.
    static func boxBlur(_ image: RadianceImage, radius: Int) -> RadianceImage {
        var output = image
        let (width, height) = (image.width, image.height)
        var line = [Float](repeating: 0, count: max(width, height))
        output.samples.withUnsafeMutableBufferPointer { samples in
            line.withUnsafeMutableBufferPointer { line in
                for row in 0..<height {
                    for channel in 0..<3 { blur(samples, from: row * width * 3 + channel, stride: 3, length: width, radius: radius, line: line) }
                }
                for column in 0..<width {
                    for channel in 0..<3 { blur(samples, from: column * 3 + channel, stride: width * 3, length: height, radius: radius, line: line) }
                }
            }
        }
        return output
    }

    /// Box-blurs in place the `length` samples `stride` apart from `start`, read first into `line`.
    private static func blur(_ samples: UnsafeMutableBufferPointer<Float>, from start: Int, stride: Int, length: Int, radius: Int,
                             line: UnsafeMutableBufferPointer<Float>) {
        for i in 0..<length { line[i] = samples[start + i * stride] }
        func value(_ i: Int) -> Double { Double(line[min(max(i, 0), length - 1)]) }
        let window = Double(2 * radius + 1)
        // Double: a running sum that passes the sun must not leave error in the shadows.
        var sum = 0.0
        for i in -radius...radius { sum += value(i) }
        for i in 0..<length {
            samples[start + i * stride] = Float(sum / window)
            sum += value(i + radius + 1) - value(i - radius)
        }
    }
}
