import CLibCrypto
import Foundation

/// A certificate chain, leaf first, as a TLS server presents it and as an app pins it.
public struct CertificateChain: Sendable, Equatable {
    public let certificates: [Certificate]

    public init(certificates: [Certificate]) {
        self.certificates = certificates
    }

    /// Parses every `CERTIFICATE` block of a PEM text, in order.
    public init(pem: String) throws(CertificateError) {
        let expected = pem.components(separatedBy: "-----BEGIN CERTIFICATE-----").count - 1
        guard expected > 0 else { throw .malformed("no PEM certificate block found") }
        var parsed: [Certificate] = []
        let bytes = Array(pem.utf8)
        let bio = bytes.withUnsafeBytes { BIO_new_mem_buf($0.baseAddress, Int32($0.count)) }
        guard let bio else { throw .malformed("cannot read PEM text") }
        defer { BIO_free(bio) }
        while let x509 = PEM_read_bio_X509(bio, nil, nil, nil) {
            defer { X509_free(x509) }
            parsed.append(try Certificate(x509: x509))
        }
        ERR_clear_error()
        guard parsed.count == expected else {
            throw .malformed("PEM certificate block \(parsed.count + 1) of \(expected) is not a valid certificate")
        }
        certificates = parsed
    }

    public var leaf: Certificate? { certificates.first }
    public var root: Certificate? { certificates.last }

    /// Checks that each certificate is signed by the next, that the last signs itself, and that every
    /// certificate is valid at `date`.
    public func validate(at date: Date) throws(CertificateError) {
        guard let root else { throw .malformed("the chain is empty") }
        for certificate in certificates where date < certificate.notBefore || date > certificate.notAfter {
            throw .expired(certificate.description)
        }
        for (child, parent) in zip(certificates, certificates.dropFirst()) where !child.isSigned(by: parent) {
            throw .brokenChain("\(child.description) is not signed by \(parent.description)")
        }
        guard root.isSigned(by: root) else { throw .brokenChain("\(root.description) is not self-signed") }
    }

    /// True when this chain (as presented by a server) contains a certificate that `pins` trusts:
    /// the same DER bytes as one of the pinned certificates.
    public func isPinned(by pins: CertificateChain) -> Bool {
        let pinned = pins.certificates.map(\.fingerprint)
        return certificates.contains { certificate in
            pinned.contains { ConstantTime.equals($0, certificate.fingerprint) }
        }
    }
}

/// Why a certificate or a chain cannot be used.
public enum CertificateError: Error, Equatable, Sendable, CustomStringConvertible {
    case malformed(String)
    case expired(String)
    case brokenChain(String)

    public var description: String {
        switch self {
        case .malformed(let why): "malformed certificate: \(why)"
        case .expired(let which): "certificate \(which) is outside its validity period"
        case .brokenChain(let why): "broken certificate chain: \(why)"
        }
    }
}
