import Determinism
import FlowCatalog
import FlowEngine
import FlowRecords
import Foundation
import PaymentFlows
import Simulation
import Testing
import ThreeDSecure

/// What a CRes carries for the 3DS SDK to draw a native challenge screen (EMV 3DS 2.2: the header, the text, the
/// entry's label, a select screen's options), against what the screen the cardholder saw shows.
@Suite struct ChallengeScreenMessageTests {
    let clock = ManualClock()

    func messages(_ card: String, _ actions: [PromptAnswer]) throws -> (RecordingFrontEnd, [(String, [String: Any])]) {
        let service = FlowService(environment: SimulationEnvironment(clock: clock), configuration: FlowConfiguration())
        let frontEnd = paying(card, actions: actions)
        let result = try #require(service.run(.payerAuth, with: frontEnd))
        let messages = try frontEnd.events(of: result.flowID).compactMap { event -> (String, [String: Any])? in
            guard let message = event.message else { return nil }
            return (event.step.rawValue, try #require(try JSONSerialization.jsonObject(with: Data(message.utf8)) as? [String: Any]))
        }
        return (frontEnd, messages)
    }

    @Test func aSelectScreensCResListsItsOptionsUnderTheNamesTheCReqAnswersWith() throws {
        let (frontEnd, messages) = try messages("4000009900000012", [.challenge(.answer(.select([2])))])
        let screen = try #require(frontEnd.challengeScreens.first)
        let cres = try #require(messages.first { $0.0 == "CRes" }?.1)
        let options = try #require(cres["challengeSelectInfo"] as? [[String: String]])
        #expect(options.flatMap(\.values) == screen.options)
        let creq = try #require(messages.first { $0.0 == "CReq" && $0.1["challengeDataEntry"] != nil }?.1)
        let chosen = try #require(creq["challengeDataEntry"] as? String)
        #expect(options.compactMap { $0[chosen] } == ["Lisbon"])
        #expect(cres["challengeInfoText"] as? String == screen.prompt)
        #expect(cres["challengeInfoHeader"] != nil && cres["challengeInfoLabel"] != nil)
    }

    @Test func aCodeScreensCResCarriesItsTextAndAfterAWrongCodeTheWarning() throws {
        let (frontEnd, messages) = try messages("4000000000002503", [code("0000"), code("1234")])
        let screens = frontEnd.challengeScreens
        let cres = messages.filter { $0.0 == "CRes" && $0.1["challengeCompletionInd"] as? String == "N" }.map(\.1)
        #expect(cres.count == 2 && screens.count == 2)
        #expect(cres.first?["challengeInfoText"] as? String == screens.first?.prompt)
        #expect(cres.first?["challengeInfoTextIndicator"] as? String == "N")
        #expect(cres.first?["challengeInfoHeader"] != nil && cres.first?["challengeInfoLabel"] != nil)
        let warning = try #require(screens.last?.message)
        #expect((cres.last?["challengeInfoText"] as? String)?.contains(warning) == true)
        #expect(cres.last?["challengeInfoTextIndicator"] as? String == "Y")
    }

    /// A resent code's screen says so ("a new code was sent"), which is news, not a warning: its CRes's
    /// challengeInfoTextIndicator stays N, as docs/payer-authentication.md says (Y after a refused answer only).
    @Test func aResentCodesCResIsNoWarning() throws {
        let (frontEnd, messages) = try messages("4000000000002503", [.challenge(.answer(.resend)), code("1234")])
        #expect(frontEnd.challengeScreens.last?.message == "a new code was sent")
        let cres = messages.filter { $0.0 == "CRes" && $0.1["challengeCompletionInd"] as? String == "N" }.map(\.1)
        #expect(cres.count == 2)
        #expect((cres.last?["challengeInfoText"] as? String)?.contains("a new code was sent") == true)
        #expect(cres.last?["challengeInfoTextIndicator"] as? String == "N", "\(String(describing: cres.last))")
    }

    @Test func anOutOfBandScreensCResCarriesItsText() throws {
        let (frontEnd, messages) = try messages("4000009900000038", [.challenge(.decideOnOtherDevice(approve: true))])
        let cres = try #require(messages.first { $0.0 == "CRes" }?.1)
        #expect(cres["challengeInfoText"] as? String == frontEnd.challengeScreens.first?.prompt)
        #expect(cres["challengeInfoHeader"] != nil)
    }
}
