import CQREncode
import Foundation

/// QR codes through libqrencode, drawn as SVG so they stay sharp at any size.
enum QRCode {
    /// An SVG of `text`, or nil when the text is too long for a QR code.
    static func svg(_ text: String, moduleSize: Int = 6, margin: Int = 4) -> String? {
        guard let code = QRcode_encodeString8bit(text, 0, QR_ECLEVEL_M) else { return nil }
        defer { QRcode_free(code) }
        let width = Int(code.pointee.width)
        guard let data = code.pointee.data else { return nil }
        let size = (width + 2 * margin) * moduleSize
        var path = ""
        for y in 0..<width {
            for x in 0..<width where data[y * width + x] & 1 == 1 {
                path += "M\((x + margin) * moduleSize) \((y + margin) * moduleSize)h\(moduleSize)v\(moduleSize)h-\(moduleSize)z"
            }
        }
        return """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(size)" height="\(size)" viewBox="0 0 \(size) \(size)" shape-rendering="crispEdges">\
            <rect width="100%" height="100%" fill="#fff"/><path fill="#000" d="\(path)"/></svg>
            """
    }
}
