/// The stabilisation a connection asks for. Carried with each frame to its consumers (a recorder
/// or a preview that crops and shifts); the session itself does not stabilise.
public enum VideoStabilizationMode: String, Sendable, Hashable, CaseIterable {
    case off
    /// Mild stabilisation with little latency, for previews and calls.
    case standard
    /// Strong stabilisation for recordings, at the cost of latency and a tighter crop.
    case cinematic
}
