import FlowEngine
import FlowRecords
import PaymentFlows
import Testing

/// The result screen's rows carry what an authorisation needs beside the authentication value and the ECI: the
/// dsTransID and the messageVersion (Mastercard requires both for 3DS 2.x), and the 3DS Server's id; Mastercard's
/// value is named its AAV. They were in the headless payment object and the history only.
@Suite struct PaymentResultRowsTests {
    @Test(arguments: [("5200000000002235", "AAV"), ("4000000000002701", "CAVV")])
    func aFrictionlessResultShowsTheIdsAnAuthorisationCarries(card: String, value: String) throws {
        let service = PaymentFlowTests().service()
        let result = try #require(service.run(.payerAuth, with: paying(card)))
        let payment = try #require(result.payment)
        let rows = result.summary.rows
        let ds = try #require(payment.dsTransID)
        let version = try #require(payment.messageVersion)
        let server = try #require(payment.threeDSServerTransID)
        #expect(rows.contains { $0.label == "DS" && $0.value == "dsTransID \(ds) · messageVersion \(version)" }, "\(rows)")
        #expect(rows.contains { $0.label == "3DS Server" && $0.value == "threeDSServerTransID \(server)" }, "\(rows)")
        #expect(rows.contains { $0.label == "3-D Secure" && $0.value.contains("\(value) ") }, "\(rows)")
        #expect(result.advice == "Authorise with the \(value), ECI, dsTransID and messageVersion; the issuer carries liability.")
    }

    /// A lookup that failed on an error (case 7) adds Cardinal's merchant action, contact support; the card range
    /// that takes no part (case 6), the same Erro 101, does not (the two read alike).
    @Test(arguments: [("4000000000002446", true), ("5200000000002037", true), ("4000000000002990", false)])
    func aLookupErrorAdvisesContactingSupport(card: String, error: Bool) throws {
        let service = PaymentFlowTests().service()
        let result = try #require(service.run(.payerAuth, with: paying(card)))
        #expect(result.payment?.nextAction == .proceedWithoutLiabilityShift)
        let support = "May authorise, without liability shift: the risk stays yours. The lookup failed on an error: contact your support representative to resolve it."
        #expect(result.advice == (error ? support : "May authorise, without liability shift: the risk stays yours."), "\(result.advice ?? "")")
        // The Erro's description is the code's own words; Cardinal's error number is its detail, a field of its own
        // (it was bracketed into the description, and the advice found it there by text), which the screen brackets.
        let payment = try #require(result.payment)
        #expect(payment.errorCode == "101")
        #expect(payment.errorDescription == "Message Received Invalid")
        #expect((payment.errorDetail == "Cardinal error 1001: Error Processing Message Request") == error, "\(payment.errorDetail ?? "")")
        let erro = try #require(result.summary.rows.first { $0.label == "Erro" })
        #expect(erro.value == "101 from the directory server: Message Received Invalid (\(payment.errorDetail ?? ""))")
    }
}
