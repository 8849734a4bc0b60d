import CameraCore

/// How long a live stream waits before each reconnection attempt, as OBS does it: 2 s first, then
/// ×1.5 each time (OBS: `reconnect_retry_sec` 2, `reconnect_retry_exp` 1.5 plus a random
/// 0–0.05), each delay jittered by ±10 % so that many cameras behind one router do not retry in
/// step. Capped at 5 s, where OBS allows minutes: the server's return must be noticed within 5 s,
/// however long it was away. A successful connection starts the sequence again.
struct ReconnectBackoff {
    static let firstDelay = 2.0
    static let factor = 1.5
    static let longestDelay = 5.0
    static let jitter = 0.1

    private var nextDelay = Self.firstDelay
    private var random: SplitMix64

    init(seed: UInt64) {
        random = SplitMix64(seed: seed)
    }

    /// The delay before the next attempt, seconds; each call grows the one after.
    mutating func next() -> Double {
        let base = nextDelay
        nextDelay = min(nextDelay * Self.factor, Self.longestDelay)
        return min(base * (1 + Double.random(in: -Self.jitter...Self.jitter, using: &random)), Self.longestDelay)
    }

    /// Back to the first delay, after a connection succeeded.
    mutating func reset() {
        nextDelay = Self.firstDelay
    }
}
