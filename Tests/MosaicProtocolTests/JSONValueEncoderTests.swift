import Foundation
import MosaicProtocol
import Testing

@Suite struct JSONValueEncoderTests {
    struct Inner: Codable {
        var b: Bool
        var list: [UInt64]
    }
    enum Color: String, Codable { case red }
    struct Outer: Codable {
        var zeta: String
        var alpha: Int64
        var big: UInt64
        var missing: String?
        var present: Int?
        var color: Color
        var inner: Inner
        var url: URL
        var raw: JSONValue
    }

    @Test func fieldsComeInDeclarationOrderWithExactIntegersAndNilOptionalsLeftOut() throws {
        let v = Outer(
            zeta: "z\"", alpha: -3, big: .max, missing: nil, present: 4, color: .red, inner: Inner(b: true, list: [1, .max]),
            url: try #require(URL(string: "https://10.0.0.1:5051/x")), raw: .object([("k", .null)]))
        let json = try JSONValue(encoding: v)
        #expect(
            json.rendered()
                == #"{"zeta":"z\"","alpha":-3,"big":18446744073709551615,"present":4,"color":"red","inner":{"b":true,"list":[1,18446744073709551615]},"url":"https://10.0.0.1:5051/x","raw":{"k":null}}"#
        )
    }

    @Test func theCanonicalBytesEqualJSONEncodersForProtocolTypes() throws {
        let allocation = Allocation(
            id: String(repeating: "a", count: 64), name: "photos", ownerID: String(repeating: "b", count: 64),
            ownerPublicKey: String(repeating: "c", count: 64), dataShards: 2, parityShards: 1, size: 1 << 30, expiration: 1_800_000_000,
            blobbers: [
                AllocationBlobber(
                    blobberID: String(repeating: "d", count: 64), url: "https://b1.example.org:5051", writePrice: 10, readPrice: 1,
                    challengePoolSince: 1_700_000_000)
            ],
            writePool: UInt64.max, createdAt: 1_700_000_000)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        #expect(
            String(decoding: try JSONValue(encoding: allocation).jsonData, as: UTF8.self)
                == String(decoding: try encoder.encode(allocation), as: UTF8.self))
    }

    @Test func aFractionIsRefusedBecauseAmountsAreIntegers() throws {
        struct Rate: Encodable { var perSecond: Double }
        #expect(try JSONValue(encoding: Rate(perSecond: 3)) == .object(["perSecond": .integer(3)]))
        #expect(throws: EncodingError.self) { try JSONValue(encoding: Rate(perSecond: 0.5)) }
    }
}

extension JSONValueEncoderTests {
    struct Maybe: Codable {
        var a: Int?
        var b: String?
        var c: [Int]?
    }

    @Test func nilAsNullKeepsEveryFieldForPeople() throws {
        #expect(try JSONValue(encoding: Maybe()).rendered() == "{}")
        #expect(try JSONValue(encoding: Maybe(), nilAsNull: true).rendered() == #"{"a":null,"b":null,"c":null}"#)
        #expect(try JSONValue(encoding: Maybe(a: 1, b: "x", c: [2]), nilAsNull: true).rendered() == #"{"a":1,"b":"x","c":[2]}"#)
    }
}

extension JSONValueEncoderTests {
    struct Tagged: Encodable {
        var attributes: [String: String]
        var failed: [Int: String]
    }

    @Test func dictionaryKeysComeSortedSoEveryRunPrintsTheSame() throws {
        var attributes: [String: String] = [:]
        for k in ["to", "amount", "b", "a10", "a2"] { attributes[k] = k.uppercased() }
        let json = try JSONValue(encoding: Tagged(attributes: attributes, failed: [10: "slow", 2: "down", 0: "gone"]))
        #expect(
            json.rendered()
                == #"{"attributes":{"a10":"A10","a2":"A2","amount":"AMOUNT","b":"B","to":"TO"},"failed":{"0":"gone","2":"down","10":"slow"}}"#
        )
        // What JSONEncoder writes, keys and values alike (it only orders them otherwise).
        let decoded = try JSONDecoder().decode(
            JSONValue.self, from: try JSONEncoder().encode(Tagged(attributes: attributes, failed: [2: "x"])))
        #expect(decoded == (try JSONValue(encoding: Tagged(attributes: attributes, failed: [2: "x"]))))
        #expect(try JSONValue(encoding: [String: Int]()).rendered() == "{}")
    }
}
