import MosaicErrors

/// Why the ledger refused a request. Shared by node and clients: `code` is the stable string the
/// HTTP API sends in `{"error":{"code","message"}}`, `description` the human message.
/// A rejected submission never changes state.
public enum LedgerError: CodedError, Sendable, Equatable, CustomStringConvertible {
    /// A field is missing, out of range or has the wrong shape; the text names it.
    case malformed(String)
    /// A free read (contract view) was asked with arguments the contract refuses; not about a transaction.
    case invalidRead(String)
    /// A contract view refused by one of its rules (what it was asked for does not exist, or the
    /// state cannot answer it); `code` is the contract's own (docs/PROTOCOL.md §2.6).
    case viewRefused(ExecutionError)
    /// The hash does not equal SHA-256 of the signing bytes (a field was altered).
    case invalidHash
    /// The signature does not verify against `public_key`.
    case invalidSignature
    /// `client_id` is not SHA-256 of `public_key`.
    case keyMismatch
    /// Signed for another network.
    case wrongChain(expected: String, got: String)
    /// Fee below the network minimum.
    case feeTooLow(minimum: UInt64, got: UInt64)
    /// Balance (minus what this sender's pending transactions will spend) is below value + fee.
    case insufficientBalance(needed: UInt64, available: UInt64)
    /// The nonce was used already (or is taken by a pending transaction).
    case staleNonce(nonce: UInt64, next: UInt64)
    /// The nonce is more than `maxAhead` past the next one.
    case nonceTooFarAhead(nonce: UInt64, next: UInt64, maxAhead: UInt64)
    /// A transaction with this hash is already pending or recorded.
    case duplicate(hash: String)
    /// The contract or method in `transaction_data` does not exist.
    case unknownContract(String)
    /// The pool is full; retry after the next block.
    case poolFull(capacity: Int)
    /// The pool holds as many bytes of transactions as it may; retry after the next block.
    case poolBytesFull(limitBytes: Int)
    /// This sender already has as many transactions (or bytes) waiting as one account may.
    case senderPoolFull(pending: Int, pendingBytes: Int, maxCount: Int, maxBytes: Int)
    /// A fee-exempt transaction (faucet pour) over its limits: one waiting per account, no nonce
    /// gap, a number per source address per minute. The text says which.
    case freeLimited(String)
    /// `transaction_data` is longer than this kind of transaction may carry.
    case dataTooLarge(kind: String, bytes: Int, limit: Int)
    /// `creation_date` is too far from the ledger clock: signed too long ago, or in the future.
    case creationDateOutOfWindow(creationDate: Int64, now: Int64, maxAgeSeconds: Int64, maxAheadSeconds: Int64)
    /// The transaction expired in the pool once; the same signed bytes are never accepted again.
    case alreadyExpired(hash: String)
    /// A request that is not a transaction (a read, the devnet clock) has an out-of-range value.
    case invalidRequest(String)
    /// No such transaction, block or account.
    case notFound(String)
    /// Storage failed; the node's log has details. State is unchanged.
    case storage(String)
    /// The ledger's database cannot be reached right now (a PostgreSQL server restarting, the
    /// network to it down): nothing was done, and the same request may be sent again shortly.
    case unavailable(String)
    /// The ledger was closed.
    case closed
    /// A block was asked of a node that does not hold the producer lease: another node on the
    /// same database makes the blocks (issue 14 §2).
    case notProducer

    /// Stable machine-readable code.
    public var code: String {
        switch self {
        case .malformed, .invalidRead, .invalidRequest: return "malformed"
        case .viewRefused(let e): return e.code
        case .invalidHash: return "invalid_hash"
        case .invalidSignature: return "invalid_signature"
        case .keyMismatch: return "key_mismatch"
        case .wrongChain: return "wrong_chain"
        case .feeTooLow: return "fee_too_low"
        case .insufficientBalance: return "insufficient_balance"
        case .staleNonce: return "stale_nonce"
        case .nonceTooFarAhead: return "nonce_too_far_ahead"
        case .duplicate: return "duplicate"
        case .unknownContract: return "unknown_contract"
        case .poolFull, .poolBytesFull: return "pool_full"
        case .senderPoolFull: return "sender_pool_full"
        case .freeLimited: return "free_limited"
        case .dataTooLarge: return "data_too_large"
        case .creationDateOutOfWindow: return "creation_date_out_of_window"
        case .alreadyExpired: return "already_expired"
        case .notFound: return "not_found"
        case .storage: return "internal"
        case .closed, .unavailable: return "unavailable"
        case .notProducer: return "not_producer"
        }
    }

