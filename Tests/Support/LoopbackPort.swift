import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A run of `count` consecutive loopback ports that are free now, for servers a test must restart
/// at the same URL. Picked below Linux's ephemeral range (32768–60999), where outgoing connections
/// of other tests could take them at any moment.
public func freeLoopbackPorts(_ count: Int) -> UInt16 {
    while true {
        let base = UInt16.random(in: 20000...(32000 - UInt16(count)))
        if (0..<count).allSatisfy({ canBind(base + UInt16($0)) }) { return base }
    }
}

private func canBind(_ port: UInt16) -> Bool {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    var addr = sockaddr_in()
    addr.sin_family = sa_family_t(AF_INET)
    addr.sin_port = port.bigEndian
    addr.sin_addr.s_addr = inet_addr("127.0.0.1")
    return withUnsafePointer(to: &addr) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
    }
}
