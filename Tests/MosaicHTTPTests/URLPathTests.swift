import Foundation
import Testing

@testable import MosaicHTTP
@testable import MosaicHTTPServer

/// A path built from hostile input (an id from a request body) once trapped in Foundation
/// ("percentEncodedPath with invalid characters") and took the web app down. It is now encoded.
extension MosaicHTTPTests {
    @Suite struct URLPathTests {
        @Test func invalidCharactersAreEncodedAndEscapesKept() {
            #expect(URLPath.encode("/v1/a b/%41/%zz/\u{98}¬L") == "/v1/a%20b/%41/%25zz/%C2%98%C2%ACL")
            #expect(URLPath.encode("/x\r\nHost: evil") == "/x%0D%0AHost:%20evil")
            #expect(URLPath.target("/v1/files?path=%2Fa&x=1 2") == "/v1/files?path=%2Fa&x=1%202")
            #expect(
                URLPath.encode("/v1/storage/allocations/" + String(repeating: "ab", count: 32)) == "/v1/storage/allocations/"
                    + String(repeating: "ab", count: 32))
        }

        @Test func aClientRequestWithAHostilePathIsSentEncodedInsteadOfTrapping() async throws {
            try await withServer({ s in
                s.route(.get, "/v1/items/:id", summary: "Echo", parameters: [Path.string("id", .string(maxLength: 256), "id")]) { req in
                    .text(try req.param("id"))
                }
            }) { _, client in
                let r = try await client.send(.get, "/v1/items/\u{98}¬L %zz")
                #expect(String(decoding: r.body, as: UTF8.self) == "\u{98}¬L %zz")
                let bulk = try #require(BulkHTTPConnection(baseURL: client.baseURL, timeout: 10))
                let b = try await bulk.send(.get, "/v1/items/a b\r\nX: y", body: Data())
                #expect(String(decoding: b.body, as: UTF8.self) == "a b\r\nX: y")
            }
        }
    }
}
