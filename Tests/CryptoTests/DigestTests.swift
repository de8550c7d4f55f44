import Crypto
import Foundation
import Testing

@Suite struct DigestTests {
    @Test func sha256MatchesTheFIPSVector() {
        #expect(Hex.encode(SHA256.digest("abc")) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test func hmacMatchesRFC4231TestCase2() {
        let mac = HMAC.sha256(key: Array("Jefe".utf8), message: Array("what do ya want for nothing?".utf8))
        #expect(Hex.encode(mac) == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    }

    @Test func aKeyMadeOnceSignsManyMessagesAsTheOneShotDoes() {
        let key = HMAC.Key(Array("Jefe".utf8))
        let message = Array("what do ya want for nothing?".utf8)
        // The same message twice (the keyed state is only read), then another under the same key.
        #expect(Hex.encode(key.authenticate(message)) == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
        #expect(Hex.encode(key.authenticate(message)) == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
        #expect(key.authenticate(Array("other".utf8)) == HMAC.sha256(key: Array("Jefe".utf8), message: Array("other".utf8)))
        // An empty key and message (a well-known value).
        #expect(Hex.encode(HMAC.Key([UInt8]()).authenticate([UInt8]()))
            == "b613679a0814d9ec772f95d778c35fc5ff1697c493715653c6c712144292c5ad")
    }

    @Test func pbkdf2WithAnEmptyPasswordAndSaltStillDerives() {
        // libcrypto needs non-null pointers for empty inputs; lengths say they are empty.
        let derived = PBKDF2.sha256(password: [UInt8](), salt: [UInt8](), iterations: 1)
        #expect(Hex.encode(derived) == "f7ce0b653d2d72a4108cf5abe912ffdd777616dbbb27a70e8204f3ae2d0f6fad")
        #expect(derived != PBKDF2.sha256(password: [1], salt: [UInt8](), iterations: 1))
    }

    @Test func pbkdf2MatchesAPublishedVector() {
        let key = PBKDF2.sha256(password: Array("password".utf8), salt: Array("salt".utf8), iterations: 1)
        #expect(Hex.encode(key) == "120fb6cffcf8b32c43e7225256c4f837a86548c92ccc35480805987cb70be17b")
        let slower = PBKDF2.sha256(password: Array("password".utf8), salt: Array("salt".utf8), iterations: 4096)
        #expect(Hex.encode(slower) == "c5e478d59288c841aa530db6845c4c8d962893a001ce4e11a4963873aa98134a")
    }

    @Test func constantTimeEqualsComparesContentAndLength() {
        #expect(ConstantTime.equals([1, 2, 3], [1, 2, 3]))
        #expect(!ConstantTime.equals([1, 2, 3], [1, 2, 4]))
        #expect(!ConstantTime.equals([1, 2, 3], [1, 2]))
        #expect(ConstantTime.equals([UInt8](), [UInt8]()))
    }

    @Test(arguments: [("", ""), ("f", "Zg"), ("fo", "Zm8"), ("foo", "Zm9v"), ("foob", "Zm9vYg"), ("fooba", "Zm9vYmE"),
                      ("foobar", "Zm9vYmFy")])
    func base64URLMatchesRFC4648WithoutPadding(_ plain: String, _ encoded: String) {
        #expect(Base64URL.encode(Array(plain.utf8)) == encoded)
        #expect(Base64URL.decode(encoded) == Array(plain.utf8))
    }

    @Test func pkceS256MatchesRFC7636AppendixB() {
        let verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
        #expect(Base64URL.encode(SHA256.digest(verifier)) == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
    }

    @Test func base64URLRoundTripsWithoutPadding() {
        let bytes: [UInt8] = [0xfb, 0xff, 0xfe, 0x00, 0x10]
        let text = Base64URL.encode(bytes)
        #expect(text == "-__-ABA")
        #expect(Base64URL.decode(text) == bytes)
        #expect(Base64URL.decode("not base64!") == nil)
    }

    @Test func base64URLRoundTripsEveryLengthAndMatchesFoundation() {
        for length in 0...40 {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
            let text = Base64URL.encode(bytes)
            let foundation = Data(bytes).base64EncodedString()
                .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
            #expect(text == foundation)
            #expect(Base64URL.decode(text) == bytes)
        }
        #expect(Base64URL.decode("A") == nil)
        #expect(Base64URL.decode("AB=") == nil)
        #expect(Base64URL.decode("AA") == [0])
        #expect(Base64URL.decode("AB") == nil, "non-canonical trailing bits")
    }

    @Test func uuidShapedIdentifiers() {
        #expect(Hex.uuid(Array(0..<16)) == "00010203-0405-4607-8809-0a0b0c0d0e0f")
        // RFC 4122: version 4 in the third group's first digit, the variant (8, 9, a or b) in the fourth's.
        #expect(Hex.uuid(Array(repeating: 0xff, count: 16)) == "ffffffff-ffff-4fff-bfff-ffffffffffff")
    }

    @Test func hexDigitsAsBytesAreTheStringsBytes() {
        for bytes: [UInt8] in [[], [0], [0x0f, 0xf0, 0xab], Array(0...255)] {
            #expect(Hex.encodedBytes(bytes) == Array(Hex.encode(bytes).utf8))
        }
        #expect(String(decoding: Hex.encodedBytes(SHA256.digest("abc")), as: UTF8.self)
            == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test func wipeZeroesTheBytes() {
        var bytes: [UInt8] = [1, 2, 3, 4]
        SecureMemory.wipe(&bytes)
        #expect(bytes == [0, 0, 0, 0])
    }
}
