import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// URLSession calls whose Swift-task cancellation cannot deadlock.
///
/// corelibs' own async `data(for:)`/`download(for:)` cancel the URLSessionTask synchronously from
/// inside the Swift task's cancellation handler, which holds the task's status lock while it
/// waits for the session's queue; if the session is at that moment completing the same request,
/// its queue waits for that lock: both threads stop for good (seen as a hung test run when a
/// task group cancelled a slow download). Here the handler only schedules `cancel()` elsewhere.
extension URLSession {
    func cancellableData(for request: URLRequest) async throws -> (Data, URLResponse) {
        let box = TaskBox()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (c: CheckedContinuation<(Data, URLResponse), any Error>) in
                let task = dataTask(with: request) { data, response, error in
                    if let error {
                        c.resume(throwing: URLSession.urlError(error))
                    } else if let response {
                        c.resume(returning: (data ?? Data(), response))
                    } else {
                        c.resume(throwing: URLError(.badServerResponse))
                    }
                }
                box.start(task)
            }
        } onCancel: {
            box.cancel()
        }
    }

    /// Downloads to a temp file that the caller owns (it is moved out of URLSession's hands
    /// before the completion handler returns, since URLSession deletes its own file then).
    func cancellableDownload(for request: URLRequest) async throws -> (URL, URLResponse) {
        let box = TaskBox()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (c: CheckedContinuation<(URL, URLResponse), any Error>) in
                let task = downloadTask(with: request) { url, response, error in
                    if let error { return c.resume(throwing: URLSession.urlError(error)) }
                    guard let url, let response else { return c.resume(throwing: URLError(.badServerResponse)) }
                    let kept = FileManager.default.temporaryDirectory.appendingPathComponent("mosaic-dl-\(UUID().uuidString)")
                    do {
                        try FileManager.default.moveItem(at: url, to: kept)
                        c.resume(returning: (kept, response))
                    } catch {
                        c.resume(throwing: URLError(.cannotMoveFile))
                    }
                }
                box.start(task)
            }
        } onCancel: {
            box.cancel()
        }
    }

    static func urlError(_ error: any Error) -> any Error {
        if error is URLError { return error }
        let ns = error as NSError
        if ns.domain == NSURLErrorDomain, let code = URLError.Code(rawValue: ns.code) { return URLError(code) }
        return error
    }
}

/// Holds the running URLSessionTask so a cancellation that arrives before or after it starts
/// still reaches it, always from another queue.
private final class TaskBox: @unchecked Sendable {
    // Guarded by `lock`.
    private var task: URLSessionTask?
    private var cancelled = false
    private let lock = NSLock()

    func start(_ task: URLSessionTask) {
        lock.lock()
        self.task = task
        let already = cancelled
        lock.unlock()
        task.resume()
        if already { DispatchQueue.global().async { task.cancel() } }
    }

    func cancel() {
        lock.lock()
        cancelled = true
        let t = task
        lock.unlock()
        if let t { DispatchQueue.global().async { t.cancel() } }
    }
}
