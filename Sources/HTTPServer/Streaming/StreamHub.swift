import CameraCore
import Foundation

/// Fans parts out to every subscribed client stream. The newest part is kept so that a client
/// that joins gets it at once instead of waiting for the next one.
final class StreamHub: Sendable {
    private struct State {
        var clients: [ObjectIdentifier: ResponseStream] = [:]
        var latest: Data?
    }

    private let state = Locked(State())

    var clientCount: Int {
        state.withLock { $0.clients.count }
    }

    /// Sends `part` to every client (each keeps only its newest parts) and remembers it.
    func publish(_ part: Data) {
        let clients = state.withLock { state in
            state.latest = part
            return Array(state.clients.values)
        }
        for client in clients { client.send(part) }
    }

    /// Adds `stream` as a client, primed with the newest part; it leaves when it closes.
    func subscribe(_ stream: ResponseStream) {
        let id = ObjectIdentifier(stream)
        let latest = state.withLock { state in
            state.clients[id] = stream
            return state.latest
        }
        if let latest { stream.send(latest) }
        stream.onClose { [weak self] in
            self?.state.withLock { _ = $0.clients.removeValue(forKey: id) }
        }
    }
}
