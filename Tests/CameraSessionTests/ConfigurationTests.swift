import CameraCapture
import CameraCore
import CameraTestSupport
import Testing

@Suite("Session configuration: validated as a whole, with errors that say what to do")
struct ConfigurationTests {
    @Test("Outputs without a device input fail, naming the outputs, and change nothing")
    func noInput() async throws {
        let session = CaptureSession()
        let message = try #require(await failure {
            try await session.configure { config in try config.add(VideoDataOutput()) }
        })
        #expect(message.contains("no device input for the VideoDataOutput"))
        #expect(message.contains("add DeviceInput(camera)"))
        #expect(await session.configuration.outputs.isEmpty)
    }

    @Test("With two device inputs, an output added without its input fails, naming both devices")
    func twoInputsWithoutSayingWhichFeeds() async throws {
        let session = CaptureSession()
        let message = try #require(await failure {
            try await session.configure { config in
                try config.add(DeviceInput(ScriptedDevice(uniqueID: "scripted:a")))
                try config.add(DeviceInput(ScriptedDevice(uniqueID: "scripted:b")))
                try config.add(VideoDataOutput())
            }
        })
        #expect(message.contains("the VideoDataOutput has no input of its own and the session has 2 device inputs (scripted:a, scripted:b)"))
        #expect(message.contains("add it with add(output, from: input)"))
        #expect(await session.configuration.inputs.isEmpty)
    }

    @Test("The same device twice fails at once")
    func sameDeviceTwice() async throws {
        let device = ScriptedDevice()
        let message = try #require(await failure {
            try await CaptureSession().configure { config in
                try config.add(DeviceInput(device))
                try config.add(DeviceInput(device))
            }
        })
        #expect(message.contains("scripted:0 is already the session's input"))
    }

    @Test("An output added twice fails")
    func outputTwice() async throws {
        let device = ScriptedDevice(), output = VideoDataOutput()
        let session = try await makeSession(device, outputs: [output])
        let message = try #require(await failure {
            try await session.configure { config in try config.add(output) }
        })
        #expect(message.contains("this VideoDataOutput is already in the session — add each output once"))
        #expect(await session.configuration.outputs.count == 1)
    }

    @Test("An output cannot be in two sessions; removed from one, it can join another")
    func outputInTwoSessions() async throws {
        let output = VideoDataOutput()
        let first = try await makeSession(ScriptedDevice(uniqueID: "scripted:a"), outputs: [output])
        let second = CaptureSession()
        let message = try #require(await failure {
            try await second.configure { config in
                try config.add(DeviceInput(ScriptedDevice(uniqueID: "scripted:b")))
                try config.add(output)
            }
        })
        #expect(message.contains("this VideoDataOutput already belongs to another session"))
        try await first.configure { config in config.remove(output) }
        try await second.configure { config in
            try config.add(DeviceInput(ScriptedDevice(uniqueID: "scripted:b")))
            try config.add(output)
        }
        #expect(await second.configuration.outputs.count == 1)
    }

    @Test("A preset the device cannot give fails, naming the preset and the sizes it offers")
    func unsupportedPreset() async throws {
        let device = ScriptedDevice()
        let message = try #require(await failure {
            try await CaptureSession().configure { config in
                config.preset = .hd1920x1080
                try config.add(DeviceInput(device))
            }
        })
        #expect(message.contains("preset hd1920x1080 needs a 1920x1080 format"))
        #expect(message.contains("offers 1280x720, 32x24, 64x48"))
        #expect(message.contains(".inputPriority"))
        #expect(device.activeFormat == ScriptedDevice.standardFormats[0])
    }

    @Test("A preset sets the device's format and the supported frame rate nearest its current one",
          arguments: [
              (SessionPreset.hd1280x720, PixelSize(width: 1280, height: 720), 30.0),
              (.photo, PixelSize(width: 1280, height: 720), 30),
              (.high, PixelSize(width: 1280, height: 720), 30),
              (.inputPriority, PixelSize(width: 32, height: 24), 60),
          ])
    func presetChoosesFormat(preset: SessionPreset, size: PixelSize, frameRate: Double) async throws {
        let device = ScriptedDevice()
        #expect(device.settings.frameRate == 60)
        try await CaptureSession().configure { config in
            config.preset = preset
            try config.add(DeviceInput(device))
        }
        #expect(device.activeFormat.size == size)
        #expect(device.settings.frameRate == frameRate)
    }

    @Test("An output that needs another pixel format fails, naming both formats")
    func incompatibleOutput() async throws {
        let message = try #require(await failure {
            try await CaptureSession().configure { config in
                try config.add(DeviceInput(ScriptedDevice()))
                try config.add(VideoDataOutput(pixelFormat: .nv12(.full)))
            }
        })
        #expect(message.contains("wants nv12-full frames but the device delivers 32x24 gray8 @ 1–60 fps"))
    }

    @Test("A raw Bayer format is rendered: its outputs get bgra8 pictures, and an output wanting another format is refused")
    func rawFormat() async throws {
        let raw = DeviceFormat(size: PixelSize(width: 160, height: 120), pixelFormat: .bayer16(.rggb, significantBits: 12),
                               frameRateRanges: [FrameRateRange(minimum: 1, maximum: 30)])
        #expect(raw.pictures == DeviceFormat(size: raw.size, pixelFormat: .bgra8, frameRateRanges: raw.frameRateRanges))
        try await CaptureSession().configure { config in
            try config.add(DeviceInput(ScriptedDevice(formats: [raw])))
            try config.add(VideoDataOutput(pixelFormat: .bgra8))
        }
        let message = try #require(await failure {
            try await CaptureSession().configure { config in
                try config.add(DeviceInput(ScriptedDevice(formats: [raw])))
                try config.add(VideoDataOutput(pixelFormat: .nv12(.full)))
            }
        })
        #expect(message.contains("wants nv12-full frames but the device delivers 160x120 bgra8 @ 1–30 fps"))
    }

    @Test("A device the user may not open fails with the remedy")
    func notAuthorized() async throws {
        let remedy = "add your user to the 'video' group (sudo usermod -aG video $USER) and log in again"
        let device = ScriptedDevice(authorization: .denied(remedy: remedy))
        let session = CaptureSession()
        await #expect(throws: CaptureError.notAuthorized(device: "scripted:0", remedy: remedy)) {
            try await session.configure { config in try config.add(DeviceInput(device)) }
        }
    }

    @Test("An error thrown by the closure discards the whole transaction")
    func closureErrorDiscards() async throws {
        struct Abandoned: Error {}
        let device = ScriptedDevice()
        let session = try await makeSession(device)
        await #expect(throws: Abandoned.self) {
            try await session.configure { config in
                config.preset = .hd1280x720
                try config.add(VideoDataOutput())
                throw Abandoned()
            }
        }
        #expect(await session.configuration.outputs.isEmpty)
        #expect(await session.configuration.preset == .inputPriority)
        #expect(device.activeFormat.size == PixelSize(width: 32, height: 24))
    }

    @Test("Starting without a device input fails and says what to add")
    func startWithoutInput() async throws {
        let session = CaptureSession()
        let message = try #require(await failure { try await session.start() })
        #expect(message.contains("the session has no device input"))
        #expect(await !session.isRunning)
    }
}

