/// An image of linear RGB radiance read a pixel at a time: what luminance and bilinear sampling
/// need, whether its pixels are floats (`RadianceImage`) or packed words (the simulator's HDR scenes).
public protocol RadianceSampling: Sendable {
    var width: Int { get }
    var height: Int { get }
    /// The RGB radiance at pixel (`x`, `y`).
    subscript(x: Int, y: Int) -> SIMD3<Float> { get }
}

extension RadianceSampling {
    /// Rec. 709 luminance of pixel (`x`, `y`).
    @inlinable
    public func luminance(x: Int, y: Int) -> Float {
        let rgb = self[x, y]
        return 0.2126 * rgb.x + 0.7152 * rgb.y + 0.0722 * rgb.z
    }

    /// The bilinear interpolation at pixel coordinates (`x`, `y`) (pixel centres at integers).
    /// Rows clamp at the edges; columns clamp too, or wrap for a 360° panorama.
    @inlinable
    public func bilinear(x: Double, y: Double, wrapsHorizontally: Bool = false) -> SIMD3<Float> {
        let x0 = Int(x.rounded(.down)), y0 = Int(y.rounded(.down))
        let fx = Float(x - Double(x0)), fy = Float(y - Double(y0))
        let (width, height) = (width, height)
        func column(_ x: Int) -> Int {
            wrapsHorizontally ? ((x % width) + width) % width : min(max(x, 0), width - 1)
        }
        func row(_ y: Int) -> Int { min(max(y, 0), height - 1) }
        let top = self[column(x0), row(y0)] * (1 - fx) + self[column(x0 + 1), row(y0)] * fx
        let bottom = self[column(x0), row(y0 + 1)] * (1 - fx) + self[column(x0 + 1), row(y0 + 1)] * fx
        return top * (1 - fy) + bottom * fy
    }
}
