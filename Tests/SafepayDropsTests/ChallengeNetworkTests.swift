import Foundation
import DropsWeb
import SafepayDropsSDK
import Secrets
import Testing

/// The network lost between the ARes and the first CReq: the CReq cannot leave the device, so it is not lost on the
/// way, whatever faults are on; the 3DS SDK's runtime error ends the challenge at once.
@Suite struct ChallengeNetworkTests {
    /// Pays with the step-up card, the first CReq set to be lost; `offlineFirst` takes the network away when the page
    /// says a challenge follows.
    func pay(offlineFirst: Bool) -> (DropsHarness, SwitchableNetwork) {
        let network = SwitchableNetwork()
        let cardholder = ScriptedCardholder(card: "4000000000002503", actions: [.answer(.code(Secret("1234")))])
        if offlineFirst { cardholder.beforeChallenge.withLock { $0 = { network.offline.withLock { $0 = true } } } }
        let harness = DropsHarness(cardholder: cardholder, faults: BridgeFaults(threeDS: ThreeDSFaults(firstCReqLost: true)),
                                   network: network)
        harness.start()
        return (harness, network)
    }

    @Test func theNetworkLostBeforeALostFirstCReqEndsTheChallengeAtOnceWithARuntimeError() throws {
        let (harness, network) = pay(offlineFirst: true)
        // No clock is advanced: the ACS's 30 s first-CReq timer is not what ends it.
        #expect(harness.delegate.wait(for: 2), "\(harness.delegate.names)")
        #expect(harness.delegate.names == ["required", "failure"])
        guard case .failure(let data)? = harness.delegate.calls.withLock({ $0.last }) else { return }
        #expect(data.threeDSecure?.transStatus == nil, "no final transStatus came")
        #expect(data.error.contains("System Connection Failure: the network is unavailable: the device is offline"),
                "\(data.error)")
        let runtimeError = try #require(harness.logged("runtimeError").first)
        #expect(runtimeError.detail.contains("its first-CReq timer (30 s) ends the challenge N, challengeCancel 05"), "\(runtimeError.detail)")
        #expect(!network.faults.withLock { $0 }.contains { $0.contains("the first CReq is lost") }, "\(network.faults.withLock { $0 })")
        #expect(harness.logged("Erro").isEmpty)
    }

    /// The same payment with the network on: the lost CReq bites, and only the ACS's timer ends the challenge.
    @Test func withTheNetworkOnTheLostFirstCReqWaitsForTheACSTimer() throws {
        let (harness, network) = pay(offlineFirst: false)
        #expect(harness.waitForLog { _ in network.faults.withLock { $0 }.contains { $0.contains("the first CReq is lost") } })
        // Required reaches the delegate on the main queue, maybe after the fault's line.
        #expect(harness.delegate.wait(for: 1))
        #expect(harness.delegate.names == ["required"], "nothing ends it before the ACS's timer")
        // The ACS's timer is set just after the fault's line: the clock moves until it has fired.
        for _ in 0..<1000 where harness.delegate.calls.withLock({ $0.count }) < 2 {
            harness.clock.advance(by: .seconds(30))
            usleep(1000)
        }
        #expect(harness.delegate.wait(for: 2), "\(harness.delegate.names)")
        guard case .failure(let data)? = harness.delegate.calls.withLock({ $0.last }) else { Issue.record("\(harness.delegate.names)"); return }
        #expect(data.threeDSecure?.transStatus == "N")
        #expect(harness.logged("runtimeError").isEmpty)
    }
}