    /// Suggested HTTP status for the API layer.
    public var httpStatus: Int {
        switch self {
        case .malformed, .invalidRead, .invalidRequest, .invalidHash, .invalidSignature, .keyMismatch, .wrongChain, .feeTooLow,
            .insufficientBalance, .staleNonce, .nonceTooFarAhead, .unknownContract, .dataTooLarge, .creationDateOutOfWindow:
            return 400
        case .duplicate, .alreadyExpired: return 409
        case .poolFull, .poolBytesFull, .senderPoolFull, .freeLimited: return 429
        case .notFound: return 404
        case .viewRefused(let e):
            switch e.reason {
            case .notFound: return 404
            case .invalidArgument, .limitExceeded: return 400
            // Well-formed, but the contract cannot answer it from this state.
            default: return 422
            }
        case .storage: return 500
        case .closed, .unavailable: return 503
        case .notProducer: return 409
        }
    }

    public var description: String {
        switch self {
        case .malformed(let why): return "malformed transaction: \(why)"
        case .invalidRead(let why), .invalidRequest(let why): return why
        case .viewRefused(let e): return e.message
        case .invalidHash: return "hash does not match the transaction's fields (was it altered after signing?)"
        case .invalidSignature: return "signature does not verify against public_key"
        case .keyMismatch: return "client_id is not the SHA-256 of public_key"
        case .wrongChain(let expected, let got): return "transaction is for chain \"\(got)\" but this network is \"\(expected)\""
        case .feeTooLow(let minimum, let got):
            return "fee \(TokenAmount(baseUnits: got)) is below the minimum fee \(TokenAmount(baseUnits: minimum))"
        case .insufficientBalance(let needed, let available):
            return
                "insufficient balance: needs \(TokenAmount(baseUnits: needed)) (value + fee) but \(TokenAmount(baseUnits: available)) is available after pending transactions"
        case .staleNonce(let nonce, let next): return "nonce \(nonce) already used; next is \(next)"
        case .nonceTooFarAhead(let nonce, let next, let maxAhead):
            return "nonce \(nonce) is too far ahead; next is \(next) and at most \(maxAhead) beyond it can wait"
        case .duplicate(let hash): return "transaction \(hash) was already submitted"
        case .unknownContract(let what): return "unknown contract call: \(what)"
        case .poolFull(let capacity): return "transaction pool is full (\(capacity)); retry after the next block"
        case .poolBytesFull(let limit): return "transaction pool is full (\(limit) bytes of transactions); retry after the next block"
        case .senderPoolFull(let pending, let bytes, let maxCount, let maxBytes):
            return
                "this account already has \(pending) transactions (\(bytes) bytes) waiting; at most \(maxCount) transactions or \(maxBytes) bytes may wait per account, so wait until some are included"
        case .freeLimited(let why): return "free transaction refused: \(why)"
        case .dataTooLarge(let kind, let bytes, let limit):
            return "transaction_data of a \(kind) is \(bytes) bytes; at most \(limit) allowed"
        case .creationDateOutOfWindow(let date, let now, let maxAge, let maxAhead):
            return
                "creation_date \(date) is outside the accepted window (\(maxAge) s before to \(maxAhead) s after the ledger time \(now)); sign the transaction again with the current time (GET /v1/network gives the ledger's \"time\")"
        case .alreadyExpired(let hash):
            return "transaction \(hash) expired before it was included and can never be submitted again; sign a new one"
        case .notFound(let what): return "\(what) not found"
        case .storage(let why): return "ledger storage error: \(why)"
        case .unavailable(let why):
            return "the ledger's database cannot be reached right now (\(why)); nothing was done, try again in a few seconds"
        case .closed: return "ledger is closed"
        case .notProducer:
            return
                "this node does not hold the producer lease: another node on the same database makes the blocks; its blocks reach this node within a block time"
        }
    }
}
