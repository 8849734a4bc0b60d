/// A session's inputs, outputs and preset, edited as a whole inside `CaptureSession.configure`
/// and validated together when the closure returns.
///
/// ```swift
/// try await session.configure { config in
///     config.preset = .hd1280x720
///     try config.add(DeviceInput(camera))
///     let connection = try config.add(frames)
///     connection.rotation = .degrees90
/// }
/// ```
public struct SessionConfiguration: Sendable {
    /// The default keeps the device's own format; see `SessionPreset`.
    public var preset = SessionPreset.inputPriority
    public private(set) var inputs: [DeviceInput] = []
    /// Every output with its connection, in the order they were added.
    private(set) var routes: [OutputRoute] = []

    init() {}

    /// Adds a camera. Throws when the device is already an input or the process may not use it
    /// (with the remedy, e.g. joining the 'video' group). A session takes one device input;
    /// a second one fails when the configuration is committed.
    public mutating func add(_ input: DeviceInput) throws(CaptureError) {
        let device = input.device
        if inputs.contains(where: { $0.isSameDevice(as: input) }) {
            throw .invalidConfiguration("\(device.uniqueID) is already the session's input — add each device once")
        }
        switch device.authorization {
        case .authorized:
            inputs.append(input)
        case .denied(let remedy), .restricted(let remedy):
            throw .notAuthorized(device: device.uniqueID, remedy: remedy)
        }
    }

    /// Adds an output and returns its connection (rotation, mirroring, stabilisation). Throws when
    /// the output is already in this configuration.
    @discardableResult
    public mutating func add(_ output: some CaptureOutput) throws(CaptureError) -> CaptureConnection {
        guard connection(for: output) == nil else {
            throw .invalidConfiguration("this \(output.typeName) is already in the session — add each output once")
        }
        let connection = CaptureConnection()
        routes.append(OutputRoute(output: output, connection: connection))
        return connection
    }

    public mutating func remove(_ input: DeviceInput) {
        inputs.removeAll { $0.isSameDevice(as: input) }
    }

    public mutating func remove(_ output: some CaptureOutput) {
        routes.removeAll { $0.output === output }
    }

    /// The outputs, in the order they were added.
    public var outputs: [any CaptureOutput] { routes.map(\.output) }

    /// The outputs of this configuration that `other` does not have.
    func outputs(notIn other: SessionConfiguration) -> [any CaptureOutput] {
        outputs.filter { output in other.connection(for: output) == nil }
    }

    /// The connection that feeds `output`, or nil when it is not in the configuration.
    public func connection(for output: some CaptureOutput) -> CaptureConnection? {
        routes.first { $0.output === output }?.connection
    }

    /// Checks the configuration as a whole and resolves the preset against the device: throws the
    /// first problem, naming what to change. Returns the device input (nil for an empty session)
    /// and the format and frame rate the preset asks for (nil: keep the device's).
    func validate() throws(CaptureError) -> (input: DeviceInput, choice: (format: DeviceFormat, frameRate: Double)?)? {
        if inputs.count > 1 {
            throw .invalidConfiguration("\(inputs.count) device inputs (\(inputs.map(\.device.uniqueID).joined(separator: ", "))) — "
                + "a video connection takes exactly one; remove all but one")
        }
        guard let input = inputs.first else {
            if outputs.isEmpty { return nil }
            throw .invalidConfiguration("no device input for the \(outputs.map(\.typeName).joined(separator: ", ")) — "
                + "add DeviceInput(camera) in the same configuration")
        }
        let device = input.device
        let choice = try preset.choice(among: device.formats, current: device.settings,
                                       device: "\(device.localizedName) (\(device.uniqueID))")
        let format = choice?.format ?? device.activeFormat
        for output in outputs {
            try output.checkCompatibility(with: format.pictures)
        }
        return (input, choice)
    }
}

/// An output and the connection that feeds it.
struct OutputRoute: Sendable {
    let output: any CaptureOutput
    let connection: CaptureConnection
}