@Suite("Connections: rotation, mirroring, stabilisation")
struct ConnectionTests {
    @Test("Mirroring follows the device's position until set, and can be set either way without a crash",
          arguments: [(DevicePosition.front, true), (.back, false), (.external, false)])
    func mirroring(position: DevicePosition, mirroredByDefault: Bool) async throws {
        let output = VideoDataOutput()
        let session = try await makeSession(ScriptedDevice(position: position), outputs: [output])
        let connection = try #require(await session.connection(for: output))
        #expect(connection.isVideoMirrored == mirroredByDefault)
        #expect(connection.automaticallyAdjustsVideoMirroring)
        connection.isVideoMirrored = !mirroredByDefault
        #expect(connection.isVideoMirrored == !mirroredByDefault)
        #expect(!connection.automaticallyAdjustsVideoMirroring)
        connection.automaticallyAdjustsVideoMirroring = true
        #expect(connection.isVideoMirrored == mirroredByDefault)
    }

    @Test("Frames carry the connection's rotation, mirroring and stabilisation, changed mid-stream")
    func framesCarryConnection() async throws {
        try await withDeadline {
            let device = ScriptedDevice(position: .front, frameBudget: 1)
            let output = VideoDataOutput(), session = CaptureSession()
            try await session.configure { config in
                try config.add(DeviceInput(device))
                let connection = try config.add(output)
                connection.rotation = .degrees90
                connection.stabilizationMode = .cinematic
            }
            var frames = output.frames.makeAsyncIterator()
            try await session.start()
            let first = try await frames.frame(numbered: 0)
            #expect(first.rotation == .degrees90 && first.isMirrored && first.stabilizationMode == .cinematic)
            let connection = try #require(await session.connection(for: output))
            connection.rotation = .degrees270
            connection.isVideoMirrored = false
            device.allowFrames(1)
            let second = try await frames.frame(numbered: 1)
            #expect(second.rotation == .degrees270 && !second.isMirrored)
            await session.stop()
        }
    }
}
