import CPQ

#if canImport(Glibc)
    import Glibc
#endif

/// A `NOTIFY channel, 'payload'` delivered to a connection that ran `LISTEN channel`: how a node
/// learns of a block another node committed to the same database.
package struct PostgresNotification: Sendable, Equatable {
    package let channel: String
    package let payload: String
    /// The server process that sent it.
    package let senderPID: Int32

    package init(channel: String, payload: String, senderPID: Int32) {
        self.channel = channel
        self.payload = payload
        self.senderPID = senderPID
    }
}

extension PostgresConnection {
    /// Notifications that arrived for this connection's `LISTEN`s, waiting up to `timeout`
    /// milliseconds for the first one (0: only what has arrived). Empty on timeout.
    package func notifications(timeout milliseconds: Int32) throws(PostgresError) -> [PostgresNotification] {
        guard let handle = connectionHandle else { throw .closed }
        var out = PostgresConnection.drainNotifications(handle)
        if !out.isEmpty { return out }
        let socket = PQsocket(handle)
        guard socket >= 0 else { throw .connectionLost(message: "no socket") }
        var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        let ready = poll(&descriptor, 1, max(milliseconds, 0))
        if ready < 0 && errno != EINTR { throw .connectionLost(message: String(cString: strerror(errno))) }
        if ready > 0 {
            guard PQconsumeInput(handle) == 1 else {
                throw .connectionLost(message: String(cString: PQerrorMessage(handle)))
            }
            out = PostgresConnection.drainNotifications(handle)
        }
        return out
    }

    private static func drainNotifications(_ handle: OpaquePointer) -> [PostgresNotification] {
        var out: [PostgresNotification] = []
        while let n = PQnotifies(handle) {
            out.append(
                PostgresNotification(
                    channel: n.pointee.relname.map { String(cString: $0) } ?? "",
                    payload: n.pointee.extra.map { String(cString: $0) } ?? "", senderPID: n.pointee.be_pid))
            PQfreemem(n)
        }
        return out
    }
}
