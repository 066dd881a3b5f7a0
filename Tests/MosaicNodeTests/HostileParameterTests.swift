import Foundation
import MosaicCrypto
import MosaicProtocol
import Testing

/// The attacks of issue 11 on the node's numeric parameters: huge, negative and non-numeric
/// rounds, limits, offsets, `before` and timeouts. Once these killed the whole node (arithmetic
/// overflow in `GET /v1/blocks/9223372036854775808`); now each is a 400 `malformed` that names
/// the parameter and its bound, and the node goes on serving.
@Suite(.timeLimit(.minutes(3))) struct HostileParameterTests {
    /// Values no integer parameter of the node accepts (percent-encoded where needed).
    static let hostile = [
        "9223372036854775808", "18446744073709551615", "18446744073709551616", "99999999999999999999999",
        "-1", "-9223372036854775809", "1e9", "abc", "0x10", "1%20", "%EF%BC%91", "1.5", "NaN",
    ]

    /// Sends each request and checks: 400 `malformed` naming `parameter`, then `/health` still 200.
    func expectRefused(_ net: TestDevnet, _ paths: [String], parameter: String) async throws {
        for path in paths {
            let r = try await net.raw("GET", path)
            #expect(r.status == 400, "\(path) answered \(r.status)")
            let error = net.json(r.body)["error"] as? [String: Any]
            #expect(error?["code"] as? String == "malformed", "\(path)")
            let message = error?["message"] as? String ?? ""
            #expect(message.contains("'\(parameter)'"), "\(path): \(message)")
            #expect(try await net.raw("GET", "/health").status == 200, "the node stopped serving after \(path)")
        }
    }

    @Test func hugeNegativeAndNonNumericRoundsInBlockPathsAre400AndTheNodeKeepsServing() async throws {
        let net = try TestDevnet()
        let paths = Self.hostile.flatMap { ["/v1/blocks/\($0)", "/explorer/block/\($0)"] }
        try await expectRefused(net, paths, parameter: "id")
        // The largest round the ledger can hold is a plain "not found".
        #expect(try await net.raw("GET", "/v1/blocks/\(Int64.max)").status == 404)
        #expect(try await net.raw("GET", "/v1/blocks/0").status == 200)
        await net.stop()
    }

    @Test func hostileBeforeAndLimitOfTheBlockListAre400() async throws {
        let net = try TestDevnet()
        try await expectRefused(net, Self.hostile.map { "/v1/blocks?before=\($0)" }, parameter: "before")
        try await expectRefused(net, (Self.hostile + ["101"]).map { "/v1/blocks?limit=\($0)" }, parameter: "limit")
        let ok = try await net.raw("GET", "/v1/blocks?before=\(Int64.max)&limit=100")
        #expect(ok.status == 200)
        await net.stop()
    }

    @Test func hostileLimitAndOffsetOfAnAccountsHistoryAre400() async throws {
        let net = try TestDevnet()
        let id = net.alice.publicKey.clientID
        try await expectRefused(net, (Self.hostile + ["1001"]).map { "/v1/accounts/\(id)/transactions?limit=\($0)" }, parameter: "limit")
        try await expectRefused(
            net, (Self.hostile + ["2147483648"]).map { "/v1/accounts/\(id)/transactions?offset=\($0)" }, parameter: "offset")
        try await expectRefused(net, (Self.hostile + ["2147483648"]).map { "/explorer/account/\(id)?offset=\($0)" }, parameter: "offset")
        try await expectRefused(net, Self.hostile.map { "/explorer/block/0?offset=\($0)" }, parameter: "offset")
        #expect(try await net.raw("GET", "/v1/accounts/\(id)/transactions?limit=1000&offset=2147483647").status == 200)
        #expect(try await net.raw("GET", "/explorer/account/\(id)?offset=2147483647").status == 200)
        await net.stop()
    }

    @Test func hostileTimeoutsOfALongPollAre400AndNeverHang() async throws {
        let net = try TestDevnet()
        let hash = String(repeating: "ab", count: 32)
        let timeouts = ["1e308", "-1", "NaN", "inf", "61", "99999999999999999999", "abc", "30s"]
        try await expectRefused(net, timeouts.map { "/v1/transactions/\(hash)?wait=sealed&timeout=\($0)" }, parameter: "timeout")
        try await expectRefused(
            net, ["expired", "x", ""].compactMap { $0.isEmpty ? nil : "/v1/transactions/\(hash)?wait=\($0)" },
            parameter: "wait")
        let start = ContinuousClock.now
        #expect(try await net.raw("GET", "/v1/transactions/\(hash)?wait=sealed&timeout=0.2").status == 404)
        #expect(ContinuousClock.now - start < .seconds(10))
        await net.stop()
    }

    @Test func hostileRoundsOfContractViewsAre400InTheQueryAndTheBody() async throws {
        let net = try TestDevnet()
        try await expectRefused(net, Self.hostile.map { "/v1/contracts/notes/views/stats?round=\($0)" }, parameter: "round")
        let body = Data(#"{"args":{},"round":9223372036854775808}"#.utf8)
        let r = try await net.raw("POST", "/v1/contracts/notes/views/stats", body: body)
        #expect(r.status == 400)
        #expect(try await net.raw("GET", "/health").status == 200)
        await net.stop()
    }

    @Test func hostileStorageQuoteArgumentsAre400() async throws {
        let net = try TestDevnet()
        let good = ["size": "1024", "data": "2", "parity": "1", "expire": "3600"]
        for name in good.keys.sorted() {
            let paths = (Self.hostile + ["0"]).filter { !(name == "parity" || name == "expire") || $0 != "0" }.map { bad -> String in
                var q = good
                q[name] = bad
                return "/v1/storage/quote?" + q.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "&")
            }
            try await expectRefused(net, paths, parameter: name)
        }
        await net.stop()
    }

    @Test func searchingForAHugeRoundFindsNothingInsteadOfCrashing() async throws {
        let net = try TestDevnet()
        for q in ["9223372036854775808", "18446744073709551616", "99999999999999999999999"] {
            #expect(try await net.raw("GET", "/explorer/search?q=\(q)").status == 404)
        }
        #expect(try await net.raw("GET", "/health").status == 200)
        await net.stop()
    }

    @Test func openAPIDeclaresIntegerTypesAndBoundsOfTheNodesNumericParameters() async throws {
        let net = try TestDevnet()
        let doc = net.json(try await net.raw("GET", "/openapi.json").body)
        let paths = try #require(doc["paths"] as? [String: Any])
        func parameter(_ path: String, _ name: String) -> [String: Any]? {
            let op = (paths[path] as? [String: Any])?["get"] as? [String: Any]
            return (op?["parameters"] as? [[String: Any]])?.first { $0["name"] as? String == name }?["schema"] as? [String: Any]
        }
        let expected: [(String, String, Int64, Int64)] = [
            ("/v1/blocks", "limit", 0, 100), ("/v1/blocks", "before", 0, Int64.max),
            ("/v1/accounts/{client_id}/transactions", "limit", 0, 1000),
            ("/v1/accounts/{client_id}/transactions", "offset", 0, Int64(Int32.max)),
            ("/explorer/account/{client_id}", "offset", 0, Int64(Int32.max)),
            ("/explorer/block/{id}", "offset", 0, Int64(Int32.max)),
            ("/v1/contracts/{contract}/views/{view}", "round", 0, Int64.max),
            ("/v1/storage/quote", "data", 1, 64), ("/v1/storage/quote", "parity", 0, 64),
            ("/v1/storage/quote", "size", 1, Int64.max), ("/v1/storage/quote", "expire", 0, Int64.max),
        ]
        for (path, name, lo, hi) in expected {
            let s = parameter(path, name)
            #expect(s?["type"] as? String == "integer", "\(path) \(name)")
            #expect((s?["minimum"] as? NSNumber)?.int64Value == lo, "\(path) \(name)")
            #expect((s?["maximum"] as? NSNumber)?.int64Value == hi, "\(path) \(name)")
        }
        let timeout = parameter("/v1/transactions/{hash}", "timeout")
        #expect(timeout?["type"] as? String == "number")
        #expect((timeout?["maximum"] as? NSNumber)?.doubleValue == 60)
        let block = try #require(parameter("/v1/blocks/{id}", "id")?["anyOf"] as? [[String: Any]])
        #expect(block.first?["type"] as? String == "integer")
        #expect((block.first?["maximum"] as? NSNumber)?.int64Value == Int64.max)
        #expect(block.last?["pattern"] as? String == "^[0-9a-f]{64}$")
        await net.stop()
    }

    @Test func everyPathParameterOfTheNodeIsDeclaredWithItsOwnType() async throws {
        let net = try TestDevnet()
        let doc = net.json(try await net.raw("GET", "/openapi.json").body)
        let paths = try #require(doc["paths"] as? [String: [String: Any]])
        for (path, ops) in paths {
            for (method, op) in ops {
                let params = ((op as? [String: Any])?["parameters"] as? [[String: Any]]) ?? []
                for p in params where p["in"] as? String == "path" {
                    // An undeclared `:name` falls back to a plain string described by its bare name.
                    #expect(p["description"] as? String != p["name"] as? String, "\(method) \(path): \(p["name"] ?? "?") is not declared")
                }
                let segments = path.split(separator: "/").filter { $0.hasPrefix("{") }.count
                #expect(params.filter { $0["in"] as? String == "path" }.count == segments, "\(method) \(path)")
            }
        }
        await net.stop()
    }
}
