import CameraExposure

/// The exposure algorithms `ae-eval` runs, by their `--algorithms` names, in the table's order:
/// the seed article's loop (`naive`), the same metering a 60% centre crop (`centre`), a port of
/// libcamera's AGC (`libcamera`) and the sun-aware AE (`sun`).
public enum EvaluatedAlgorithm: String, CaseIterable, Sendable {
    case naive, centre, libcamera, sun

    /// A fresh instance of the algorithm, its `name` the case's.
    func make() -> any ExposureAlgorithm {
        switch self {
        case .naive: SeedExposureLoop(centerCrop: false)
        case .centre: SeedExposureLoop(centerCrop: true)
        case .libcamera: LibcameraExposure()
        case .sun: SunAwareExposure()
        }
    }

    /// The algorithms of a comma-separated `--algorithms` list, in its order.
    public static func list(_ text: String) throws(EvaluationError) -> [EvaluatedAlgorithm] {
        try text.split(separator: ",").map { name throws(EvaluationError) in
            guard let algorithm = EvaluatedAlgorithm(rawValue: String(name)) else {
                throw .invalidInput("unknown algorithm '\(name)' — choose from \(allCases.map(\.rawValue).joined(separator: ", "))")
            }
            return algorithm
        }
    }
}
