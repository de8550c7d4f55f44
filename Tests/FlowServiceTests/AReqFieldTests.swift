import Determinism
import FlowCatalog
import FlowEngine
import FlowRecords
import Foundation
import PaymentFlows
import Simulation
import Testing

/// The AReq carries what the issuer judges and when the cardholder paid (EMV 3DS 2.2's cardExpiryDate, YYMM, and
/// purchaseDate, YYYYMMDDHHMMSS in UTC).
@Suite struct AReqFieldTests {
    let clock = ManualClock()

    func areq(_ card: String, expiry: String) throws -> (fields: [String: String], sentAt: Date, ares: [String: String]) {
        let service = FlowService(environment: SimulationEnvironment(clock: clock), configuration: FlowConfiguration())
        let frontEnd = paying(card, expiry: expiry)
        let result = try #require(service.run(.payerAuth, with: frontEnd))
        let events = frontEnd.events(of: result.flowID)
        func fields(_ step: String) throws -> (FlowEvent, [String: String]) {
            let event = try #require(events.first { $0.step.rawValue == step })
            let message = try #require(event.message)
            return (event, try #require(try JSONSerialization.jsonObject(with: Data(message.utf8)) as? [String: String]))
        }
        let (event, areq) = try fields("AReq")
        return (areq, event.time.date, try fields("ARes").1)
    }

    func utc(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMddHHmmss"
        return formatter.string(from: date)
    }

    @Test func theAReqCarriesTheExpiryAndThePurchaseTime() throws {
        clock.advance(by: .seconds(3_600 * 24 * 40 + 61))
        let (fields, sentAt, _) = try areq("4000000000002701", expiry: "07/31")
        #expect(fields["cardExpiryDate"] == "3107", "\(fields)")
        #expect(fields["purchaseDate"] == utc(sentAt), "\(fields)")
    }

    /// An expired card's N with reason 05 is judged on an expiry the AReq shows.
    @Test func anExpiredCardsAReqShowsTheExpiryTheIssuerRefused() throws {
        let (fields, _, ares) = try areq("4000000000002701", expiry: "01/20")
        #expect(ares["transStatus"] == "N" && ares["transStatusReason"] == "05", "\(ares)")
        #expect(fields["cardExpiryDate"] == "2001", "\(fields)")
        #expect((fields["purchaseDate"] ?? "") > "2001", "\(fields)")
    }
}
