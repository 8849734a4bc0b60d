import CameraCapture
import CameraCore
import Foundation
import Testing
@testable import Viewfinder

extension ServerTests {
    /// Choosing a metering mode after a tap to meter: the mode replaces the tap, which does not
    /// come back with sun-aware metering (the page reloaded on a tap's dark exposure).
    @Suite struct MeteringMode {
        @Test func choosingAModeLetsTheTapGoAndSunAwareMeteringDoesNotBringItBack() async throws {
            let camera = try await LiveViewfinder.start()
            let tapped = try await camera.json("POST", "/api/meter", #"{"point":{"x":0.1,"y":0.9}}"#)
            #expect(tapped.status == 200)
            #expect(camera.device.settings.exposurePoint != nil)
            let average = try await camera.json("POST", "/api/metering", #"{"mode":"average"}"#)
            #expect(average.status == 200, "\(average.object)")
            #expect(camera.device.settings.exposurePoint == nil && camera.device.settings.meteringMode == .average)
            _ = try await camera.json("POST", "/api/meter", #"{"point":{"x":0.1,"y":0.9}}"#)
            let spot = try await camera.json("POST", "/api/metering", #"{"mode":"spot"}"#)
            #expect(spot.status == 200, "\(spot.object)")
            #expect(camera.device.settings.exposurePoint == nil, "the spot carries the tap's point")
            if case .spot(let point, _) = camera.device.settings.meteringMode {
                #expect(point != NormalizedPoint.center, "the spot is where the tap was: \(point)")
            } else {
                Issue.record("not a spot: \(camera.device.settings.meteringMode)")
            }
            _ = try await camera.json("POST", "/api/metering", #"{"mode":"sun"}"#)
            #expect(camera.device.settings.exposurePoint == nil && camera.device.settings.meteringMode == .sunAware)
            await camera.stop()
        }
    }
}
