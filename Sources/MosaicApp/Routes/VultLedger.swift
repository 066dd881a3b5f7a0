import Foundation
import MosaicHTTP
import MosaicHTTPServer
import MosaicProtocol
import MosaicSDK

/// Allocation reads and creation for Vult, over the SDK's ledger client and wallet.
extension AppServer {
    func allocations(owner: String, client: LedgerClient) async throws -> [Allocation] {
        try await mapWallet { try await client.storageAllocations(owner: owner) }
    }

    func allocation(_ id: String, client: LedgerClient) async throws -> Allocation {
        guard let a = try await mapWallet({ try await client.storageAllocation(id) }) else {
            throw HTTPError.notFound("there is no allocation \(id)", code: "unknown_allocation")
        }
        return a
    }

    func blobbers(client: LedgerClient) async throws -> [BlobberInfo] {
        try await mapWallet { try await client.storageBlobbers() }
    }

    /// Checks the form like the CLI does, then creates the allocation and waits until it is sealed.
    func createAllocation(_ body: NewAllocationBody, wallet: Wallet) async throws -> Allocation {
        let data = body.dataShards ?? 2, parity = body.parityShards ?? 2
        guard (1...32).contains(data), (0...32).contains(parity) else {
            throw HTTPError.unprocessable("data shards must be 1 to 32 and parity shards 0 to 32", code: "invalid_shards")
        }
        guard let size = Quantity.bytes(body.size ?? "1GiB"), size > 0 else {
            throw HTTPError.unprocessable("invalid size \"\(body.size ?? "")\": give a size such as 500MiB or 1GiB", code: "invalid_size")
        }
        guard let ms = Quantity.milliseconds(body.expire ?? "30d"), ms >= 60_000 else {
            throw HTTPError.unprocessable("invalid expiry \"\(body.expire ?? "")\": give a duration such as 7d or 30d (at least 1m)", code: "invalid_expire")
        }
        let lock: UInt64
        do { lock = try TokenAmount.parse(body.lock ?? "1").baseUnits } catch {
            throw HTTPError.unprocessable(error.description, code: "invalid_amount")
        }
        let info = try await mapWallet { try await wallet.networkInfo() }
        let expiration = info.time + ms / 1000
        let name = (body.name ?? "").trimmingCharacters(in: .whitespaces)
        let id = try await mapWallet {
            try await wallet.newAllocation(name: name, data: data, parity: parity, size: size, expiration: expiration, lock: lock)
        }
        return try await allocation(id, client: wallet.client)
    }
}
