import PaymentFlows
import Testing

@Suite struct PaymentFormMessageTests {
    /// Pay says an impossible month as the form says it while it is typed, spaces or not (`1 3/30` said "write it
    /// as MM/YY" at Pay).
    @Test func payAndTypingSayTheSameOfAMonth() {
        func atPay(_ expiry: String) -> String? {
            do {
                _ = try PaymentForm.details(card: "4000000000002503", expiry: expiry, amount: "1", currency: "EUR", merchant: "m")
                return nil
            } catch {
                return error.message
            }
        }
        for expiry in ["13", "1 3/30", "13 / 30", "1330", "00/30"] {
            #expect(PaymentForm.strayCharacterProblem(.expiry, PaymentForm.formatExpiry(expiry)) == "the month must be 01 to 12", "\(expiry)")
            #expect(atPay(expiry) == "the month must be 01 to 12", "\(expiry)")
        }
        #expect(atPay("13/ab") == "write it as MM/YY, e.g. 12/30")
    }
}
