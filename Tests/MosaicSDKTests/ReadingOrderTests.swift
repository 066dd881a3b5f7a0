import Testing

@testable import MosaicSDK

/// Which blobbers a download reads first, from how fast each answered the file's metadata.
@Suite struct ReadingOrderTests {
    @Test func dataFragmentsComeFirstAmongBlobbersAboutAsFastAsTheFastest() {
        // 2+2 on one machine: every answer within a few ms; parity 3 happened to be fastest.
        let close: [(index: Int, took: Duration)] = [
            (3, .milliseconds(1)), (1, .milliseconds(2)), (2, .milliseconds(2)), (0, .milliseconds(4)),
        ]
        #expect(StorageClient.readingOrder(close, dataShards: 2) == [1, 0, 3, 2])
    }

    @Test func aSlowDataFragmentWaitsBehindFastParity() {
        // Data fragment 0 is far away: reading parity and rebuilding beats waiting for it.
        let spread: [(index: Int, took: Duration)] = [
            (0, .milliseconds(300)), (1, .milliseconds(20)), (2, .milliseconds(22)), (3, .milliseconds(25)),
        ]
        #expect(StorageClient.readingOrder(spread, dataShards: 2) == [1, 2, 3, 0])
        #expect(StorageClient.readingOrder([], dataShards: 2) == [])
    }
}
