import Foundation
import Testing

@testable import MosaicHTTP
@testable import MosaicHTTPServer

/// Declared parameters are checked by the server before a handler runs: the attacks (huge,
/// negative, non-numeric, too long, unknown words) are 400s that name the parameter and its
/// bounds, the handler never sees them, and `/openapi.json` publishes the same types and bounds.
extension MosaicHTTPTests {
    @Suite struct ParameterTests {
        static let round = Path.integer("round", in: UInt64(0)...UInt64(Int64.max), "a round")
        static let limit = Query.integer("limit", in: 1...100, default: 20, "page size")
        static let before = Query.integer("before", in: Int64(0)...Int64.max, "below this")
        static let timeout = Query.number("timeout", in: 0...60, default: 30, "seconds")
        static let order = Query.string("order", .choice(["asc", "desc"]), default: "desc", "order")
        static let owner = Query.requiredString("owner", .hex64, "owner id")
        static let recursive = Query.boolean("recursive", "everything below")
        static let offset = Header.integer("X-Offset", in: Int64(0)...Int64.max, "stream offset")

        struct Seen: Codable, Equatable {
            var round: UInt64, limit: Int, before: Int64?, timeout: Double, order: String, owner: String, recursive: Bool, offset: Int64?
        }

        static func register(_ calls: Box<Int>) -> (HTTPServer) -> Void {
            { s in
                s.route(
                    .get, "/v1/things/:round", summary: "Typed parameters",
                    parameters: [round, limit, before, timeout, order, owner, recursive, offset]
                ) { req in
                    calls.mutate { $0 += 1 }
                    return try .json(
                        Seen(
                            round: try req[round], limit: try req[limit], before: try req[before], timeout: try req[timeout],
                            order: try req[order], owner: try req[owner], recursive: try req[recursive], offset: try req[offset]))
                }
            }
        }

        static let owner64 = String(repeating: "a", count: 64)

        /// GET of `target` ("/path?a=1&b=2"; values unencoded), answering status and body text.
        func status(_ client: HTTPClient, _ target: String, headers: [String: String] = [:]) async throws -> (Int, String) {
            do {
                let r = try await get(client, target, headers: headers)
                return (r.status, String(decoding: r.body, as: UTF8.self))
            } catch let e as HTTPClientError {
                return (e.status, e.code + ": " + e.message)
            }
        }

        func get(_ client: HTTPClient, _ target: String, headers: [String: String] = [:]) async throws -> HTTPClientResponse {
            let parts = target.split(separator: "?", maxSplits: 1)
            var query: [String: String] = [:]
            for pair in (parts.count > 1 ? parts[1] : "").split(separator: "&") {
                let kv = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                query[String(kv[0])] = kv.count > 1 ? String(kv[1]) : ""
            }
            return try await client.send(.get, String(parts[0]), query: query, headers: headers)
        }

        @Test func checkedValuesReachTheHandlerTyped() async throws {
            let calls = Box(0)
            try await withServer(Self.register(calls)) { _, client in
                let r = try await get(
                    client, "/v1/things/9223372036854775807?owner=\(Self.owner64)&before=5&timeout=0.25&recursive=1",
                    headers: ["X-Offset": "42"])
                let seen = try JSONDecoder().decode(Seen.self, from: r.body)
                #expect(
                    seen
                        == Seen(
                            round: UInt64(Int64.max), limit: 20, before: 5, timeout: 0.25, order: "desc", owner: Self.owner64,
                            recursive: true, offset: 42))
                // An empty query value means the default.
                let d = try JSONDecoder().decode(Seen.self, from: try await get(client, "/v1/things/0?owner=\(Self.owner64)&limit=").body)
                #expect(d.limit == 20 && d.before == nil && d.offset == nil && !d.recursive)
                #expect(calls.value == 2)
            }
        }

        @Test func hostileValuesAre400sNamingTheParameterAndItsBoundAndNeverReachTheHandler() async throws {
            let calls = Box(0)
            try await withServer(Self.register(calls)) { _, client in
                let q = "owner=\(Self.owner64)"
                let attacks: [(String, [String: String], String, String)] = [
                    ("/v1/things/9223372036854775808?\(q)", [:], "'round'", "9223372036854775807"),
                    ("/v1/things/18446744073709551616?\(q)", [:], "'round'", "from 0"),
                    ("/v1/things/-1?\(q)", [:], "'round'", "from 0"),
                    ("/v1/things/abc?\(q)", [:], "'round'", "an integer"),
                    ("/v1/things/1?\(q)&limit=0", [:], "'limit'", "from 1 to 100"),
                    ("/v1/things/1?\(q)&limit=101", [:], "'limit'", "from 1 to 100"),
                    ("/v1/things/1?\(q)&limit=99999999999999999999999", [:], "'limit'", "from 1 to 100"),
                    ("/v1/things/1?\(q)&limit=1e2", [:], "'limit'", "an integer"),
                    ("/v1/things/1?\(q)&before=-9223372036854775809", [:], "'before'", "from 0"),
                    ("/v1/things/1?\(q)&timeout=1e308", [:], "'timeout'", "from 0 to 60"),
                    ("/v1/things/1?\(q)&timeout=NaN", [:], "'timeout'", "a number"),
                    ("/v1/things/1?\(q)&timeout=inf", [:], "'timeout'", "a number"),
                    ("/v1/things/1?\(q)&timeout=-0.5", [:], "'timeout'", "a number"),
                    ("/v1/things/1?\(q)&order=sideways", [:], "'order'", "one of asc, desc"),
                    ("/v1/things/1?\(q)&recursive=yes", [:], "'recursive'", "true or false"),
                    ("/v1/things/1", [:], "'owner' is required", "64 lowercase hex"),
                    ("/v1/things/1?owner=\(String(repeating: "A", count: 64))", [:], "'owner'", "64 lowercase hex"),
                    ("/v1/things/1?owner=\(String(repeating: "a", count: 65))", [:], "'owner'", "64 lowercase hex"),
                    ("/v1/things/1?\(q)", ["X-Offset": "9223372036854775808"], "'X-Offset'", "from 0"),
                    ("/v1/things/1?\(q)", ["X-Offset": "-1"], "'X-Offset'", "from 0"),
                ]
                for (path, headers, name, bound) in attacks {
                    let (code, text) = try await status(client, path, headers: headers)
                    #expect(code == 400, "\(path) → \(code)")
                    #expect(text.contains(name) && text.contains(bound), "\(path): \(text)")
                }
                #expect(calls.value == 0)
                // Still serving.
                #expect(try await status(client, "/v1/things/1?\(q)").0 == 200)
            }
        }

