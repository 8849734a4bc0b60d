import CameraCapture

/// A `--source2` value, `SPEC[,position=front|back]`: the second of two cameras at once (CLI.md,
/// "Sources"). A simulated second camera faces the front unless told; `position=` is for simulated
/// cameras only, since a V4L2 camera or a file says where it faces itself.
struct SecondSource: Equatable {
    let source: SourceSpec
    /// Where a simulated second camera faces; `.unspecified` for other sources, which say it themselves.
    let position: DevicePosition

    private static let positions: [(name: String, position: DevicePosition)] = [("front", .front), ("back", .back)]

    init(parsing text: String) throws(CLIError) {
        var spec = text
        var position: DevicePosition?
        if let comma = text.lastIndex(of: ","), text[comma...].hasPrefix(",position=") {
            let name = text[comma...].dropFirst(",position=".count)
            guard let named = Self.positions.first(where: { $0.name == name }) else {
                throw .usage("--source2 '\(text)': position '\(name)' is not front or back — use position=front or position=back")
            }
            position = named.position
            spec = String(text[..<comma])
        }
        source = try SourceSpec(parsing: spec, flag: "--source2")
        if case .simulated = source {
            self.position = position ?? .front
        } else if position != nil {
            throw .usage("--source2 '\(text)': position= sets where a simulated camera faces — a v4l2: or file: source says it "
                + "itself; leave position= out")
        } else {
            self.position = .unspecified
        }
    }
}
