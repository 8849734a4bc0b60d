import CameraCore

/// A device's `DeviceSettings` behind a lock, changed only as a validated whole.
///
/// Each device owns one; `CaptureDevice.configure` goes through it. The generation counts the
/// committed configurations, so the 3A engine re-reads the settings only when they changed.
public final class DeviceSettingsStore: Sendable {
    private struct Snapshot {
        var settings: DeviceSettings
        var generation: UInt64
    }

    /// Serialises configurations; held while the user's closure runs on a copy.
    private let transaction = Locked(())
    /// The committed settings; held only to copy them in or out, so reading never waits on a closure.
    private let snapshot: Locked<Snapshot>

    public init(_ settings: DeviceSettings) {
        snapshot = Locked(Snapshot(settings: settings, generation: 0))
    }

    public var settings: DeviceSettings { snapshot.withLock { $0.settings } }

    /// The settings and how many configurations have been committed.
    public var versioned: (settings: DeviceSettings, generation: UInt64) {
        snapshot.withLock { ($0.settings, $0.generation) }
    }

    /// Runs `body` on a copy of the settings and commits the copy when `body` returns and the
    /// result validates; otherwise the settings stay as they were. Configurations run one at a
    /// time; `body` must not call `configure` again (reading `settings` is fine).
    public func update(formats: [DeviceFormat], capabilities: DeviceCapabilities,
                       _ body: (inout DeviceSettings) throws -> Void) throws {
        try transaction.withLock { _ in
            var copy = settings
            try body(&copy)
            try copy.validate(formats: formats, capabilities: capabilities)
            snapshot.withLock {
                $0.settings = copy
                $0.generation += 1
            }
        }
    }
}
