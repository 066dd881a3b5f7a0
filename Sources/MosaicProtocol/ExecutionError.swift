import Foundation
import MosaicErrors

/// Why an included transaction failed, as its receipt records it: `{"code","message"}`. Clients
/// decide on `code` (docs/PROTOCOL.md §2.6 lists them); `message` is the contract's own words for
/// a person, unchanged.
public struct ExecutionError: CodedError, Sendable, Hashable, Codable {
    public var reason: Code
    public var message: String

    public init(_ reason: Code, _ message: String) {
        self.reason = reason
        self.message = message
    }

    public var code: String { reason.rawValue }
    public var description: String { message }

    enum CodingKeys: String, CodingKey { case code, message }

    /// `{"code","message"}`; a bare string (receipts of nodes before codes) reads as code `refused`.
    public init(from decoder: any Decoder) throws {
        if let single = try? decoder.singleValueContainer(), let text = try? single.decode(String.self) {
            self.init(.refused, text)
            return
        }
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(Code(rawValue: try c.decode(String.self, forKey: .code)), try c.decode(String.self, forKey: .message))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(code, forKey: .code)
        try c.encode(message, forKey: .message)
    }

    /// The text a ledger stores in its `error` column: the JSON object, sorted keys.
    public var stored: String {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? e.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? message
    }

    /// Reads the `error` column: the JSON object written by `stored`, or the bare message that
    /// ledgers made before codes stored (code `refused`).
    public init(stored text: String) {
        if text.hasPrefix("{"), let data = text.data(using: .utf8),
            let e = try? JSONDecoder().decode(ExecutionError.self, from: data)
        {
            self = e
        } else {
            self.init(.refused, text)
        }
    }

    /// A failure's stable code. An open set (a newer node may send a code this client does not
    /// know: it decodes, and reads as "some other refusal"); a code per meaning, not per rule.
    public struct Code: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// The sender or a contract's pool holds less than the transfer, fee or cost needs.
        public static let insufficientBalance = Code(rawValue: "insufficient_balance")
        /// The call's value (a lock, a stake) is below what the call costs.
        public static let insufficientValue = Code(rawValue: "insufficient_value")
        /// Not enough blobbers or free space for the allocation, the growth or the write.
        public static let insufficientCapacity = Code(rawValue: "insufficient_capacity")
        /// The caller is not the owner of what it acts on (or not the blobber it names).
        public static let notOwner = Code(rawValue: "not_owner")
        /// An app acts for a user without a grant, or with a grant that lacks the scope.
        public static let notAuthorized = Code(rawValue: "not_authorized")
        /// The allocation, blobber, challenge, post, app, grant, notepad or note does not exist.
        public static let notFound = Code(rawValue: "not_found")
        /// It exists already: a name taken, a registration, a post, a revocation, a vote.
        public static let alreadyExists = Code(rawValue: "already_exists")
        /// It is not in a state that allows this (canceled, finalized, resolved, still in use).
        public static let invalidState = Code(rawValue: "invalid_state")
        /// Its time has passed: an allocation, a grant, a post's payout window.
        public static let expired = Code(rawValue: "expired")
        /// Its time has not come yet: the message says until when.
        public static let tooEarly = Code(rawValue: "too_early")
        /// A count or size is at the most allowed (blobbers, replies, notes, depth, rows read).
        public static let limitExceeded = Code(rawValue: "limit_exceeded")
        /// Too soon after the last one of its kind (faucet pours, posts, replies, votes).
        public static let rateLimited = Code(rawValue: "rate_limited")
        /// A write or read marker does not check out (signature, root, counter, timestamp, price).
        public static let invalidMarker = Code(rawValue: "invalid_marker")
        /// An amount would overflow (or go below zero).
        public static let overflow = Code(rawValue: "overflow")
        /// The caller does not qualify (no rewards to claim, a blobber that failed too many challenges).
        public static let notEligible = Code(rawValue: "not_eligible")
        /// An argument is missing, malformed or out of range.
        public static let invalidArgument = Code(rawValue: "invalid_argument")
        /// The contract has no such method.
        public static let unknownMethod = Code(rawValue: "unknown_method")
        /// The contract has no such view.
        public static let unknownView = Code(rawValue: "unknown_view")
        /// No contract has this name.
        public static let unknownContract = Code(rawValue: "unknown_contract")
        /// The call used up its gas limit.
        public static let outOfGas = Code(rawValue: "out_of_gas")
        /// The node could not read or write the contract's state; nothing changed.
        public static let stateUnavailable = Code(rawValue: "state_unavailable")
        /// The node stopped while executing this transaction, so it was included as failed.
        public static let setAside = Code(rawValue: "set_aside")
        /// A receipt stored before errors had codes: only the message is known.
        public static let refused = Code(rawValue: "refused")

        /// Every code this version knows, in the order docs/PROTOCOL.md lists them.
        public static let all: [Code] = [
            .insufficientBalance, .insufficientValue, .insufficientCapacity, .notOwner, .notAuthorized, .notFound, .alreadyExists,
            .invalidState, .expired, .tooEarly, .limitExceeded, .rateLimited, .invalidMarker, .overflow, .notEligible, .invalidArgument,
            .unknownMethod, .unknownView, .unknownContract, .outOfGas, .stateUnavailable, .setAside, .refused,
        ]

        public init(from decoder: any Decoder) throws { rawValue = try decoder.singleValueContainer().decode(String.self) }
        public func encode(to encoder: any Encoder) throws {
            var c = encoder.singleValueContainer()
            try c.encode(rawValue)
        }
    }
}
