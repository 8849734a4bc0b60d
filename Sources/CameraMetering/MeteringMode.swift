import CameraCore

/// How a frame's light is weighed into one metered value.
public enum MeteringMode: Sendable, Hashable {
    /// Every pixel counts the same.
    case average
    /// Concentric rings around the centre weighted 3, 2, 1 and 0 (libcamera's centre-weighted
    /// table in spirit): ring edges at 25%, 50% and 75% of the half-diagonal.
    case centerWeighted
    /// Only the cells within `radius` (a fraction of the frame height) of `point`.
    case spot(NormalizedPoint, radius: Double)
    /// The geometric mean of the zone means: no single bright or dark region dominates.
    case matrix
    /// Centre-weighted over everything but the sun, other light sources and their glare. The default.
    case sunAware

    /// The spot radius used when none is given: 5% of the frame height.
    public static let defaultSpotRadius = 0.05

    /// The CLI / API name: average, centre, spot, matrix, sun.
    public var name: String {
        switch self {
        case .average: "average"
        case .centerWeighted: "centre"
        case .spot: "spot"
        case .matrix: "matrix"
        case .sunAware: "sun"
        }
    }

    /// The `--metering` value that selects exactly this mode, as the photo library records it:
    /// `name`, with the point for spot (`spot@0.25,0.75`). `init(parsing:)` reads it back.
    public var commandLineName: String {
        if case .spot(let point, _) = self { return "spot@\(point.x),\(point.y)" }
        return name
    }

    /// Parses `average`, `centre`, `spot`, `spot@x,y`, `matrix` or `sun`.
    public init?(parsing text: String) {
        switch text {
        case "average": self = .average
        case "centre", "center": self = .centerWeighted
        case "matrix": self = .matrix
        case "sun": self = .sunAware
        case "spot": self = .spot(.center, radius: MeteringMode.defaultSpotRadius)
        default:
            guard text.hasPrefix("spot@") else { return nil }
            let parts = text.dropFirst(5).split(separator: ",").compactMap { Double($0) }
            guard parts.count == 2 else { return nil }
            let point = NormalizedPoint(x: parts[0], y: parts[1])
            guard point.isInsideImage else { return nil }
            self = .spot(point, radius: MeteringMode.defaultSpotRadius)
        }
    }

    /// The ring weight of a point at normalised (`x`, `y`) for centre-weighted metering.
    public static func centerWeight(x: Double, y: Double) -> Double {
        let distance = ((x - 0.5) * (x - 0.5) + (y - 0.5) * (y - 0.5)).squareRoot() / (0.5 * 2.0.squareRoot())
        switch distance {
        case ..<0.25: return 3
        case ..<0.5: return 2
        case ..<0.75: return 1
        default: return 0
        }
    }
}
