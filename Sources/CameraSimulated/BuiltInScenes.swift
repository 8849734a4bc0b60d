import CameraCore
import Foundation

/// The scenes that ship with CameraSun: each one a situation where auto-exposure is known to fail
/// or a control that exposes the sensor model.
extension SimulatedScene {
    /// Every built-in scene, in the order `camerasun scene list` shows them.
    public static let builtIn: [SimulatedScene] = [
        .grayCard, .backlitPortrait, .snowSun, .windowInterior, .nightStreet, .stepChange, .flickerOffice, .panIntoSun,
    ]

    /// The built-in or test scene called `name`, or nil.
    public static func named(_ name: String) -> SimulatedScene? {
        (builtIn + testScenes).first { $0.name == name }
    }

    public static let grayCard = SimulatedScene(
        name: "gray-card",
        summary: "An 18% grey card before a textured grey wall in even light: the reference for metering and linearity.",
        subjectIntent: 0, paint: { paintGrayCard($0, midGray: 1000) })

    public static let backlitPortrait = SimulatedScene(
        name: "backlit-portrait",
        summary: "A person about 6 EV below a bright sky, with the sun beside the head at ~18 EV above the subject.",
        subjectIntent: 0, subjectLight: backlitSubjectLight, paint: paintBacklitPortrait)

    /// The light on the person in `backlitPortrait`: the sky from above and the sun off the ground.
    static let backlitSubjectLight = Palette.skyBlue * 0.3 + Palette.warmSun * 0.7

    /// A person in shade before a bright sky, the sun beside the head, on sunlit ground.
    static func paintBacklitPortrait(_ size: PixelSize) -> SceneImage {
        let aspect = Float(size.width) / Float(size.height)
        let headX = 0.42 * aspect
        let sun = LightDisk(x: headX + 0.24, y: 0.2, radius: 0.025, luminance: 2e7, halo: 3e5, color: Palette.warmSun)
        let subjectGray: Float = 94
        return SceneImage(width: size.width, height: size.height) { u, v in
            let x = u * aspect
            let dx = (x - headX) / 0.085, dy = (v - 0.36) / 0.11
            let inHead = dx * dx + dy * dy <= 1
            let torsoHalfWidth = 0.12 + (v - 0.52) * 0.5
            let inTorso = v >= 0.52 && abs(x - headX) <= torsoHalfWidth
            let inNeck = v >= 0.44 && v < 0.52 && abs(x - headX) <= 0.04
            if inHead || inNeck || inTorso {
                let rho: Float
                if inHead && dy < -0.45 { rho = 0.05 }                         // hair
                else if inHead || inNeck { rho = 0.3 + 0.04 * Palette.noise(x, v, scale: 60) } // skin
                else { rho = Int((x - headX) * 40 + 100) % 2 == 0 ? 0.1 : 0.24 } // striped shirt
                return .init(radiance: Palette.surface(rho, midGray: subjectGray, light: backlitSubjectLight),
                             albedo: rho, depth: 1.5, isSubject: true)
            }
            if v >= 0.75 {
                let rho = 0.08 + 0.06 * Palette.noise(x, v, scale: 40)
                return .init(radiance: Palette.surface(rho, midGray: 600, light: Palette.warmSun), albedo: rho,
                             depth: 2 + 60 * (1 - (v - 0.75) / 0.25))
            }
            let sky = Palette.sky(v: v, horizonV: 0.75, zenith: 4200, horizon: 8000)
            return sun.seen(against: sky, atX: x, y: v, background: 6000)
        }
    }

    public static let snowSun = SimulatedScene(
        name: "snow-sun",
        summary: "Sunlit snow (reflectance 0.9) under a blue sky with the sun in frame: the snow should stay white, not grey.",
        subjectIntent: 1.7,
        subjectLight: Palette.warmSun
    ) { size in
        let aspect = Float(size.width) / Float(size.height)
        let sun = LightDisk(x: 0.25 * aspect, y: 0.14, radius: 0.025, luminance: 5e7, halo: 4e5, color: Palette.warmSun)
        return SceneImage(width: size.width, height: size.height) { u, v in
            let x = u * aspect
            let ridge = 0.4 + 0.03 * sin(x * 7) + 0.02 * Palette.noise(x, 0, scale: 9)
            if v >= ridge {
                let rock = Palette.noise(x, v, scale: 14, seed: 7) > 0.82
                let shade = Palette.noise(x, v, scale: 5, seed: 3) > 0.7 ? Palette.skyBlue * 0.35 : Palette.warmSun
                let rho: Float = rock ? 0.05 : 0.85 + 0.1 * Palette.noise(x, v, scale: 80)
                return .init(radiance: Palette.surface(rho, midGray: 5000, light: shade), albedo: rho,
                             depth: 3 + 300 * pow(1 - (v - ridge) / (1 - ridge), 3), isSubject: !rock)
            }
            let sky = Palette.sky(v: v, horizonV: ridge, zenith: 3500, horizon: 6500)
            return sun.seen(against: sky, atX: x, y: v, background: 5000)
        }
    }

