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
        let radii = blurRadii(scene.depth, lensPosition: lensPosition, width: scene.width)
        guard let largest = radii.max(), largest > 0 else { return lit }
        return defocused(lit, radii: radii, largest: Int(largest))
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

    /// Each pixel's box-blur radius: its defocus quantised to the nearest of `blurLevels` (the
    /// smaller on a tie).
    static func blurRadii(_ depth: [Float], lensPosition: Double, width: Int) -> [UInt8] {
        let midpoints = zip(blurLevels, blurLevels.dropFirst()).map { Float($0 + $1) / 2 }
        return depth.map { depth in
            let radius = blurRadius(depth: depth, lensPosition: lensPosition, width: width)
            var index = 0
            while index < midpoints.count && radius > midpoints[index] { index += 1 }
            return UInt8(truncatingIfNeeded: blurLevels[index])
        }
    }

    /// `image` with each pixel the mean of the (2r + 1)² box around it, r = `radii[pixel]` (0: the
    /// pixel as it is), edges clamped: the separable box blur of that radius, read from a summed-area
    /// table of each channel, so that a lens hunting for focus costs the same whatever radii its
    /// defocus takes. The table is of the image padded by `largest` (the largest radius) with its
    /// edge pixels, in doubles: a box's sum is then within about 10⁻¹⁶ of the whole image's, far
    /// under the sensor's noise in the shadows beside the sun.
    static func defocused(_ image: RadianceImage, radii: [UInt8], largest: Int) -> RadianceImage {
        var output = image
        let (width, height) = (image.width, image.height)
        let tableWidth = width + 2 * largest + 1, tableHeight = height + 2 * largest + 1
        var table = [Double](repeating: 0, count: tableWidth * tableHeight)
        table.withUnsafeMutableBufferPointer { table in
            image.samples.withUnsafeBufferPointer { samples in
                output.samples.withUnsafeMutableBufferPointer { output in
                    for channel in 0..<3 {
                        // table[(v + 1)·tableWidth + u + 1]: the sum over padded rows ≤ v and columns ≤ u.
                        for v in 0..<(tableHeight - 1) {
                            let row = min(max(v - largest, 0), height - 1) * width
                            let above = v * tableWidth + 1, line = above + tableWidth
                            var sum = 0.0
                            for u in 0..<(tableWidth - 1) {
                                sum += Double(samples[(row + min(max(u - largest, 0), width - 1)) * 3 + channel])
                                table[line + u] = table[above + u] + sum
                            }
                        }
                        for y in 0..<height {
                            for x in 0..<width {
                                let radius = Int(radii[y * width + x])
                                guard radius > 0 else { continue }
                                // The box's padded rows y + largest ± radius, columns x + largest ± radius.
                                let top = (y + largest - radius) * tableWidth + x + largest - radius
                                let bottom = top + (2 * radius + 1) * tableWidth, side = 2 * radius + 1
                                let sum = table[bottom + side] - table[top + side] - table[bottom] + table[top]
                                output[(y * width + x) * 3 + channel] = Float(sum / Double(side * side))
                            }
                        }
                    }
                }
            }
        }
        return output
    }
}
