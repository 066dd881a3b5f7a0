import Foundation
import MosaicCrypto

/// The `transaction_data` of a contract call: `{"contract":"faucet","method":"pour","args":{…}}`.
public struct ContractCall: Sendable, Hashable, Codable {
    public var contract: String
    public var method: String
    public var args: [String: JSONValue]
    /// The most gas this call may use; the network's limit when absent or larger. Signed with the
    /// rest of `transaction_data`, so nobody can raise it after the sender signed.
    public var gas: UInt64?

    public init(contract: String, method: String, args: [String: JSONValue] = [:], gas: UInt64? = nil) {
        self.contract = contract
        self.method = method
        self.args = args
        self.gas = gas
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        contract = try c.decode(String.self, forKey: .contract)
        method = try c.decode(String.self, forKey: .method)
        args = try c.decodeIfPresent([String: JSONValue].self, forKey: .args) ?? [:]
        gas = try c.decodeIfPresent(UInt64.self, forKey: .gas)
    }

    /// Parses `transaction_data`; the error names what is wrong.
    public static func parse(_ data: String) throws(LedgerError) -> ContractCall {
        do {
            return try JSONDecoder().decode(ContractCall.self, from: Data(data.utf8))
        } catch {
            throw .malformed("transaction_data of a contract call must be JSON {\"contract\":…,\"method\":…,\"args\":{…}}")
        }
    }

    /// Compact JSON with sorted keys, ready for `transaction_data`.
    public var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(self) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }

    /// The address a contract call must be sent to: hex SHA-256 of "mosaic-contract:" + name.
    public static func address(of contract: String) -> String {
        Hex.encode(SHA256.hash(Array("mosaic-contract:\(contract)".utf8)))
    }
}
