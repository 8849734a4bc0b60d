import CameraCore
import Foundation
import HTTPServer
import Testing
@testable import Viewfinder

@Suite struct ControlCommandTests {
    func decode<T: Decodable>(_ json: String, as type: T.Type = T.self) throws(HTTPError) -> T {
        try HTTPRequest(method: .post, path: "/api/x", headers: ["Content-Type": "application/json"], body: Data(json.utf8)).decodeJSON()
    }

    func message<T: Decodable>(_ json: String, as type: T.Type) -> String? {
        do {
            _ = try decode(json, as: type)
            return nil
        } catch {
            #expect(error.status == .badRequest)
            return error.message
        }
    }

    @Test func exposureForms() throws {
        #expect(try decode(#"{"bias":-1.5}"#) == ExposureCommand.bias(-1.5))
        #expect(try decode(#"{"mode":"auto"}"#) == ExposureCommand.auto)
        #expect(try decode(#"{"mode":"locked"}"#) == ExposureCommand.locked)
        #expect(try decode(#"{"mode":"custom","exposureTime":0.004,"gain":2}"#) == ExposureCommand.custom(exposureTime: 0.004, gain: 2))
        #expect(try decode(#"{"reset":true}"#) == ExposureCommand.reset)
        #expect(try decode(#"{"shadows":1.5}"#) == ShadowsCommand(shadows: 1.5))
        #expect(message("{}", as: ShadowsCommand.self) == "shadows: missing — add it to the JSON object")
    }

    @Test func meterLockZoomAndMeteringForms() throws {
        #expect(try decode(#"{"view":{"x":10,"y":20,"width":400,"height":300},"gravity":"fit"}"#)
            == MeterCommand.viewTap(x: 10, y: 20, viewWidth: 400, viewHeight: 300, gravity: .fit))
        #expect(try decode(#"{"view":{"x":1,"y":2,"width":4,"height":3}}"#)
            == MeterCommand.viewTap(x: 1, y: 2, viewWidth: 4, viewHeight: 3, gravity: .fill))
        #expect(try decode(#"{"point":{"x":0.2,"y":0.8}}"#) == MeterCommand.devicePoint(NormalizedPoint(x: 0.2, y: 0.8)))
        #expect(try decode(#"{"ae":true,"awb":false}"#) == LockCommand(ae: true, awb: false))
        #expect(try decode(#"{"factor":2}"#) == ZoomCommand.factor(2))
        #expect(try decode(#"{"rampTo":4,"rate":1}"#) == ZoomCommand.ramp(to: 4, rate: 1))
        #expect(try decode(#"{"mode":"centre"}"#) == MeteringCommand(mode: .centerWeighted))
        #expect(try decode("{}") == PhotoCommand(flash: .off))
        #expect(try decode(#"{"flash":"auto"}"#) == PhotoCommand(flash: .auto))
        #expect(try decode(#"{"flash":"on"}"#) == PhotoCommand(flash: .on))
    }

    @Test func malformedBodiesNameTheProblem() {
        #expect(message(#"{"bias":"#, as: ExposureCommand.self)
            == "the request body is not valid JSON (Unexpected end of file during JSON parse.) — send a JSON object")
        #expect(message("", as: ExposureCommand.self) == "the request body is empty — send a JSON object")
        #expect(message(#"{"bias":"bright"}"#, as: ExposureCommand.self) == "bias: expected a number")
        #expect(message(#"{"bias":1,"reset":true}"#, as: ExposureCommand.self)
            == "the request body: give exactly one of \"bias\", \"mode\" or \"reset\" (found 2)")
        #expect(message(#"{"mode":"custom","gain":2}"#, as: ExposureCommand.self) == "exposureTime: missing — add it to the JSON object")
        #expect(message(#"{"mode":"fast"}"#, as: ExposureCommand.self) == "mode: \"fast\" is not auto, locked or custom")
        #expect(message(#"{"mode":"sppot"}"#, as: MeteringCommand.self) == "mode: \"sppot\" is not average, centre, spot, matrix or sun")
        #expect(message(#"{"mode":3}"#, as: MeteringCommand.self) == "mode: expected a string")
        #expect(message("{}", as: MeteringCommand.self) == "mode: missing — add it to the JSON object")
        #expect(message(#"{"view":{"x":1,"y":2,"width":4,"height":3},"gravity":"zoom"}"#, as: MeterCommand.self)
            == "gravity: \"zoom\" is not fill, fit or stretch")
        #expect(message(#"{"view":{"x":1,"y":2,"width":0,"height":3}}"#, as: MeterCommand.self) == "view: view size 0.0x3.0 must be positive")
        #expect(message("[1,2]", as: LockCommand.self) == "the request body: expected a JSON object")
        #expect(message(#"{"ae":"yes"}"#, as: LockCommand.self) == "ae: expected true or false")
        #expect(message(#"{"flash":"bright"}"#, as: PhotoCommand.self) == "flash: \"bright\" is not off, on or auto")
        #expect(message(#"{"flash":true}"#, as: PhotoCommand.self) == "flash: expected a string")
    }
}
