import Foundation
import Synchronization

/// Where a folder transfer stands, for progress lines: files and plaintext bytes done of the
/// planned total, and the time since it started (so a rate can be shown).
public struct FolderProgress: Sendable, Equatable {
    /// Files finished (sent, fetched, or failed) so far.
    public let filesDone: Int
    /// Files the run will handle.
    public let filesTotal: Int
    /// Plaintext bytes moved so far, including the parts of files still in flight.
    public let bytesDone: Int64
    /// Plaintext bytes of every file the run will move.
    public let bytesTotal: Int64
    /// Milliseconds since the transfer started.
    public let elapsedMilliseconds: Int64

    /// Plaintext bytes per second so far.
    public var bytesPerSecond: Int64 { elapsedMilliseconds > 0 ? bytesDone / elapsedMilliseconds * 1000 : 0 }
    /// Files per second so far.
    public var filesPerSecond: Double {
        elapsedMilliseconds > 0 ? Double(filesDone) * 1000 / Double(elapsedMilliseconds) : 0
    }
}

/// Adds up the progress of the files in flight and reports the total; one lock, so the
/// concurrent transfers of a folder never see a half-updated count.
final class FolderProgressTracker: Sendable {
    private struct State {
        var filesDone = 0
        var finishedBytes: Int64 = 0
        var inFlight: [Int: Int64] = [:]
    }

    private let state = Mutex(State())
    private let filesTotal: Int
    private let bytesTotal: Int64
    private let started = ContinuousClock.now
    private let report: (@Sendable (FolderProgress) -> Void)?

    init(files: Int, bytes: Int64, report: (@Sendable (FolderProgress) -> Void)?) {
        filesTotal = files
        bytesTotal = bytes
        self.report = report
    }

    /// Bytes of file `id` moved so far.
    func moved(_ id: Int, bytes: Int64) {
        guard report != nil else { return }
        emit(
            state.withLock { s in
                s.inFlight[id] = bytes
                return snapshot(s)
            })
    }

    /// File `id` is finished, with `bytes` of it moved.
    func finished(_ id: Int, bytes: Int64) {
        emit(
            state.withLock { s in
                s.inFlight[id] = nil
                s.filesDone += 1
                s.finishedBytes &+= bytes
                return snapshot(s)
            })
    }

    private func snapshot(_ s: State) -> FolderProgress {
        let d = ContinuousClock.now - started
        return FolderProgress(
            filesDone: s.filesDone, filesTotal: filesTotal,
            bytesDone: s.inFlight.values.reduce(s.finishedBytes, &+), bytesTotal: bytesTotal,
            elapsedMilliseconds: d.components.seconds * 1000 + d.components.attoseconds / 1_000_000_000_000_000)
    }

    private func emit(_ p: FolderProgress) { report?(p) }
}
