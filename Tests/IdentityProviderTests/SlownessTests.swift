import Determinism
import IdentityProvider
import Testing

/// A timeout's advice names the latency to lower: the scenario's when it alone reaches the limit (an added latency
/// of 1 ms was blamed for a scenario's 35 s), the fault's when it alone does, else the two together.
@Suite struct SlownessTests {
    @Test(arguments: [
        (35_000, 0, "Each round trip takes 35 s, the scenario's network latency (35000 ms), and it gave up: lower network.latencyMs in the scenario, then retry."),
        (35_000, 1, "Each round trip takes 35.001 s, and it gave up: lower network.latencyMs in the scenario (35000 ms alone is too long), and the added-latency fault (+1 ms), then retry."),
        (0, 31_500, "Each round trip takes 31.5 s with the added-latency fault (+31500 ms), and it gave up: lower the added latency, then retry."),
        (150, 30_000, "Each round trip takes 30.15 s with the added-latency fault (+30000 ms) and the scenario's network latency (150 ms), and it gave up: lower the added latency, then retry."),
        (20_000, 15_000, "Each round trip takes 35 s: the scenario's network latency (20000 ms) and the added-latency fault (+15000 ms), and it gave up: lower them below 30 s together, then retry."),
    ])
    func theLatencyToLowerIsNamed(scenarioMs: Int, addedMs: Int, advice: String) throws {
        let network = SimulatedNetwork(clock: ManualClock())
        network.latency = .milliseconds(scenarioMs)
        network.faults.faults.addedLatency = .milliseconds(addedMs)
        let slow = try #require(network.slowness())
        #expect(slow.advice(gaveUp: "it gave up", then: "retry") == advice)
    }

    @Test func underTheLimitNothingIsSlowAndTheTimeoutFaultComesFirst() {
        let network = SimulatedNetwork(clock: ManualClock())
        network.faults.faults.addedLatency = .milliseconds(29_999)
        #expect(network.slowness() == nil)
        #expect(network.slowness(beyond: .seconds(10)) != nil)
        network.faults.faults.requestTimeout = true
        #expect(network.slowness() == .requestTimeoutFault)
    }
}