    public static let windowInterior = SimulatedScene(
        name: "window-interior",
        summary: "A room about 7 EV below the bright window in its wall: expose the sofa, let the window go.",
        subjectIntent: 0
    ) { size in
        let aspect = Float(size.width) / Float(size.height)
        let roomGray: Float = 62
        return SceneImage(width: size.width, height: size.height) { u, v in
            let x = u * aspect
            let inWindow = u >= 0.56 && u <= 0.88 && v >= 0.12 && v <= 0.62
            if inWindow {
                let isMullion = abs(u - 0.72) < 0.006 || abs(v - 0.37) < 0.01
                if isMullion {
                    return .init(radiance: Palette.surface(0.3, midGray: roomGray), albedo: 0.3, depth: 4)
                }
                let outside = v < 0.42 - 0.06 * Palette.noise(x, 0, scale: 6)
                    ? Palette.sky(v: v, horizonV: 0.5, zenith: 7000, horizon: 11000)
                    : Palette.surface(0.2 + 0.2 * Palette.noise(x, v, scale: 30), midGray: 4500, light: Palette.warmSun)
                return .init(radiance: outside, depth: 30)
            }
            let inSofa = u >= 0.08 && u <= 0.5 && v >= 0.55 && v <= 0.86
            if inSofa {
                let cushion = v < 0.68 && Int(u * 9) % 3 == 1
                let rho: Float = (cushion ? 0.28 : 0.16) + 0.04 * Palette.noise(x, v, scale: 50)
                return .init(radiance: Palette.surface(rho, midGray: roomGray), albedo: rho, depth: 2.5, isSubject: true)
            }
            let rho: Float = v > 0.8 ? 0.25 + 0.05 * Palette.noise(x, v, scale: 25) : 0.5 + 0.03 * Palette.noise(x, v, scale: 12)
            return .init(radiance: Palette.surface(rho, midGray: roomGray), albedo: rho, depth: v > 0.8 ? 2 : 4)
        }
    }

    public static let nightStreet = SimulatedScene(
        name: "night-street",
        summary: "A dark street under sodium lamps: the lamps clip, the street should stay a night scene.",
        subjectIntent: -1,
        subjectLight: Palette.sodium
    ) { size in
        let aspect = Float(size.width) / Float(size.height)
        let lamps = [0.15, 0.5, 0.85].map {
            LightDisk(x: Float($0) * aspect, y: 0.28, radius: 0.012, luminance: 80_000, halo: 600, color: Palette.sodium)
        }
        return SceneImage(width: size.width, height: size.height) { u, v in
            let x = u * aspect
            var lampLight = SIMD3<Float>(repeating: 0)
            var isLamp = false
            for lamp in lamps {
                let light = lamp.light(atX: x, y: v, background: 20)
                lampLight += light.radiance
                isLamp = isLamp || light.isSource
            }
            if isLamp { return .init(radiance: lampLight, isSun: true) }
            if v >= 0.65 {
                let pool = lamps.reduce(Float(0)) { $0 + exp(-(($1.x - x) * ($1.x - x)) / 0.02) }
                let rho = 0.12 + 0.04 * Palette.noise(x, v, scale: 70)
                return .init(radiance: Palette.surface(rho, midGray: 0.5 + 2.5 * pool, light: Palette.sodium) + lampLight * 0.05,
                             albedo: rho, depth: 3 + 40 * (1 - (v - 0.65) / 0.35), isSubject: true)
            }
            if v >= 0.3 {
                let litWindow = Int(x * 22) % 3 == 0 && Int(v * 30) % 2 == 0 && Palette.noise(x, v, scale: 11) > 0.45
                let rho: Float = 0.2 + 0.05 * Palette.noise(x, v, scale: 35)
                let radiance = litWindow ? Palette.tungsten * 35 : Palette.surface(rho, midGray: 1, light: Palette.sodium)
                return .init(radiance: radiance + lampLight, albedo: litWindow ? 0 : rho, depth: 25)
            }
            return .init(radiance: Palette.skyBlue * 0.05 + lampLight)
        }
    }

