import Foundation
import CameraCore

extension SimulatedScene {
    /// The exposure (seconds at analogue gain 1) that puts the subject exactly at its intent
    /// shifted by `bias` EV: mean subject signal = 0.18 × 2^(intent + bias) of full scale.
    /// Computed from the ground truth, so it is the target an exposure engine is judged against.
    /// Scenes without a subject mask use all pixels outside the sun mask.
    public func referenceExposure(viewSize: PixelSize, sensor: SensorModel = SensorModel(), bias: Double = 0) -> Double {
        let image = render(viewSize: viewSize)
        let originX = viewOrigin(at: 0, imageWidth: image.width, viewWidth: viewSize.width)
        let hasSubject = image.subjectMask.contains(1)
        var sum = 0.0
        var count = 0
        for y in 0..<image.height {
            for x in originX..<(originX + viewSize.width) {
                let i = y * image.width + x
                guard hasSubject ? image.subjectMask[i] == 1 : image.sunMask[i] == 0 else { continue }
                sum += Double(image.radiance.luminance(x: x, y: y))
                count += 1
            }
        }
        let luminance = max(sum / Double(max(count, 1)), 1e-6)
        return 0.18 * pow(2, subjectIntent + bias) / (sensor.sensitivity * luminance)
    }
}
