import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Bridges URLSession's data delegate to an AsyncThrowingStream.
/// `@unchecked Sendable`: URLSession calls it on its serial delegate queue; the hand-off state is locked.
final class StreamingDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private var headContinuation: CheckedContinuation<HTTPURLResponse, Error>?
    private var continuation: AsyncThrowingStream<Data, Error>.Continuation?
    private var body: AsyncThrowingStream<Data, Error>?

    func start(_ task: URLSessionDataTask) async throws -> (HTTPURLResponse, AsyncThrowingStream<Data, Error>) {
        let (stream, cont) = AsyncThrowingStream<Data, Error>.makeStream()
        lock.withLock { continuation = cont }
        cont.onTermination = { @Sendable reason in
            if case .cancelled = reason { task.cancel() }
        }
        let head = try await withCheckedThrowingContinuation { (c: CheckedContinuation<HTTPURLResponse, Error>) in
            lock.withLock { headContinuation = c }
            task.resume()
        }
        return (head, stream)
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        let c = lock.withLock { () -> CheckedContinuation<HTTPURLResponse, Error>? in
            defer { headContinuation = nil }
            return headContinuation
        }
        if let http = response as? HTTPURLResponse {
            c?.resume(returning: http)
        } else {
            c?.resume(throwing: HTTPClientError(status: 0, code: "transport", message: "not an HTTP response"))
        }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        _ = lock.withLock { continuation }?.yield(data)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        let (h, c) = lock.withLock { () -> (CheckedContinuation<HTTPURLResponse, Error>?, AsyncThrowingStream<Data, Error>.Continuation?) in
            defer {
                headContinuation = nil
                continuation = nil
            }
            return (headContinuation, continuation)
        }
        let failure = error.map { HTTPClientError(status: 0, code: "transport", message: $0.localizedDescription) }
        if let h { h.resume(throwing: failure ?? HTTPClientError(status: 0, code: "transport", message: "no response")) }
        if let failure { c?.finish(throwing: failure) } else { c?.finish() }
    }
}
