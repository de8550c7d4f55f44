import Determinism
import FlowEngine
import IdentityProvider
import Testing

extension FaultTests {
    /// The skew is said as it is, a day in the singular ("runs 1 days ahead"), hours as hours (a 2 h skew read
    /// "0 days ahead"): a code with a few hours left expires under a small skew too.
    static let skews: [(skew: Int64, elapsed: Int64, said: String)] = [
        (31 * 86_400, 0, "31 days"),
        (86_400, 29 * 86_400 + 12 * 3_600, "1 day"),
        (2 * 3_600, 30 * 86_400 - 3_600, "2 h"),
    ]

    @Test(arguments: skews)
    func clockSkewMakesTheActivationCodeExpired(skew: Int64, elapsed: Int64, said: String) throws {
        var faults = IdentityFaults()
        faults.clockSkew = .seconds(skew)
        let clock = ManualClock()
        // The code's life runs from the IdP's start.
        let (result, events) = try run(.activate, faults: faults, clock: clock) { _, _ in clock.advance(by: .seconds(elapsed)) }
        #expect(result.status == "ACTIVATION_CODE_EXPIRED")
        #expect(events.first { $0.step == .faultsOn }?.detail == "clock skew \(said) ahead")
        // Where it bites, the log says so, and the advice names it.
        #expect(faultsLogged(events).contains { $0.hasPrefix("clock skew: the IdP's clock is ahead, past the activation code's expiry") },
                "\(faultsLogged(events))")
        #expect(result.advice?.hasPrefix("The clock-skew fault is on: the IdP's clock runs \(said) ahead, past the code's expiry") == true, "\(result.advice ?? "")")
    }
}
