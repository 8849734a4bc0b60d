@testable import CameraSimulated
import Testing

@Suite("Noise and quantisation")
struct NoiseQuantizeTests {
    @Test("A mean that is not a number reads as black, never as an index outside the output tables")
    func notANumberIsBlack() {
        let noise = SensorModel().noiseModel(gain: 1)
        let mean = SIMD8<Float>(.nan, -.nan, 0, 100, .infinity, -.infinity, -5, 5000)
        let raw = noise.quantize(mean, deviates: .zero)
        #expect(raw[0] == 0 && raw[1] == 0 && raw[2] == 0 && raw[4] == 4095 && raw[5] == 0 && raw[6] == 0 && raw[7] == 4095, "\(raw)")
        #expect((0..<8).allSatisfy { (0...4095).contains(raw[$0]) }, "\(raw)")
    }
}