        @Test func openAPIPublishesTheDeclaredTypesAndBounds() async throws {
            try await withServer(Self.register(Box(0))) { _, client in
                let r = try await client.send(.get, "/openapi.json")
                let doc = try #require(try JSONSerialization.jsonObject(with: r.body) as? [String: Any])
                let op = try #require(((doc["paths"] as? [String: Any])?["/v1/things/{round}"] as? [String: Any])?["get"] as? [String: Any])
                let params = try #require(op["parameters"] as? [[String: Any]])
                func schema(_ name: String) -> [String: Any] {
                    params.first { $0["name"] as? String == name }?["schema"] as? [String: Any] ?? [:]
                }
                #expect(schema("round")["type"] as? String == "integer")
                #expect((schema("round")["maximum"] as? NSNumber)?.int64Value == Int64.max)
                #expect(params.first { $0["name"] as? String == "round" }?["in"] as? String == "path")
                #expect(schema("limit")["type"] as? String == "integer")
                #expect((schema("limit")["minimum"] as? NSNumber)?.intValue == 1)
                #expect((schema("limit")["maximum"] as? NSNumber)?.intValue == 100)
                #expect((schema("limit")["default"] as? NSNumber)?.intValue == 20)
                #expect(schema("timeout")["type"] as? String == "number")
                #expect(schema("order")["enum"] as? [String] == ["asc", "desc"])
                #expect(schema("owner")["pattern"] as? String == "^[0-9a-f]{64}$")
                #expect((schema("owner")["maxLength"] as? NSNumber)?.intValue == 64)
                #expect(params.first { $0["name"] as? String == "owner" }?["required"] as? Bool == true)
                #expect(schema("recursive")["type"] as? String == "boolean")
                #expect(params.first { $0["name"] as? String == "X-Offset" }?["in"] as? String == "header")
                let responses = try #require(op["responses"] as? [String: Any])
                #expect(responses["200"] != nil && responses["400"] != nil)
            }
        }

        @Test func bodySchemasAndSuccessStatusesArePublished() async throws {
            try await withServer({ s in
                s.route(
                    .post, "/v1/votes", summary: "Vote",
                    body: .json(
                        .object(
                            [("id", .hex64), ("weight", .integer(-10_000...10_000)), ("note", .string(maxLength: 80))],
                            required: ["id", "weight"])),
                    statuses: [201, 202], errors: [409]
                ) { _ in .text("ok", status: 201) }
            }) { _, client in
                let r = try await client.send(.get, "/openapi.json")
                let doc = try #require(try JSONSerialization.jsonObject(with: r.body) as? [String: Any])
                let op = try #require(((doc["paths"] as? [String: Any])?["/v1/votes"] as? [String: Any])?["post"] as? [String: Any])
                let body = try #require(op["requestBody"] as? [String: Any])
                #expect(body["required"] as? Bool == true)
                let schema = try #require(
                    (((body["content"] as? [String: Any])?["application/json"] as? [String: Any])?["schema"]) as? [String: Any])
                #expect(schema["required"] as? [String] == ["id", "weight"])
                let weight = try #require((schema["properties"] as? [String: Any])?["weight"] as? [String: Any])
                #expect(weight["type"] as? String == "integer")
                #expect((weight["minimum"] as? NSNumber)?.intValue == -10_000)
                #expect((weight["maximum"] as? NSNumber)?.intValue == 10_000)
                let responses = try #require(op["responses"] as? [String: Any])
                #expect(Set(responses.keys) == ["201", "202", "400", "409", "413", "default"])
            }
        }

        @Test func parameterTypesParseOnlyWhatTheyDeclare() {
            #expect(ParameterType.round.parse("9223372036854775807") == .integer(Int64.max))
            #expect(ParameterType.round.parse("9223372036854775808") == nil)
            #expect(ParameterType.round.parse("-0") == .integer(0))
            #expect(ParameterType.number(0...60).parse("0x1p3") == nil)
            #expect(ParameterType.number(0...60).parse("1e1") == nil)
            #expect(ParameterType.number(0...60).parse("12.5") == .number(12.5))
            #expect(ParameterType.hex64.parse(String(repeating: "0", count: 63) + "g") == nil)
            #expect(
                ParameterType.either(.round, .hex64).parse(String(repeating: "f", count: 64)) == .string(String(repeating: "f", count: 64)))
            #expect(ParameterType.string(maxLength: 3).parse("abcd") == nil)
            #expect(ParameterType.string(maxLength: 4).parse("ééé") == nil)  // bytes, not characters
        }
    }
}
