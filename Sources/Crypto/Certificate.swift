import CLibCrypto
import Foundation

/// One X.509 certificate, parsed by libcrypto and kept as its DER bytes so that it is `Sendable`.
public struct Certificate: Sendable, Equatable, CustomStringConvertible {
    public let der: [UInt8]
    /// The subject in OpenSSL's one-line form, e.g. `/O=idp-tui simulation/CN=idp.demo.idp-tui.test`.
    public let subject: String
    public let issuer: String
    public let notBefore: Date
    public let notAfter: Date
    /// The SHA-256 fingerprint of the DER encoding.
    public let fingerprint: [UInt8]

    /// Parses DER bytes.
    public init(der: [UInt8]) throws(CertificateError) {
        guard let x509 = Self.parse(der) else { throw .malformed("not a DER X.509 certificate") }
        defer { X509_free(x509) }
        try self.init(x509: x509)
    }

    init(x509: OpaquePointer) throws(CertificateError) {
        var length = i2d_X509(x509, nil)
        guard length > 0 else { throw .malformed("certificate cannot be encoded") }
        var bytes = [UInt8](repeating: 0, count: Int(length))
        length = bytes.withUnsafeMutableBufferPointer { buffer in
            var cursor: UnsafeMutablePointer<UInt8>? = buffer.baseAddress
            return i2d_X509(x509, &cursor)
        }
        der = bytes
        fingerprint = SHA256.digest(bytes)
        subject = Self.oneLine(X509_get_subject_name(x509))
        issuer = Self.oneLine(X509_get_issuer_name(x509))
        guard let start = Self.date(X509_get0_notBefore(x509)), let end = Self.date(X509_get0_notAfter(x509)) else {
            throw .malformed("certificate \(subject) has an unreadable validity period")
        }
        notBefore = start
        notAfter = end
    }

    /// The common name of the subject, or the whole subject when it has none.
    public var commonName: String {
        guard let range = subject.range(of: "/CN=") else { return subject }
        return String(subject[range.upperBound...].prefix { $0 != "/" })
    }

    public var description: String { "\(commonName) (SHA-256 \(fingerprintPrefix)…)" }

    /// The fingerprint's first 8 bytes in hex, as messages show it.
    public var fingerprintPrefix: String { Hex.encode(fingerprint.prefix(8)) }

    /// True when `issuer`'s public key verifies this certificate's signature.
    public func isSigned(by issuer: Certificate) -> Bool {
        guard let child = Self.parse(der), let parent = Self.parse(issuer.der) else { return false }
        defer {
            X509_free(child)
            X509_free(parent)
        }
        guard let key = X509_get0_pubkey(parent) else { return false }
        let verified = X509_verify(child, key)
        ERR_clear_error()
        return verified == 1
    }

    static func parse(_ der: [UInt8]) -> OpaquePointer? {
        der.withUnsafeBufferPointer { buffer -> OpaquePointer? in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            let x509 = d2i_X509(nil, &cursor, buffer.count)
            if x509 == nil { ERR_clear_error() }
            return x509
        }
    }

    private static func oneLine(_ name: OpaquePointer?) -> String {
        guard let name else { return "" }
        var buffer = [CChar](repeating: 0, count: 512)
        guard X509_NAME_oneline(name, &buffer, Int32(buffer.count)) != nil else { return "" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func date(_ time: UnsafePointer<ASN1_TIME>?) -> Date? {
        guard let time else { return nil }
        var parts = tm()
        guard ASN1_TIME_to_tm(time, &parts) == 1 else { return nil }
        return Date(timeIntervalSince1970: TimeInterval(timegm(&parts)))
    }
}
