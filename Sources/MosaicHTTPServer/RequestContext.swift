import CMicroHTTPD
import Foundation
import MosaicHTTP
import Synchronization

/// Per-request state living from the first access-handler call to MHD's completion callback.
/// `@unchecked Sendable`: it holds the MHD connection pointer; the body fields are touched only
/// by the one MHD worker thread owning the connection, everything shared sits in `shared`.
final class RequestContext: @unchecked Sendable {
    struct Shared {
        var suspended = false
        var closed = false
        var stopping = false
        var taskStarted = false
        var response: HTTPResponse?
    }

    let connection: OpaquePointer
    let started = ContinuousClock.now
    let method: String
    let path: String
    let shared = Mutex(Shared())

    // Owned by the connection's MHD thread.
    var route: Route?
    var request: HTTPRequest?
    var body = Data()
    var bodyLimit: Int64 = 0
    /// Request body bytes received so far (for `/metrics`).
    var bytesIn: Int64 = 0
    var tooLarge = false
    var stream: RequestBodyStream?
    var responded = false

    // Written when the response is queued, read at completion (same MHD thread).
    var status = 0
    var bytes: Int64 = 0
    var producer: StreamProducer?

    init(connection: OpaquePointer, method: String, path: String) {
        self.connection = connection
        self.method = method
        self.path = path
    }

    /// Pauses reading this connection; call only from its MHD thread.
    func suspend(_ s: inout Shared) {
        s.suspended = true
        MHD_suspend_connection(connection)
    }

    /// Applies `update`, then lets MHD process the connection again if it was suspended.
    /// MHD_resume_connection is called outside the lock (it takes MHD's own locks); only the
    /// caller that flips `suspended` resumes, and a suspended connection cannot be closed meanwhile.
    func resumeIfSuspended(_ update: (inout Shared) -> Void = { _ in }) {
        let wake = shared.withLock { s -> Bool in
            update(&s)
            guard s.suspended, !s.closed else { return false }
            s.suspended = false
            return true
        }
        if wake { MHD_resume_connection(connection) }
    }

    /// The handler's answer; wakes the connection if it was waiting for it.
    func deliver(_ response: HTTPResponse) {
        stream?.abandon()
        resumeIfSuspended { $0.response = response }
    }
}
