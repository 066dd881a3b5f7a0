import Foundation
import Testing

@testable import MosaicApp

/// Only the four image formats are shown inline, judged by their bytes.
@Suite struct InlineImageTests {
    @Test func theFourSafeImagesAreRecognisedByTheirFirstBytes() {
        #expect(InlineImage.sniff([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]) == .png)
        #expect(InlineImage.sniff([0xFF, 0xD8, 0xFF, 0xE0]) == .jpeg)
        #expect(InlineImage.sniff(Array("GIF89a".utf8) + [1, 0]) == .gif)
        #expect(InlineImage.sniff(Array("GIF87a".utf8)) == .gif)
        #expect(InlineImage.sniff(Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WEBP".utf8)) == .webp)
    }

    @Test func scriptAndMarkupAreNeverAnImage() {
        for text in [
            "<svg xmlns=\"http://www.w3.org/2000/svg\" onload=\"alert(1)\"/>", "<!doctype html><script>alert(1)</script>",
            "<?xml version=\"1.0\"?><svg/>", "alert(document.cookie)", "", "RIFF....WAVE", "GIF8", "\u{FEFF}<svg/>",
        ] {
            #expect(InlineImage.sniff(Array(text.utf8)) == nil, "\(text)")
        }
        #expect(InlineImage.sniff([0x89, 0x50, 0x4E]) == nil, "a cut-off signature is not an image")
    }

    @Test func theFileNameInTheHeaderCannotEndItEarly() {
        let header = AppServer.contentDisposition("attachment", name: "a\"b\\c\r\nSet-Cookie: x=1;é.html")
        #expect(!header.contains("\r") && !header.contains("\n"))
        #expect(header.hasPrefix("attachment; filename=\"abcSet-Cookie: x=1;.html\"; filename*=UTF-8''"))
        #expect(header.hasSuffix("a%22b%5Cc%0D%0ASet-Cookie%3A%20x%3D1%3B%C3%A9.html"))
    }
}
