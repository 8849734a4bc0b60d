import CameraCapture

/// `camerasun devices [--json]`: the cameras found, with formats and control ranges.
enum DevicesCommand {
    struct Listing: Encodable {
        let devices: [Device]
    }

    struct Device: Encodable {
        let id: String
        let name: String
        let position: String
        let formats: [Format]
        let controls: Controls
    }

    struct Format: Encodable {
        let width: Int
        let height: Int
        let pixelFormat: String
        let frameRates: [[Double]]
    }

    struct Controls: Encodable {
        let exposureDuration: [Double]
        let gain: [Double]
        let iso: [Double]
        let evBias: [Double]
        let zoom: [Double]
        let lensPosition: [Double]
        let torch: Bool
        let flash: Bool
    }

    static func run(_ arguments: ArgumentList, terminal: Terminal) throws {
        var arguments = arguments
        let json = arguments.flag("json")
        try arguments.finish()
        let (cameras, unusable) = try SourceSpec.connectedCameras()
        for node in unusable { terminal.error("camerasun: cannot use \(node)") }
        if json {
            try terminal.json(Listing(devices: cameras.map { describe($0) }))
            return
        }
        for camera in cameras {
            let device = describe(camera)
            terminal.print("\(device.id)  \(device.name) (\(device.position))")
            let c = device.controls
            terminal.print("  exposure \(ShutterSpeed.describe(.init(seconds: c.exposureDuration[0], preferredTimescale: 1_000_000)))"
                + " … \(ShutterSpeed.describe(.init(seconds: c.exposureDuration[1], preferredTimescale: 1_000_000)))"
                + ", gain \(Int(c.gain[0]))…\(Int(c.gain[1])) (ISO \(Int(c.iso[0]))…\(Int(c.iso[1])))"
                + ", EV \(Int(c.evBias[0]))…+\(Int(c.evBias[1])), zoom \(Int(c.zoom[0]))…\(Int(c.zoom[1]))x"
                + ", torch \(c.torch ? "yes" : "no"), flash \(c.flash ? "yes" : "no")")
            for format in camera.formats {
                terminal.print("  \(format)")
            }
        }
    }

    static func describe(_ device: any CaptureDevice) -> Device {
        let caps = device.capabilities
        func pair(_ range: ClosedRange<Double>) -> [Double] { [range.lowerBound, range.upperBound] }
        return Device(
            id: device.uniqueID, name: device.localizedName, position: device.position.rawValue,
            formats: device.formats.map { format in
                Format(width: format.size.width, height: format.size.height, pixelFormat: format.pixelFormat.name,
                       frameRates: format.frameRateRanges.map { [$0.minimum, $0.maximum] })
            },
            controls: Controls(exposureDuration: pair(caps.exposureDuration), gain: pair(caps.analogueGain),
                               iso: pair(caps.iso), evBias: pair(caps.exposureBias), zoom: pair(caps.zoomFactor),
                               lensPosition: pair(caps.lensPosition), torch: caps.hasTorch, flash: caps.hasFlash))
    }
}
