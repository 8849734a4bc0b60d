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
///
/// A session may take two cameras at once (AVCaptureMultiCamSession's idea): each output is fed
/// by one input, named with `add(_:from:)`; an output added without one is fed by the session's
/// only input. Switching cameras is one transaction — `remove(back); add(front)`, or
/// `connect(preview, to: front)` when both stay — so no output is ever fed by two inputs or none.
public struct SessionConfiguration: Sendable {
    /// The default keeps the device's own format; see `SessionPreset`.
    public var preset = SessionPreset.inputPriority
    public private(set) var inputs: [DeviceInput] = []
    /// Every output with its connection, in the order they were added.
    private(set) var routes: [OutputRoute] = []

    init() {}

    /// Adds a camera. Throws when the device is already an input or the process may not use it
    /// (with the remedy, e.g. joining the 'video' group).
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

    /// Adds an output fed by the session's only input and returns its connection (rotation,
    /// mirroring, stabilisation). Throws when the output is already in this configuration.
    @discardableResult
    public mutating func add(_ output: some CaptureOutput) throws(CaptureError) -> CaptureConnection {
        try add(output, feeder: nil)
    }

    /// Adds an output fed by `input` (one of two cameras) and returns its connection. Throws when
    /// the output is already in this configuration; `input` must be in it when it is committed.
    @discardableResult
    public mutating func add(_ output: some CaptureOutput, from input: DeviceInput) throws(CaptureError) -> CaptureConnection {
        try add(output, feeder: input)
    }

    /// Feeds `output` from `input` instead, keeping its connection (and the rotation and mirroring
    /// set on it; automatic mirroring follows the new input's position). Throws when the output is
    /// not in this configuration.
    public mutating func connect(_ output: some CaptureOutput, to input: DeviceInput) throws(CaptureError) {
        guard let index = routes.firstIndex(where: { $0.output === output }) else {
            throw .invalidConfiguration("this \(output.typeName) is not in the session — add it before connecting it to an input")
        }
        routes[index].input = input
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

    /// The input that feeds `output`: the one it was added from or connected to when that is in
    /// the configuration, else the only input; nil when none does.
    public func input(feeding output: some CaptureOutput) -> DeviceInput? {
        routes.first { $0.output === output }.flatMap(input(of:))
    }

    /// The routes `input` feeds, in the order their outputs were added.
    func routes(fedBy feeder: DeviceInput) -> [OutputRoute] {
        routes.filter { route in input(of: route)?.isSameDevice(as: feeder) == true }
    }

    /// Checks the configuration as a whole and resolves the preset against each device: throws
    /// the first problem, naming what to change. Returns each input with the format and frame rate
    /// the preset asks of it (nil: keep the device's).
    func validate() throws(CaptureError) -> [(input: DeviceInput, choice: (format: DeviceFormat, frameRate: Double)?)] {
        if inputs.isEmpty, !outputs.isEmpty {
            throw .invalidConfiguration("no device input for the \(outputs.map(\.typeName).joined(separator: ", ")) — "
                + "add DeviceInput(camera) in the same configuration")
        }
        for route in routes where input(of: route) == nil {
            throw .invalidConfiguration(unfedMessage(route))
        }
        var resolved: [(input: DeviceInput, choice: (format: DeviceFormat, frameRate: Double)?)] = []
        for input in inputs {
            let device = input.device
            let choice = try preset.choice(among: device.formats, current: device.settings,
                                           device: "\(device.localizedName) (\(device.uniqueID))")
            let format = choice?.format ?? device.activeFormat
            for route in routes(fedBy: input) {
                try route.output.checkCompatibility(with: format.pictures)
            }
            resolved.append((input, choice))
        }
        return resolved
    }

    private mutating func add(_ output: some CaptureOutput, feeder: DeviceInput?) throws(CaptureError) -> CaptureConnection {
        guard connection(for: output) == nil else {
            throw .invalidConfiguration("this \(output.typeName) is already in the session — add each output once")
        }
        let connection = CaptureConnection()
        routes.append(OutputRoute(output: output, connection: connection, input: feeder))
        return connection
    }

    /// The input that feeds `route`, or nil when it names one not in the configuration, or names
    /// none while there is not exactly one.
    private func input(of route: OutputRoute) -> DeviceInput? {
        guard let feeder = route.input else { return inputs.count == 1 ? inputs[0] : nil }
        return inputs.first { $0.isSameDevice(as: feeder) }
    }

    /// Why `route`'s output has no input, and what to do.
    private func unfedMessage(_ route: OutputRoute) -> String {
        let output = route.output.typeName
        if let feeder = route.input {
            return "the \(output) is fed by \(feeder.device.uniqueID), which is not an input of the session — "
                + "add DeviceInput(camera) in the same configuration, or connect the \(output) to one of its inputs"
        }
        return "the \(output) has no input of its own and the session has \(inputs.count) device inputs "
            + "(\(inputs.map(\.device.uniqueID).joined(separator: ", "))) — add it with add(output, from: input) to say which feeds it"
    }
}

/// An output, the connection that feeds it, and the input it was added from (nil: the only one).
struct OutputRoute: Sendable {
    let output: any CaptureOutput
    let connection: CaptureConnection
    var input: DeviceInput?
}
