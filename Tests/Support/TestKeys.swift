import MosaicCrypto
import MosaicProtocol

/// A deterministic key from one repeated byte, so tests are reproducible.
public func testKey(_ byte: UInt8) throws -> Ed25519.SigningKey {
    try Ed25519.SigningKey(seed: SecretBytes([UInt8](repeating: byte, count: 32)))
}

/// One token in base units.
public let token = TokenAmount.unitsPerToken
