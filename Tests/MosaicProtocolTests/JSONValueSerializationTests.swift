import Foundation
import MosaicProtocol
import Testing

@Suite struct JSONValueSerializationTests {
    @Test func directSerializationWritesTheSameBytesAsJSONEncoderWithSortedKeys() throws {
        let value: JSONValue = .object([
            "b": .array([.integer(-5), .integer(Int64.max), .bool(true), .bool(false), .null]),
            "a": .string("quote \" backslash \\ slash / newline \n tab \t cr \r bell \u{07} nul \u{00} é 🙂 \u{2028}"),
            "nested": .object(["z": .object([:]), "y": .array([]), "x": .string("")]),
            "A": .integer(0), "_": .integer(Int64.min),
        ])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let expected = try encoder.encode(value)
        #expect(String(decoding: value.jsonData, as: UTF8.self) == String(decoding: expected, as: UTF8.self))
        #expect(try JSONDecoder().decode(JSONValue.self, from: value.jsonData) == value)
        let result = ContractViewResult(round: 7, result: value)
        #expect(try JSONDecoder().decode(ContractViewResult.self, from: result.jsonData) == result)
    }

    @Test func renderedKeepsFieldOrderWhileEqualityAndCanonicalBytesIgnoreIt() throws {
        let ordered: JSONValue = .object([
            ("z", .integer(1)), ("a", .unsigned(UInt64.max)), ("m", .object([("y", .null), ("b", .bool(true))])),
        ])
        let sorted: JSONValue = .object(["a": .unsigned(UInt64.max), "m": .object(["b": .bool(true), "y": .null]), "z": .integer(1)])
        #expect(ordered.rendered() == #"{"z":1,"a":18446744073709551615,"m":{"y":null,"b":true}}"#)
        #expect(String(decoding: ordered.jsonData, as: UTF8.self) == #"{"a":18446744073709551615,"m":{"b":true,"y":null},"z":1}"#)
        #expect(ordered == sorted)
        #expect(ordered.hashValue == sorted.hashValue)
        var fields = JSONObject([("b", .integer(2)), ("a", .integer(1))])
        fields["c"] = .integer(3)
        fields["b"] = .integer(20)
        fields["a"] = nil
        #expect(fields.keys == ["b", "c"])
        #expect(JSONValue.object(fields).rendered() == #"{"b":20,"c":3}"#)
    }

    @Test func decodingRefusesNumbersBeyondInt64AndNeverMakesUnsigned() throws {
        #expect(try JSONDecoder().decode(JSONValue.self, from: Data("9223372036854775807".utf8)) == .integer(Int64.max))
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(JSONValue.self, from: Data("9223372036854775808".utf8)) }
        #expect(JSONValue.unsigned(7).integerValue == 7)
        #expect(JSONValue.unsigned(UInt64.max).integerValue == nil)
    }
}
