import Foundation

/// Colours, textures and light levels shared by the built-in scenes.
///
/// Radiances are in cd/m². A surface of reflectance ρ under light that makes mid-grey (ρ = 0.18)
/// `midGray` cd/m² has radiance `ρ / 0.18 × midGray`, tinted by the light's colour.
enum Palette {
    static let daylight = SIMD3<Float>(1, 1, 1)
    static let skyBlue = tint(0.72, 0.92, 1.45)
    static let warmSun = tint(1.15, 1.0, 0.78)
    static let tungsten = tint(1.35, 1.0, 0.55)
    static let sodium = tint(1.55, 1.0, 0.28)
    static let coolWhite = tint(0.95, 1.0, 1.1)

    /// A colour scaled to unit Rec. 709 luminance, so it tints without changing brightness.
    static func tint(_ r: Float, _ g: Float, _ b: Float) -> SIMD3<Float> {
        SIMD3(r, g, b) / (0.2126 * r + 0.7152 * g + 0.0722 * b)
    }

    /// The radiance of a surface of reflectance `rho` where mid-grey is `midGray` cd/m².
    static func surface(_ rho: Float, midGray: Float, light: SIMD3<Float> = daylight) -> SIMD3<Float> {
        light * (rho / 0.18 * midGray)
    }

    /// Smooth value noise in 0…1 with features about 1/`scale` apart, the same for the same
    /// arguments (scenes are deterministic).
    static func noise(_ x: Float, _ y: Float, scale: Float, seed: UInt32 = 0) -> Float {
        let fx = x * scale, fy = y * scale
        let ix = fx.rounded(.down), iy = fy.rounded(.down)
        let tx = smooth(fx - ix), ty = smooth(fy - iy)
        let (x0, y0) = (Int32(truncatingIfNeeded: Int(ix)), Int32(truncatingIfNeeded: Int(iy)))
        let a = lattice(x0, y0, seed), b = lattice(x0 &+ 1, y0, seed)
        let c = lattice(x0, y0 &+ 1, seed), d = lattice(x0 &+ 1, y0 &+ 1, seed)
        return (a + (b - a) * tx) + ((c + (d - c) * tx) - (a + (b - a) * tx)) * ty
    }

    private static func smooth(_ t: Float) -> Float { t * t * (3 - 2 * t) }

    private static func lattice(_ x: Int32, _ y: Int32, _ seed: UInt32) -> Float {
        var h = UInt32(bitPattern: x) &* 0x8DA6_B343 ^ UInt32(bitPattern: y) &* 0xD816_3841 ^ seed &* 0xCB1A_B31F
        h ^= h >> 13
        h = h &* 0x5BD1_E995
        h ^= h >> 15
        return Float(h & 0xFFFF) / 65535
    }

    /// A sky that brightens from `zenith` at the top to `horizon` cd/m² at row `horizonV`.
    static func sky(v: Float, horizonV: Float, zenith: Float, horizon: Float) -> SIMD3<Float> {
        let t = min(max(v / horizonV, 0), 1)
        return skyBlue * (zenith + (horizon - zenith) * t * t)
    }
}

/// A bright disk (the sun, a lamp) with a glare halo that falls off as (radius / distance)³.
struct LightDisk {
    let x: Float
    let y: Float
    let radius: Float
    let luminance: Float
    let halo: Float
    let color: SIMD3<Float>

    /// The disk's light at (`px`, `py`) — same units as the centre — and whether that point
    /// belongs to the source or its glare (halo brighter than `background`).
    func light(atX px: Float, y py: Float, background: Float) -> (radiance: SIMD3<Float>, isSource: Bool) {
        let distance = ((px - x) * (px - x) + (py - y) * (py - y)).squareRoot()
        if distance <= radius { return (color * luminance, true) }
        let falloff = radius / distance
        let glare = halo * falloff * falloff * falloff
        return (color * glare, glare >= background)
    }

    /// A sky point with this disk in it: the sky's radiance plus the disk's light, marked as sun
    /// where the disk or its glare dominates (see `light`).
    func seen(against sky: SIMD3<Float>, atX px: Float, y py: Float, background: Float) -> SceneImage.Point {
        let glow = light(atX: px, y: py, background: background)
        return SceneImage.Point(radiance: sky + glow.radiance, isSun: glow.isSource)
    }
}
