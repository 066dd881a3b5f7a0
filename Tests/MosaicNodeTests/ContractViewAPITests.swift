import Foundation
import MosaicCrypto
import MosaicLedger
import MosaicProtocol
import MosaicSDK
import MosaicTestSupport
import Testing

/// Contract views over HTTP: free and unsigned, from the latest sealed round or a given one.
@Suite(.timeLimit(.minutes(3))) struct ContractViewAPITests {
    @Test func faucetStatusViewAnswersFromSealedStateAndEarlierRounds() async throws {
        let net = try TestDevnet()
        let carol = net.wallet(try testKey(3))
        let id = try testKey(3).publicKey.clientID
        let before = try await net.client.view(contract: "faucet", name: "status", args: ["client_id": .string(id)])
        let pour = try await carol.faucet()
        let sealed = try await carol.wait(for: pour.hash, until: .sealed, timeout: .seconds(20))
        let after = try await net.client.view(contract: "faucet", name: "status", args: ["client_id": .string(id)])
        guard case .object(let now) = after.result,
            case .object(let then) = try await net.client.view(
                contract: "faucet", name: "status", args: ["client_id": .string(id)], round: before.round
            ).result
        else {
            Issue.record("status is not an object")
            return
        }
        #expect(after.round >= sealed.round ?? 0)
        #expect(now["poured_in_window"] == .integer(Int64(net.genesis.faucet.pourAmount)))
        #expect(then["poured_in_window"] == .integer(0))

        // The same view with string arguments in a GET.
        let get = try await net.raw("GET", "/v1/contracts/faucet/views/status?client_id=\(id)")
        #expect(get.status == 200)
        let body = try JSONDecoder().decode(ContractViewResult.self, from: get.body)
        guard case .object(let fields) = body.result else {
            Issue.record("not an object")
            return
        }
        #expect(fields["poured_in_window"] == .integer(Int64(net.genesis.faucet.pourAmount)))
        await net.stop()
    }

    @Test func unknownViewsRoundsAndBadArgumentsAreClearHTTPErrors() async throws {
        let net = try TestDevnet()
        let missing = try await net.raw("GET", "/v1/contracts/faucet/views/nope")
        #expect(missing.status == 404)
        #expect(String(decoding: missing.body, as: UTF8.self).contains("contract faucet has no view \\\"nope\\\"; its views: status"))
        #expect(try await net.raw("GET", "/v1/contracts/ghost/views/status").status == 404)
        let future = try await net.raw(
            "GET", "/v1/contracts/faucet/views/status?round=999999&client_id=\(String(repeating: "a", count: 64))")
        #expect(future.status == 404)
        let bad = try await net.raw("POST", "/v1/contracts/faucet/views/status", body: Data(#"{"args":{"client_id":"xyz"}}"#.utf8))
        #expect(bad.status == 400)
        #expect(String(decoding: bad.body, as: UTF8.self).contains("client_id must be 64 lowercase hex characters"))
        let junk = try await net.raw("POST", "/v1/contracts/faucet/views/status", body: Data("not json".utf8))
        #expect(junk.status == 400)
        await net.stop()
    }
}
