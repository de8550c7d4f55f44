import Foundation
import Secrets
import Testing

@Suite struct SecretTests {
    let secret = Secret("wonderland")

    @Test func everyPrintingPathIsRedacted() {
        var dumped = ""
        dump(secret, to: &dumped)
        var printed = ""
        print(secret, to: &printed)
        let outputs = [
            secret.description, secret.debugDescription, "\(secret)", String(describing: secret),
            String(reflecting: secret), dumped, printed, "\([secret])", "\(["password": secret])",
            String(describing: Optional(secret)), "\(Mirror(reflecting: secret).children.map { "\($0)" })",
        ]
        for output in outputs {
            #expect(!output.contains("wonderland"), "leaked through: \(output)")
        }
        #expect(secret.description == "<redacted>")
        #expect(Mirror(reflecting: secret).children.isEmpty)
    }

    @Test func aStructHoldingASecretDumpsRedacted() {
        struct Login { let user: String; let password: Secret }
        var dumped = ""
        dump(Login(user: "alice", password: secret), to: &dumped)
        #expect(dumped.contains("alice"))
        #expect(!dumped.contains("wonderland"))
    }

    @Test func isNotCodable() {
        #expect(!(Secret.self is any Encodable.Type))
        #expect(!(Secret.self is any Decodable.Type))
    }

    @Test func revealsOnlyOnRequest() {
        #expect(secret.reveal() == "wonderland")
        #expect(secret.byteCount == 10)
        #expect(Secret("pässwörd").characterCount == 8)
        #expect(Secret("").isEmpty)
    }

    @Test func comparesByValue() {
        #expect(secret == Secret("wonderland"))
        #expect(secret != Secret("wonderlanD"))
        #expect(secret != Secret("wonder"))
    }

    @Test func consumingInitWipesTheSource() {
        var bytes = Array("123456".utf8)
        let code = Secret(consuming: &bytes)
        #expect(bytes == [0, 0, 0, 0, 0, 0])
        #expect(code.reveal() == "123456")
    }
}
