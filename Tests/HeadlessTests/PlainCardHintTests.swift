import Foundation
import Testing

/// Plain mode's card form names a card of the scenario's that asks for a code: it named Visa 4000 0000 0000 2503
/// whatever the scenario held, with the default cards left out too (that number then ended U, reason 13).
@Suite struct PlainCardHintTests {
    static func scenario(_ card: String) -> String {
        #"{"scenario":1,"name":"own-cards","identityProvider":{"tenants":[{"id":"t","users":[{"username":"a","password":"p"}]}]},"#
            + #""payments":{"includeDefaultCards":false,"cards":[{"number":"4111111111111111","title":"mine",\#(card)}]}}"#
    }

    @Test func theHintNamesACardOfTheScenario() throws {
        let asking = try BinaryRun.run(["--ephemeral", "--scenario", try temporaryFile(Self.scenario(#""challenge":"text","final":"Y""#))],
                                       stdin: "4\n4111111111111111\n12/30\n\n\n\n1234\n\nq\n")
        #expect(asking.status == 0, "\(asking.stderr)")
        #expect(asking.stdout.contains("? TEXT those matching (Visa 4111 1111 1111 1111 asks for a code, 1234)\n"), "\(asking.stdout)")
        #expect(!asking.stdout.contains("2503"))
        let none = try BinaryRun.run(["--ephemeral", "--scenario", try temporaryFile(Self.scenario(#""frictionless":"Y""#))],
                                     stdin: "4\n4111111111111111\n12/30\n\n\n\n\n\nq\n")
        #expect(none.status == 0, "\(none.stderr)")
        #expect(none.stdout.contains("Test cards: ? lists them, ? TEXT those matching\n"), "no card asks for a code: \(none.stdout)")
        #expect(!none.stdout.contains("2503"))
    }
}
