import CameraCapture
import CameraCore
import CameraExposure
import CameraTestSupport
import Foundation
import HTTPServer
import Testing
@testable import Viewfinder

extension ServerTests {
    /// The camera-setting routes and `/state`'s flicker, white balance, focus, torch, watchdog,
    /// interruption and format fallback on a real session: a scripted camera that captures only
    /// the frames a test allows, served by `CameraViewfinder` (issue 20, defects 8 and 9).
    @Suite struct SessionSettings {
        @Test func eachSettingShowsInStateAndOutOfRangeValuesAre400s() async throws {
            let camera = try await LiveViewfinder.start()
            let initial = try await camera.json("GET", "/state")
            #expect(initial.object["flicker"] as? NSDictionary == ["mode": "auto", "detected": NSNull()])
            #expect((initial.object["whiteBalance"] as? [String: Any])?["mode"] as? String == "auto")
            #expect((initial.object["focus"] as? [String: Any])?["mode"] as? String == "continuous")
            for key in ["torch", "watchdog", "interruption", "formatFallback"] {
                #expect(initial.object[key] is NSNull, "\(key): \(initial.object[key] ?? "absent")")
            }

            let flicker = try await camera.json("POST", "/api/flicker", #"{"mode":"50"}"#)
            #expect(flicker.status == 200)
            #expect(flicker.object["flicker"] as? NSDictionary == ["mode": "50", "detected": NSNull()])
            #expect(camera.device.settings.flicker == .hz50)

            let fixed = try await camera.json("POST", "/api/whitebalance", #"{"temperature":5500}"#)
            #expect(fixed.status == 200)
            let balance = try #require(fixed.object["whiteBalance"] as? [String: Any])
            #expect(balance["mode"] as? String == "temperature" && jsonNumber(balance["temperature"]) == 5500 && jsonNumber(balance["tint"]) == 0)
            let tooCold = try await camera.json("POST", "/api/whitebalance", #"{"temperature":1000}"#)
            #expect(tooCold.status == 400 && tooCold.error.contains("1000 K is outside the supported range 2000…12000 K"), "\(tooCold.object)")
            let tooRed = try await camera.json("POST", "/api/whitebalance", #"{"gains":{"red":20,"blue":2}}"#)
            #expect(tooRed.status == 400 && tooRed.error.contains("red white-balance gain 20 is outside the supported range 1…16"), "\(tooRed.object)")

            let manual = try await camera.json("POST", "/api/focus", #"{"lensPosition":0.3}"#)
            #expect((manual.object["focus"] as? [String: Any])?["mode"] as? String == "manual")
            let beyond = try await camera.json("POST", "/api/focus", #"{"lensPosition":1.5}"#)
            #expect(beyond.status == 400 && beyond.error.contains("lens position 1.5 is outside the supported range 0…1"), "\(beyond.object)")
            #expect(camera.device.settings.focusMode == .manual(lensPosition: 0.3), "a refused value changes nothing")

            // The next frames are made with the lens and the gains asked for (to rounding: the
            // gains are normalised again on their way to the sensor).
            camera.device.allowFrames(4)
            let daylight = try WhiteBalanceGains(temperature: 5500)
            func isDaylight(_ gains: Any?) -> Bool {
                let gains = gains as? [String: Any]
                return [("red", daylight.red), ("green", daylight.green), ("blue", daylight.blue)].allSatisfy { name, expected in
                    abs((jsonNumber(gains?[name]) ?? 0) - expected) < 1e-12
                }
            }
            let applied = try await camera.awaitState { state in
                jsonNumber((state["focus"] as? [String: Any])?["lensPosition"]) == 0.3 && isDaylight((state["whiteBalance"] as? [String: Any])?["gains"])
            }
            #expect(isDaylight((applied["whiteBalance"] as? [String: Any])?["gains"]), "\(applied["whiteBalance"] ?? "")")
            #expect((try await camera.json("POST", "/api/focus", #"{"mode":"auto"}"#).object["focus"] as? [String: Any])?["mode"] as? String == "auto")

            let torch = try await camera.json("POST", "/api/torch", #"{"on":true}"#)
            #expect(torch.status == 409 && torch.error == "Scripted camera scripted:0 has no torch — light the scene another way", "\(torch.object)")
            #expect(try await camera.json("POST", "/api/torch", #"{"on":false}"#).object["torch"] is NSNull)

            #expect(try await camera.json("GET", "/state").object["hdr"] as? Bool == true, "HDR is on by default")
            #expect(try await camera.json("POST", "/api/hdr", #"{"on":false}"#).object["hdr"] as? Bool == false)
            #expect(try await camera.json("POST", "/api/hdr", #"{"on":true}"#).object["hdr"] as? Bool == true)
            await camera.stop()
        }

        @Test func theShadowsControlShowsInStateAndOutOfRangeIsA400() async throws {
            let camera = try await LiveViewfinder.start()
            let initial = try await camera.json("GET", "/state").object
            #expect(jsonNumber(initial["shadows"]) == 0 && initial["shadowsRange"] as? [Double] == [-2, 2], "\(initial)")
            let lifted = try await camera.json("POST", "/api/shadows", #"{"shadows":1.5}"#)
            #expect(lifted.status == 200 && jsonNumber(lifted.object["shadows"]) == 1.5, "the answer already shows it: \(lifted.object)")
            #expect(camera.device.settings.shadows == 1.5)
            let beyond = try await camera.json("POST", "/api/shadows", #"{"shadows":3}"#)
            #expect(beyond.status == 400 && beyond.error.contains("shadows 3 is outside the supported range -2…2"), "\(beyond.object)")
            let word = try await camera.json("POST", "/api/shadows", #"{"shadows":"deep"}"#)
            #expect(word.status == 400 && word.error == "shadows: expected a number", "\(word.object)")
            #expect(camera.device.settings.shadows == 1.5, "a refused value changes nothing")
            #expect(jsonNumber(try await camera.json("GET", "/state").object["shadows"]) == 1.5)
            await camera.stop()
        }

        @Test func theTorchLevelAndTheFormatFallbackShowInState() async throws {
            var capabilities = ScriptedDevice.standardCapabilities
            capabilities.hasTorch = true
            let fallback = "120 fps is not available at 64x48 (up to 30 fps); using 30 fps"
            let camera = try await LiveViewfinder.start(capabilities: capabilities, formatFallback: fallback)
            let initial = try await camera.json("GET", "/state").object
            #expect(jsonNumber(initial["torch"]) == 0)
            #expect(initial["formatFallback"] as? String == fallback)
            #expect(jsonNumber(try await camera.json("POST", "/api/torch", #"{"on":true,"level":0.5}"#).object["torch"]) == 0.5)
            let tooBright = try await camera.json("POST", "/api/torch", #"{"on":true,"level":2}"#)
            #expect(tooBright.status == 400 && tooBright.error.contains("torch level 2 is outside the supported range 0…1"), "\(tooBright.object)")
            #expect(jsonNumber(try await camera.json("POST", "/api/torch", #"{"on":true}"#).object["torch"]) == 1)
            #expect(jsonNumber(try await camera.json("POST", "/api/torch", #"{"on":false}"#).object["torch"]) == 0)
            await camera.stop()
        }

        @Test func anInterruptionShowsInStateUntilItEnds() async throws {
            let camera = try await LiveViewfinder.start()
            camera.device.setAvailability(.busy)
            let busy = try await camera.awaitState { $0["interruption"] as? String != nil }
            #expect(busy["interruption"] as? String == "deviceInUseByAnotherClient")
            camera.device.setAvailability(.available)
            let back = try await camera.awaitState { $0["interruption"] is NSNull }
            #expect(back["interruption"] is NSNull)
            await camera.stop()
        }

        /// Five seconds of black frames (a lens cap) restart auto-exposure, and `/state` says why.
        @Test func theExposureWatchdogShowsInState() async throws {
            let camera = try await LiveViewfinder.start(sceneLuminance: 0)
            camera.device.allowFrames(200)
            let restarted = try await camera.awaitState { $0["watchdog"] as? String != nil }
            let reason = try #require(restarted["watchdog"] as? String)
            #expect(reason.hasPrefix("frames black for 5.0 s at ") && reason.hasSuffix(" — restarted auto-exposure"), "\(reason)")
            await camera.stop()
        }
    }
}
