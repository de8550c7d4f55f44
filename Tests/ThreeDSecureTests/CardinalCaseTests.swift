import Dispatch
import Determinism
import Foundation
import Secrets
import Testing
import Threading
import ThreeDSecure

/// Cardinal Commerce's published EMV 3DS test cases, written out here from its tables (and CyberSource's copies of
/// them, docs/payer-authentication.md), independently of `CardCatalog`: each default card must give these values.
@Suite struct CardinalCaseTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let number: String
        let testCase: Int
        let enrolled: String
        /// The ARes transStatus; nil when no ARes comes.
        let lookup: String?
        /// The result after the right one-time code, for the step-up cases.
        let final: String?
        let eci: String
        let errorCode: String?
        var testDescription: String { "Test Case \(testCase) \(number)" }
    }

    /// Visa, Mastercard, American Express and Discover, in that order, where Cardinal publishes a number.
    static func cases(_ testCase: Int, _ numbers: [String], enrolled: String = "Y", lookup: String?, final: String? = nil,
                      eci: (visa: String, mastercard: String), error: String? = nil) -> [Case] {
        numbers.filter { !$0.isEmpty }.map { number in
            Case(number: number, testCase: testCase, enrolled: enrolled, lookup: lookup, final: final,
                 eci: number.hasPrefix("5") ? eci.mastercard : eci.visa, errorCode: error)
        }
    }

    static let all: [Case] =
        cases(1, ["4000000000002701", "5200000000002235", "340000000002708", "6011000000002117"], lookup: "Y", eci: ("05", "02"))
        + cases(2, ["4000000000002925", "5200000000002276", "340000000002096", "6011000000002364"], lookup: "N", eci: ("07", "00"))
        + cases(3, ["4000000000002719", "5200000000002482", "340000000002872", "6011000000002646"], lookup: "A", eci: ("06", "01"))
        + cases(4, ["4000000000002313", "5200000000002268", "340000000002922", "6011000000002612"], lookup: "U", eci: ("07", "00"))
        + cases(5, ["4000000000002537", "5200000000002185", "340000000002062", "6011000000002711"], lookup: "R", eci: ("07", "00"))
        + cases(6, ["4000000000002990", "5200000000002409", "340000000002468", "6011000000002836"], enrolled: "U", lookup: nil,
                eci: ("07", "00"), error: "101")
        + cases(7, ["4000000000002446", "5200000000002037", "340000000002732", "6011000000002315"], enrolled: "U", lookup: nil,
                eci: ("07", "00"), error: "101")
        + cases(8, ["4000000000002354", "5200000000002326", "340000000002047", "6011000000002869"], enrolled: "U", lookup: nil,
                eci: ("07", "00"), error: "402")
        + cases(9, ["4000000000002503", "5200000000002151", "340000000002534", "6011000000002265"], lookup: "C", final: "Y",
                eci: ("05", "02"))
        + cases(10, ["4000000000002370", "5200000000002490", "340000000002237", "6011000000002695"], lookup: "C", final: "N",
                eci: ("07", "00"))
        + cases(11, ["4000000000002420", "5200000000002664", "340000000002484"], lookup: "C", final: "U", eci: ("07", "00"))
        + cases(12, ["4000000000002644", "5200000000002656", "340000000002351", "6011000000002570"], lookup: "C", final: "U",
                eci: ("07", "00"), error: "403")
        + cases(13, ["4000000000002560", "5200000000002508", "340000000002948", "6011000000002976"], enrolled: "B", lookup: nil,
                eci: ("07", "00"))

    @Test func everyCaseIsADefaultCard() {
        #expect(Set(Self.all.map(\.number)).isSubset(of: Set(CardCatalog.defaults.map(\.number))))
        #expect(Self.all.count == 51)
    }

    @Test(arguments: all)
    func theCardGivesCardinalsValues(_ expected: Case) throws {
        let clock = ManualClock()
        let acs = AccessControlServer(clock: clock, random: RandomSource(seed: 9))
        let request = AuthenticationRequest(
            threeDSServerTransID: "3ds-1", card: try CardNumber(expected.number), expiryMonth: 1, expiryYear: 2033,
            amountMinorUnits: 4999, currency: "EUR", merchantName: "Demo Shop")
        let response: AuthenticationResponse
        if expected.errorCode == "402" {
            // The lookup times out on the simulation clock.
            let answered = Locked<AuthenticationResponse?>(nil)
            let done = DispatchSemaphore(value: 0)
            Thread.detachNewThread {
                answered.withLock { $0 = try? acs.authenticateWaiting(request) }
                done.signal()
            }
            #expect(clock.waitForPendingTimers(atLeast: 1))
            clock.advance(by: acs.timers.lookup)
            #expect(done.wait(timeout: .now() + 10) == .success, "the lookup did not end once its timer passed")
            response = try #require(answered.withLock { $0 })
        } else {
            response = try acs.authenticateWaiting(request)
        }
        #expect(response.enrolled.rawValue == expected.enrolled)
        #expect(response.transStatus?.rawValue == expected.lookup)
        #expect(response.signatureVerification == (expected.enrolled == "Y" ? "Y" : nil))
        guard let final = expected.final else {
            #expect(response.eci == expected.eci)
            #expect(response.error?.errorCode == expected.errorCode)
            return
        }
        #expect(response.acsChallengeMandated == "Y")
        let id = try #require(response.acsTransID)
        _ = try acs.start(id)
        let result = try #require({ () throws -> AuthenticationResult? in
            if case .completed(let result) = try acs.challenge(id, .code(Secret("1234"))) { return result }
            return nil
        }())
        #expect(result.transStatus.rawValue == final)
        #expect(result.eci == expected.eci)
        #expect(result.error?.errorCode == expected.errorCode)
        #expect((result.authenticationValue != nil) == (final == "Y"))
    }

    /// An Erro code has one description (EMV 3DS 2.2, table A.4), whichever test case sends it: case 6's and
    /// case 7's 101 read "Invalid Formatted Message" and "Error Processing Message Request".
    @Test func everyErroCodeHasOneDescription() {
        let errors = LookupOutcome.allCases.compactMap(\.error) + [
            .invalidFormat(.sdk), .timedOut(.server), .transientFailure(.acs), .connectionFailure(.server),
            .messageReceivedInvalid(.directoryServer),
        ]
        let descriptions = Dictionary(grouping: errors, by: \.errorCode).mapValues { Set($0.map(\.errorDescription)) }
        #expect(descriptions.values.allSatisfy { $0.count == 1 }, "\(descriptions)")
        #expect(descriptions["101"] == ["Message Received Invalid"])
    }
}
