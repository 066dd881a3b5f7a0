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
}
