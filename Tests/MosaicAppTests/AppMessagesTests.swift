import Foundation
import MosaicHTTP
import MosaicHTTPServer
import MosaicSDK
import Testing

@testable import MosaicApp

/// The web app's words: the suggested lock of a new allocation, and storage errors as sentences
/// for a page (no command-line hints such as 'mosaic ls', --replace or 'mosaic repair').
@Suite struct AppMessagesTests {
    @Test func theSuggestedLockIsTheQuotePlusATenthRoundedUp() {
        // 0.02 tokens (2e8 base units) → 0.022.
        #expect(AppServer.suggestedLock(200_000_000) == 220_000_000)
        #expect(AppServer.suggestedLock(199_999_999) == 220_000_000)
        #expect(AppServer.suggestedLock(1) == 1)
        #expect(AppServer.suggestedLock(0) == 0)
        #expect(AppServer.suggestedLock(UInt64.max) == UInt64.max)
        for q: UInt64 in [7, 99, 101, 12_345, 987_654_321, 1 << 60] {
            let lock = AppServer.suggestedLock(q)
            #expect(lock >= q + q / 10, "\(q) → \(lock)")
        }
    }

    @Test func storageErrorsReadAsSentencesWithoutCLIHints() {
        let errors: [StorageClientError] = [
            .notFound(path: "/a/report.pdf"), .alreadyExists(path: "/a/report.pdf"),
            .unreadable(path: "/a/report.pdf", reason: "2 of 4 answered"),
            .expired(allocation: String(repeating: "a", count: 64), at: 1_700_000_000),
            .lockerFile(path: "/locker/x"), .tooFewBlobbers(needed: 3, reached: 1, failures: [:]),
        ]
        for e in errors {
            let h = AppServer.httpError(client: e)
            #expect(!h.message.contains("mosaic "), "\(h.message)")
            #expect(!h.message.contains("--"), "\(h.message)")
            #expect(h.status >= 400 && h.status < 500)
            #expect(h.message.hasSuffix("."), "\(h.message)")
        }
        #expect(AppServer.httpError(client: .alreadyExists(path: "/a/report.pdf")).code == "exists")
        #expect(AppServer.httpError(client: .notFound(path: "/a/report.pdf")).status == 404)
    }
}
