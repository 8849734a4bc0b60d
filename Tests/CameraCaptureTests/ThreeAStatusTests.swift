import CameraCapture
import CameraCore
import CameraExposure
import CameraMetering
import Testing

@Suite("3A status: when a bright or dark frame is the engine's own choice")
struct ThreeAStatusTests {
    static func status(_ state: AEState = .converged, bias: Double = 0, metering: MeteringMode = .sunAware,
                       point: NormalizedPoint? = nil) -> ThreeAStatus {
        ThreeAStatus(exposureState: state, exposureError: 0, exposureBias: bias, meteringMode: metering, exposurePoint: point,
                     focusState: .focused, whiteBalanceState: .converged)
    }

    @Test("Converged, sun-aware, found its own subject, no bias: exposed for the subject")
    func exposedForSubject() {
        #expect(Self.status().exposedForSubject)
    }

    @Test("Searching or locked, a bias, a classic metering mode or a tap point: not the engine's own choice",
          arguments: [status(.searching), status(.locked), status(bias: 1), status(bias: -0.3), status(metering: .average),
                      status(point: NormalizedPoint(x: 0.2, y: 0.3))])
    func notExposedForSubject(status: ThreeAStatus) {
        #expect(!status.exposedForSubject)
    }
}
