import CameraCore
import Foundation

/// The host names a request's `Host` may carry for one listener — the names this machine answers
/// to there — so that a web page cannot reach the server by pointing a domain of its own at one of
/// the machine's addresses (DNS rebinding).
///
/// A loopback listener admits loopback names (`localhost`, 127.0.0.0/8, ::1). Any other listener
/// also admits its exact listen host, the machine's host name and its interfaces' addresses; those
/// are read at start and again when a name is not among them, since interfaces come and go.
final class ListenerHosts: Sendable {
    private let address: ListenAddress
    private let machineNames: Locked<Set<String>>

    init(address: ListenAddress) {
        self.address = address
        machineNames = Locked(address.isLoopback ? [] : Self.currentMachineNames())
    }

    /// Whether `host` (a `Host` header's host, without port or brackets, any case) names this listener.
    func admits(_ host: String) -> Bool {
        let name = Self.normalised(host)
        if ListenAddress.isLoopbackName(name) { return true }
        guard !address.isLoopback else { return false }
        if name == Self.normalised(address.host) || machineNames.withLock({ $0.contains(name) }) { return true }
        let current = Self.currentMachineNames()
        machineNames.withLock { $0 = current }
        return current.contains(name)
    }

    /// The host name (`gethostname`) and every interface address, normalised.
    private static func currentMachineNames() -> Set<String> {
        var names = Set(InterfaceAddress.all().map { normalised($0.host) })
        var buffer = [CChar](repeating: 0, count: 256)
        if gethostname(&buffer, buffer.count) == 0 {
            let hostName = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if !hostName.isEmpty { names.insert(normalised(hostName)) }
        }
        return names
    }

    /// Lower-cased, without an IPv6 zone (`%eth0`, `%25eth0`) or a trailing dot.
    private static func normalised(_ host: String) -> String {
        var name = host.lowercased()
        if name.contains(":"), let zone = name.firstIndex(of: "%") { name = String(name[..<zone]) }
        if name.hasSuffix(".") { name.removeLast() }
        return name
    }
}
