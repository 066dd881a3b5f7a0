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

    /// The form's terms of a new allocation, parsed and then checked by the SDK's `AllocationTerms`
    /// (the rules the CLI uses too); a term out of range is a 422 with its code.
    static func allocationTerms(data: Int?, parity: Int?, size: String?, expire: String?) throws -> AllocationTerms {
        guard let bytes = Quantity.bytes(size ?? "1GiB") else {
            throw HTTPError.unprocessable(
                "The size \"\(size ?? "")\" is not a size; give one such as 500MiB or 1GiB.", code: "invalid_size")
        }
        guard let ms = Quantity.milliseconds(expire ?? "30d"), ms >= 0 else {
            throw HTTPError.unprocessable(
                "The expiry \"\(expire ?? "")\" is not a duration; give one such as 7d or 30d (at least 1h).", code: "invalid_expire")
        }
        do {
            return try AllocationTerms(dataShards: data ?? 2, parityShards: parity ?? 2, size: bytes, seconds: UInt64(ms / 1000))
        } catch {
            throw HTTPError.unprocessable(error.message, code: error.code)
        }
    }

    /// What an allocation of these terms costs: the network's quote, the lock the app suggests
    /// (the quote plus a tenth, so a price change between quote and block does not refuse it;
    /// what is not spent returns when the allocation ends), the fee, and the wallet's balance.
    struct AllocationQuote {
        let quote: UInt64
        let lock: UInt64
        let fee: UInt64
        let balance: UInt64

        var json: [String: Any] {
            let (total, over) = lock.addingReportingOverflow(fee)
            return [
                "quote": quote, "quote_tokens": TokenAmount(baseUnits: quote).description,
                "lock": lock, "lock_tokens": TokenAmount(baseUnits: lock).description,
                "fee": fee, "fee_tokens": TokenAmount(baseUnits: fee).description,
                "balance": balance, "balance_tokens": TokenAmount(baseUnits: balance).description,
                "enough": !over && total <= balance,
            ]
        }
    }

    func allocationQuote(_ terms: AllocationTerms, wallet: Wallet) async throws -> AllocationQuote {
        let quote = try await mapWallet {
            try await wallet.client.storageQuote(
                size: terms.size, dataShards: terms.dataShards, parityShards: terms.parityShards, seconds: terms.seconds)
        }
        let info = try await mapWallet { try await wallet.networkInfo() }
        let balance = try await mapWallet { try await wallet.balance() }.baseUnits
        return AllocationQuote(quote: quote, lock: AppServer.suggestedLock(quote), fee: info.minimumFee, balance: balance)
    }

    /// The quote plus a tenth, rounded up to two significant digits so people read "0.022", not
    /// "0.0220000001"; never less than the quote (on overflow the quote itself).
    static func suggestedLock(_ quote: UInt64) -> UInt64 {
        let (raw, over) = quote.addingReportingOverflow(quote / 10)
        guard !over, raw > 0 else { return quote }
        var step: UInt64 = 1
        while raw / step >= 100 { step *= 10 }
        let (up, o1) = raw.addingReportingOverflow(step - 1)
        let (rounded, o2) = (up / step).multipliedReportingOverflow(by: step)
        return o1 || o2 || rounded < quote ? raw : rounded
    }

    /// Checks the terms with the SDK's `AllocationTerms` (the CLI's rules too), then creates the
    /// allocation and waits until it is sealed. Without `lock`, the suggested lock of
    /// `allocationQuote` is locked. A lock below the quote or a balance too small is refused here
    /// (422), before anything is signed: the page shows the quote and the balance, the CLI lets
    /// the contract refuse.
    func createAllocation(_ body: NewAllocationBody, wallet: Wallet) async throws -> Allocation {
        let terms = try AppServer.allocationTerms(data: body.dataShards, parity: body.parityShards, size: body.size, expire: body.expire)
        let cost = try await allocationQuote(terms, wallet: wallet)
        let lock: UInt64
        if let text = body.lock?.trimmingCharacters(in: .whitespaces), !text.isEmpty {
            do { lock = try TokenAmount.parse(text).baseUnits } catch {
                throw HTTPError.unprocessable(
                    "\(error.description). Give the tokens to lock as a number such as 0.05.", code: "invalid_amount")
            }
            guard lock >= cost.quote else {
                throw HTTPError.unprocessable(
                    "These terms cost \(TokenAmount(baseUnits: cost.quote)) tokens; lock at least that much, or leave the amount empty to lock the suggested \(TokenAmount(baseUnits: cost.lock)).",
                    code: "lock_too_small")
            }
        } else {
            lock = cost.lock
        }
        let (total, over) = lock.addingReportingOverflow(cost.fee)
        guard !over, total <= cost.balance else {
            throw HTTPError.unprocessable(
                "Your balance is \(TokenAmount(baseUnits: cost.balance)) tokens; this allocation needs \(TokenAmount(baseUnits: lock)) plus a fee of \(TokenAmount(baseUnits: cost.fee)). Get tokens from the faucet in Bolt, or choose a smaller size or a shorter time.",
                code: "insufficient_balance")
        }
        let info = try await mapWallet { try await wallet.networkInfo() }
        let expiration = info.time + Int64(terms.seconds)
        let name = (body.name ?? "").trimmingCharacters(in: .whitespaces)
        let id = try await mapWallet {
            try await wallet.newAllocation(
                name: name, data: terms.dataShards, parity: terms.parityShards, size: terms.size, expiration: expiration, lock: lock)
        }
        return try await allocation(id, client: wallet.client)
    }
}
