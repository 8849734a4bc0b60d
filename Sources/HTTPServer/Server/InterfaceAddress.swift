import Foundation

/// An address of one of this machine's network interfaces, as `getifaddrs(3)` lists it: what a
/// wildcard listener (0.0.0.0, ::) can be reached at, and what a request's `Host` may name.
public struct InterfaceAddress: Sendable, Equatable {
    /// The numeric address, e.g. `192.168.1.20` or `fd00::2` (without an IPv6 zone).
    public let host: String
    public let isIPv6: Bool
    /// 127.0.0.0/8 or ::1, or an interface flagged `IFF_LOOPBACK`: only this machine can use it.
    public let isLoopback: Bool
    /// 169.254.0.0/16 or fe80::/10: valid on one link only, and an IPv6 one needs its zone in a URL.
    public let isLinkLocal: Bool

    /// The addresses of the interfaces that are up, in the system's order; empty when they cannot be read.
    public static func all() -> [InterfaceAddress] {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0 else { return [] }
        defer { freeifaddrs(list) }
        var addresses: [InterfaceAddress] = []
        var next = list
        while let entry = next?.pointee {
            next = entry.ifa_next
            guard entry.ifa_flags & UInt32(IFF_UP) != 0, let address = entry.ifa_addr,
                  let parsed = InterfaceAddress(address, loopbackInterface: entry.ifa_flags & UInt32(IFF_LOOPBACK) != 0)
            else { continue }
            addresses.append(parsed)
        }
        return addresses
    }

    /// The IPv4 or IPv6 address at `address`; nil for other families.
    private init?(_ address: UnsafePointer<sockaddr>, loopbackInterface: Bool) {
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        switch Int32(address.pointee.sa_family) {
        case AF_INET:
            var v4 = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr }
            guard inet_ntop(AF_INET, &v4, &text, socklen_t(text.count)) != nil else { return nil }
            isIPv6 = false
            isLinkLocal = UInt32(bigEndian: v4.s_addr) >> 16 == 0xA9FE
        case AF_INET6:
            var v6 = address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee.sin6_addr }
            guard inet_ntop(AF_INET6, &v6, &text, socklen_t(text.count)) != nil else { return nil }
            isIPv6 = true
            let firstBytes = withUnsafeBytes(of: v6) { ($0[0], $0[1]) }
            isLinkLocal = firstBytes.0 == 0xFE && firstBytes.1 & 0xC0 == 0x80
        default:
            return nil
        }
        host = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        isLoopback = loopbackInterface || ListenAddress.isLoopbackName(host)
    }
}
