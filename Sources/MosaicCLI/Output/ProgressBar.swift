import Foundation
import MosaicSDK
import Synchronization

/// A one-line transfer progress bar on standard error (bytes, rate, time left), drawn only when
/// standard error is a terminal and `--json` is off; redrawn at most ten times a second.
final class ProgressBar: Sendable {
    private struct State {
        var last: ContinuousClock.Instant?
        var drawn = false
    }

    let label: String
    let enabled: Bool
    private let started = ContinuousClock.now
    private let state = Mutex(State())

    init(label: String, json: Bool) {
        self.label = label
        enabled = !json && isatty(2) == 1
    }

    /// The callback to hand to upload/download.
    var callback: (@Sendable (TransferProgress) -> Void)? {
        guard enabled else { return nil }
        let bar = self
        return { @Sendable p in bar.update(p) }
    }

    func update(_ p: TransferProgress) {
        let now = ContinuousClock.now
        let due = state.withLock { s -> Bool in
            if let last = s.last, now - last < .milliseconds(100), p.bytes < p.total { return false }
            s.last = now
            s.drawn = true
            return true
        }
        guard due else { return }
        Console.err("\r\u{1B}[K" + ProgressBar.line(label: label, bytes: p.bytes, total: p.total, elapsed: now - started))
    }

    /// The callback to hand to a folder upload, download or sync.
    var folderCallback: (@Sendable (FolderProgress) -> Void)? {
        guard enabled else { return nil }
        let bar = self
        return { @Sendable p in bar.update(folder: p) }
    }

    func update(folder p: FolderProgress) {
        let now = ContinuousClock.now
        let due = state.withLock { s -> Bool in
            if let last = s.last, now - last < .milliseconds(100), p.filesDone < p.filesTotal { return false }
            s.last = now
            s.drawn = true
            return true
        }
        guard due else { return }
        Console.err("\r\u{1B}[K" + ProgressBar.folderLine(label: label, p))
    }

    /// "upload 120/2000 files, 480 KiB/7.8 MiB, 35.2 files/s, 140 KiB/s".
    static func folderLine(label: String, _ p: FolderProgress) -> String {
        let bytes = "\(ByteSize.format(UInt64(max(0, p.bytesDone))))/\(ByteSize.format(UInt64(max(0, p.bytesTotal))))"
        let rate = String(format: "%.1f", p.filesPerSecond)
        return
            "\(label) \(p.filesDone)/\(p.filesTotal) files, \(bytes), \(rate) files/s, \(ByteSize.format(UInt64(max(0, p.bytesPerSecond))))/s"
    }

    /// Clears the line so the result prints cleanly.
    func finish() {
        if state.withLock({ $0.drawn }) { Console.err("\r\u{1B}[K") }
    }

    static func line(label: String, bytes: Int64, total: Int64, elapsed: Duration) -> String {
        let ms = max(1, elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000)
        let rate = UInt64(max(0, bytes)) * 1000 / UInt64(ms)
        let width = 24
        let filled = total > 0 ? Int(min(bytes, total) * Int64(width) / total) : width
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        let percent = total > 0 ? min(bytes, total) * 100 / total : 100
        var left = "--"
        if rate > 0, total >= bytes { left = DurationText.format(milliseconds: Int64((UInt64(total - bytes) / rate) * 1000)) }
        return
            "\(label) [\(bar)] \(percent)% \(ByteSize.format(UInt64(max(0, bytes))))/\(ByteSize.format(UInt64(max(0, total)))) \(ByteSize.format(rate))/s, \(left) left"
    }
}
