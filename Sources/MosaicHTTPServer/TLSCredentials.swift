import Foundation
import MosaicErrors

/// A server's certificate chain and private key, PEM text, for `HTTPServer.Configuration.tls`.
public struct TLSCredentials: Sendable, Equatable {
    public var certificatePEM: String
    public var keyPEM: String

    public init(certificatePEM: String, keyPEM: String) {
        self.certificatePEM = certificatePEM
        self.keyPEM = keyPEM
    }

    /// Reads `--tls-cert FILE --tls-key FILE`; the error names the file that failed.
    public init(certificateFile: String, keyFile: String) throws(TLSCredentialsError) {
        func read(_ path: String) throws(TLSCredentialsError) -> String {
            guard let data = FileManager.default.contents(atPath: path) else { throw .unreadable(path) }
            let text = String(decoding: data, as: UTF8.self)
            guard text.contains("-----BEGIN ") else { throw .notPEM(path) }
            return text
        }
        certificatePEM = try read(certificateFile)
        keyPEM = try read(keyFile)
    }
}

/// Why `--tls-cert`/`--tls-key` could not be read.
public enum TLSCredentialsError: CodedError, Equatable, CustomStringConvertible {
    case unreadable(String)
    case notPEM(String)

    /// Stable code, as every error of the project has.
    public var code: String {
        switch self {
        case .unreadable: return "tls_file_unreadable"
        case .notPEM: return "tls_file_not_pem"
        }
    }

    public var description: String {
        switch self {
        case .unreadable(let p): return "cannot read \(p)"
        case .notPEM(let p): return "\(p) is not PEM text (-----BEGIN CERTIFICATE----- / -----BEGIN PRIVATE KEY-----)"
        }
    }
}
