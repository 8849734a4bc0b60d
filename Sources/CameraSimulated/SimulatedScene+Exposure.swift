import Foundation
import CameraCore

extension SimulatedScene {
    /// The exposure (seconds at analogue gain 1) that puts the subject exactly at its intent
    /// shifted by `bias` EV: mean subject signal = 0.18 × 2^(intent + bias) of full scale.
    /// Computed from the ground truth, so it is the target an exposure engine is judged against.
    /// Scenes without a subject mask use all pixels outside the sun mask.
    public func referenceExposure(viewSize: PixelSize, sensor: SensorModel = SensorModel(), bias: Double = 0) -> Double {
        let luminances = subjectLuminances(viewSize: viewSize)
        let luminance = max(luminances.reduce(0) { $0 + Double($1) } / Double(max(luminances.count, 1)), 1e-6)
        return 0.18 * pow(2, subjectIntent + bias) / (sensor.sensitivity * luminance)
    }

    /// How far, in EV, the subject's mean luminance stands above its median, at the start of the
    /// scene. Near 0 for one surface in one light; large when a bright minority of the subject's
    /// pixels — sky through a lattice, glare on grass — carries the mean that subject ΔEV is
    /// judged on, so that an exposure for the subject's typical pixel reads as over-exposed.
    public func subjectMeanOverMedian(viewSize: PixelSize) -> Double {
        let luminances = subjectLuminances(viewSize: viewSize).map(Double.init)
        guard !luminances.isEmpty else { return 0 }
        let mean = luminances.reduce(0, +) / Double(luminances.count)
        return log2(max(mean, 1e-9) / max(median(luminances), 1e-9))
    }

    /// The luminance of each subject pixel in the view at time 0 (all pixels outside the sun mask
    /// when the scene marks no subject).
    private func subjectLuminances(viewSize: PixelSize) -> [Float] {
        let image = render(viewSize: viewSize)
        let originX = viewOrigin(at: 0, imageWidth: image.width, viewWidth: viewSize.width)
        let hasSubject = image.subjectMask.contains(1)
        var luminances: [Float] = []
        for y in 0..<image.height {
            for x in originX..<(originX + viewSize.width) {
                let i = y * image.width + x
                guard hasSubject ? image.subjectMask[i] == 1 : image.sunMask[i] == 0 else { continue }
                luminances.append(image.radiance.luminance(x: x, y: y))
            }
        }
        return luminances
    }
}