    public static let stepChange = SimulatedScene(
        name: "step-change",
        summary: "The grey card in a room whose light steps up 4 EV at t = 1 s and back down at t = 2 s: convergence speed and overshoot.",
        subjectIntent: 0,
        illumination: .steps([LightStep(time: 1, ev: 4), LightStep(time: 2, ev: -4)]),
        paint: { paintGrayCard($0, midGray: 150) })

    public static let flickerOffice = SimulatedScene(
        name: "flicker-office",
        summary: "An office (about 1000 lux) under lights on 50 Hz mains (100 Hz flicker): short exposures show bands, multiples of 10 ms do not.",
        subjectIntent: 0,
        illumination: .mainsFlicker(frequency: 100, depth: 0.5),
        subjectLight: Palette.coolWhite
    ) { size in
        let aspect = Float(size.width) / Float(size.height)
        return SceneImage(width: size.width, height: size.height) { u, v in
            let x = u * aspect
            if v < 0.08 && Int(u * 6) % 2 == 1 {
                return .init(radiance: Palette.coolWhite * 3000, depth: 2.5, isSun: true)
            }
            let inScreen = u > 0.4 && u < 0.62 && v > 0.32 && v < 0.55
            if inScreen { return .init(radiance: Palette.coolWhite * 150, depth: 1.2) }
            if v >= 0.6 {
                let rho = 0.3 + 0.08 * Palette.noise(x, v, scale: 40)
                return .init(radiance: Palette.surface(rho, midGray: 60, light: Palette.coolWhite), albedo: rho, depth: 1, isSubject: true)
            }
            let rho = 0.6 + 0.05 * Palette.noise(x, v, scale: 15)
            return .init(radiance: Palette.surface(rho, midGray: 60, light: Palette.coolWhite), albedo: rho, depth: 3)
        }
    }

    public static let panIntoSun = SimulatedScene(
        name: "pan-into-sun",
        summary: "The camera pans across a landscape under a bright sky; the sun enters the frame after 2 s.",
        subjectIntent: 0,
        pan: SimulatedScene.Pan(imageWidthFactor: 2, startTime: 0, speed: 0.1425),
        subjectLight: Palette.warmSun
    ) { size in
        let width = Float(size.width), height = Float(size.height)
        // The view is half the image wide; the sun's left edge is 1.285 views from the image's left.
        let sun = LightDisk(x: 0.65 * width, y: 0.22 * height, radius: 0.0075 * width, luminance: 2e7, halo: 3e5, color: Palette.warmSun)
        return SceneImage(width: size.width, height: size.height) { u, v in
            let px = u * width, py = v * height
            let hills = 0.68 + 0.05 * sin(u * 17) + 0.04 * Palette.noise(u, 0, scale: 23)
            if v >= hills {
                let rho = 0.12 + 0.08 * Palette.noise(u * 2, v, scale: 60)
                return .init(radiance: Palette.surface(rho, midGray: 300, light: Palette.warmSun), albedo: rho,
                             depth: 20 + 200 * (1 - (v - hills) / (1 - hills)), isSubject: true)
            }
            let sky = Palette.sky(v: v, horizonV: hills, zenith: 4500, horizon: 7500)
            return sun.seen(against: sky, atX: px, y: py, background: 6000)
        }
    }

    /// The grey card under light that makes mid-grey `midGray` cd/m².
    private static func paintGrayCard(_ size: PixelSize, midGray: Float) -> SceneImage {
        let aspect = Float(size.width) / Float(size.height)
        return SceneImage(width: size.width, height: size.height) { u, v in
            let isCard = u >= 0.25 && u <= 0.75 && v >= 0.2 && v <= 0.8
            let rho: Float = isCard ? 0.18 : 0.18 * (0.55 + 0.9 * Palette.noise(u * aspect, v, scale: 30))
            return .init(radiance: Palette.surface(rho, midGray: midGray), albedo: rho, depth: isCard ? 0.8 : 1.2, isSubject: isCard)
        }
    }
}
