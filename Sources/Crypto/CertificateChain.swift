import CLibCrypto
import Foundation
import Threading

/// A certificate chain, leaf first, as a TLS server presents it and as an app pins it.
public struct CertificateChain: Sendable, Equatable {
    public let certificates: [Certificate]
    /// Why the signatures do not chain up, if they do not. Signatures never change, so they are checked
    /// once here; ``validate(at:)`` then only has the dates left to check.
    private let brokenLink: CertificateError?

    public init(certificates: [Certificate]) {
        self.certificates = certificates
        brokenLink = Self.checkSignatures(certificates)
    }

    /// Parses a PEM text, reusing the result for a text parsed before: OpenSSL 3's PEM decoder is slow, and
    /// every new `IdpSdkService` parses the same pinned chain.
    public static func parsed(pem: String) throws(CertificateError) -> CertificateChain {
        // The last text first: comparing a string with itself is one pointer check, where hashing it for the
        // table reads all of its 3 KB.
        if let last = last.withLock({ $0 }), last.pem == pem { return try last.result.get() }
        if let cached = cache.withLock({ $0[pem] }) {
            last.withLock { $0 = (pem, cached) }
            return try cached.get()
        }
        let result: Result<CertificateChain, CertificateError>
        do throws(CertificateError) {
            result = .success(try CertificateChain(pem: pem))
        } catch {
            result = .failure(error)
        }
        cache.withLock { cache in
            if cache.count >= 16 { cache.removeAll() }
            cache[pem] = result
        }
        last.withLock { $0 = (pem, result) }
        return try result.get()
    }

    private static let last = Locked<(pem: String, result: Result<CertificateChain, CertificateError>)?>(nil)
    private static let cache = Locked<[String: Result<CertificateChain, CertificateError>]>([:])

    /// Parses every `CERTIFICATE` block of a PEM text, in order.
    public init(pem: String) throws(CertificateError) {
        let expected = pem.components(separatedBy: "-----BEGIN CERTIFICATE-----").count - 1
        guard expected > 0 else { throw .malformed("no PEM certificate block found") }
        // BIO_new_mem_buf reads the caller's memory without copying it, so every read stays inside the
        // closure that lends the bytes.
        let bytes = Array(pem.utf8)
        let outcome = bytes.withUnsafeBytes { buffer -> Result<[Certificate], CertificateError> in
            guard let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(buffer.count)) else {
                return .failure(.malformed("cannot read PEM text"))
            }
            defer { BIO_free(bio) }
            var certificates: [Certificate] = []
            while let x509 = PEM_read_bio_X509(bio, nil, nil, nil) {
                defer { X509_free(x509) }
                do throws(CertificateError) {
                    certificates.append(try Certificate(x509: x509))
                } catch {
                    return .failure(error)
                }
            }
            return .success(certificates)
        }
        let parsed = try outcome.get()
        ERR_clear_error()
        guard parsed.count == expected else {
            throw .malformed("PEM certificate block \(parsed.count + 1) of \(expected) is not a valid certificate")
        }
        self.init(certificates: parsed)
    }

    /// Parses DER certificates one after another (an Android app's `.cer` asset holds one, or several
    /// concatenated), in order.
    public init(der: [UInt8]) throws(CertificateError) {
        var certificates: [Certificate] = []
        var offset = 0
        while offset < der.count {
            let parsed = der.withUnsafeBufferPointer { buffer -> (OpaquePointer, Int)? in
                guard let base = buffer.baseAddress else { return nil }
                var cursor: UnsafePointer<UInt8>? = base + offset
                guard let x509 = d2i_X509(nil, &cursor, buffer.count - offset), let end = cursor else { return nil }
                return (x509, end - base)
            }
            guard let (x509, end) = parsed else {
                ERR_clear_error()
                throw .malformed("DER certificate \(certificates.count + 1) (at byte \(offset)) is not a valid certificate")
            }
            defer { X509_free(x509) }
            certificates.append(try Certificate(x509: x509))
            offset = end
        }
        guard !certificates.isEmpty else { throw .malformed("the chain is empty") }
        self.init(certificates: certificates)
    }

    /// A chain as an app ships it in its assets and passes it to the SDK as bytes: PEM text (read once, then
    /// reused: ``parsed(pem:)``) or DER.
    public static func parsed(asset: Data) throws(CertificateError) -> CertificateChain {
        // Every new `IdpSdkService` passes the same asset: comparing bytes is a memcmp, where looking for the
        // PEM marker in its text costs Foundation's string search, about 10,000 instructions a device.
        if let last = lastAsset.withLock({ $0 }), last.asset == asset { return try last.result.get() }
        let result = Result { () throws(CertificateError) in try chain(asset: asset) }
        lastAsset.withLock { $0 = (asset, result) }
        return try result.get()
    }

    private static let lastAsset = Locked<(asset: Data, result: Result<CertificateChain, CertificateError>)?>(nil)

    private static func chain(asset: Data) throws(CertificateError) -> CertificateChain {
        let bytes = [UInt8](asset)
        if bytes.first == 0x30 { return try CertificateChain(der: bytes) }  // a DER SEQUENCE
        // Read as the PEM decoder reads it: a byte that is not UTF-8 (a Latin-1 "Bag Attributes" header) is not refused.
        let text = String(decoding: bytes, as: UTF8.self)
        guard text.contains("-----BEGIN CERTIFICATE-----") else {
            throw .malformed("neither a PEM certificate block nor DER certificates")
        }
        return try parsed(pem: text)
    }

    public var leaf: Certificate? { certificates.first }
    public var root: Certificate? { certificates.last }

    /// Checks that each certificate is signed by the next, that the last signs itself, and that every
    /// certificate is valid at `date`.
    public func validate(at date: Date) throws(CertificateError) {
        if let brokenLink { throw brokenLink }
        for certificate in certificates where date < certificate.notBefore || date > certificate.notAfter {
            throw .expired(certificate.description)
        }
    }

    private static func checkSignatures(_ certificates: [Certificate]) -> CertificateError? {
        guard let root = certificates.last else { return .malformed("the chain is empty") }
        for (child, parent) in zip(certificates, certificates.dropFirst()) where !child.isSigned(by: parent) {
            return .brokenChain("\(child.description) is not signed by \(parent.description)")
        }
        guard root.isSigned(by: root) else { return .brokenChain("\(root.description) is not self-signed") }
        return nil
    }

    public static func == (lhs: CertificateChain, rhs: CertificateChain) -> Bool {
        lhs.certificates == rhs.certificates
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
