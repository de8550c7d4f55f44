import Crypto
import Foundation
import IdentityProvider
import Testing

@Suite struct CertificateChainTests {
    let genuine = try! CertificateChain(pem: IdentityProviderCertificates.genuinePEM)
    let impostor = try! CertificateChain(pem: IdentityProviderCertificates.impostorPEM)
    let in2030 = Date(timeIntervalSince1970: 1_893_456_000)

    @Test func parsesTheBundledChainLeafFirst() throws {
        #expect(genuine.certificates.count == 2)
        #expect(genuine.leaf?.commonName == "idp.demo.idp-tui.test")
        #expect(genuine.root?.commonName == "idp-tui Simulated Root CA")
        #expect(genuine.leaf?.issuer == genuine.root?.subject)
    }

    @Test func validatesSignaturesAndDates() throws {
        try genuine.validate(at: in2030)
        try impostor.validate(at: in2030)
        #expect(throws: CertificateError.self) { try genuine.validate(at: Date(timeIntervalSince1970: 7_500_000_000)) }
    }

    @Test func aLeafUnderAnotherRootIsABrokenChain() throws {
        let mixed = CertificateChain(certificates: [genuine.leaf!, impostor.root!])
        #expect {
            try mixed.validate(at: in2030)
        } throws: { error in
            guard case .brokenChain = error as? CertificateError else { return false }
            return true
        }
    }

    @Test func pinningAcceptsTheSameChainAndRejectsTheImpostor() {
        #expect(genuine.isPinned(by: genuine))
        #expect(CertificateChain(certificates: [genuine.leaf!]).isPinned(by: genuine))
        #expect(!impostor.isPinned(by: genuine))
        // Same names, different keys: pinning compares the certificates, not their names.
        #expect(impostor.leaf?.subject == genuine.leaf?.subject)
    }

    @Test(arguments: [
        "", "hello", "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n",
    ])
    func malformedPEMIsAnError(_ text: String) {
        #expect(throws: CertificateError.self) { try CertificateChain(pem: text) }
    }

    /// DER, as an Android app's `.cer` asset holds a chain: the certificates one after another.
    @Test func derCertificatesOneAfterAnotherAreTheSameChain() throws {
        let der = genuine.certificates.flatMap(\.der)
        #expect(try CertificateChain(der: der) == genuine)
        #expect(try CertificateChain.parsed(asset: Data(der)) == genuine)
        #expect(try CertificateChain.parsed(asset: Data(IdentityProviderCertificates.genuinePEM.utf8)) == genuine)
        // A header line that is not UTF-8 before the PEM block (openssl's Latin-1 "Bag Attributes") is no reason to refuse it.
        #expect(try CertificateChain.parsed(asset: Data("friendlyName: M\u{FC}ller\n".utf8.map { $0 == 0xC3 ? 0xFC : $0 }.filter { $0 != 0xBC }
            + Array(IdentityProviderCertificates.genuinePEM.utf8))) == genuine)
        #expect(throws: CertificateError.malformed("DER certificate 2 (at byte \(genuine.certificates[0].der.count)) is not a valid certificate")) {
            try CertificateChain(der: Array(der.dropLast(10)))
        }
        #expect(throws: CertificateError.malformed("neither a PEM certificate block nor DER certificates")) {
            try CertificateChain.parsed(asset: Data("hello".utf8))
        }
    }

    @Test func aGoodBlockFollowedByABadOneIsAnError() {
        let text = IdentityProviderCertificates.genuinePEM + "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n"
        #expect(throws: CertificateError.malformed("PEM certificate block 3 of 3 is not a valid certificate")) {
            try CertificateChain(pem: text)
        }
    }

    @Test func aReusedParseGivesEachTextItsOwnResult() throws {
        // Alternating texts defeat a cache that remembered only the last one by mistake, or keyed it wrongly.
        for _ in 0..<2 {
            #expect(try CertificateChain.parsed(pem: IdentityProviderCertificates.genuinePEM) == genuine)
            #expect(try CertificateChain.parsed(pem: IdentityProviderCertificates.impostorPEM) == impostor)
            #expect(throws: CertificateError.self) { try CertificateChain.parsed(pem: "hello") }
            #expect(try CertificateChain.parsed(pem: IdentityProviderCertificates.impostorPEM) == impostor)
        }
    }

    @Test func aReusedAssetGivesEachAssetItsOwnResult() throws {
        let genuinePEM = Data(IdentityProviderCertificates.genuinePEM.utf8)
        let impostorDER = Data(impostor.certificates.flatMap(\.der))
        for _ in 0..<2 {
            #expect(try CertificateChain.parsed(asset: genuinePEM) == genuine)
            #expect(try CertificateChain.parsed(asset: genuinePEM) == genuine)
            #expect(try CertificateChain.parsed(asset: impostorDER) == impostor)
            #expect(throws: CertificateError.self) { try CertificateChain.parsed(asset: Data("hello".utf8)) }
            #expect(throws: CertificateError.self) { try CertificateChain.parsed(asset: Data("hello".utf8)) }
            #expect(try CertificateChain.parsed(asset: Data(IdentityProviderCertificates.impostorPEM.utf8)) == impostor)
        }
    }
}
