import Determinism
import FlowCatalog
import FlowEngine
import IdentityProvider
import IdpSdk
import KSMasterController
import Secrets
import Simulation
import Testing

/// Two processes on one state file: two worlds over the same stores.
@Suite struct SharedStoreTests {
    /// Two runs of `idp-tui run activate` (or `legacy-activate`) on one file, both from the default seed: each
    /// loads the device (not activated) before either activates, so the IdP mints both the same astClientId.
    @Test(arguments: [FlowKind.activate, .legacyActivate])
    func twoActivationsOfOneDeviceFromOneSeedLeaveTheWinnerAbleToLogIn(_ kind: FlowKind) throws {
        let stores = SimulationStores(
            identityProvider: MemoryIdentityProviderStore(), device: MemoryDeviceStore(), startOver: "starting again")
        let winner = FlowService(environment: SimulationEnvironment(clock: ManualClock(), seed: 1, stores: stores))
        let loser = FlowService(environment: SimulationEnvironment(clock: ManualClock(), seed: 1, stores: stores))
        let held = RecordingFrontEnd()
        loser.start(kind)
        #expect(loser.drive(held, until: { !held.prompts.isEmpty }), "the loser waits at its credentials")

        let alice = RecordingFrontEnd.answering([Demo.aliceActivation, Demo.alice])
        #expect(winner.run(kind, with: alice)?.outcome == .success)

        let bob = RecordingFrontEnd.answering([["username": "bob", "password": "builder", "activation-code": "654321"]])
        held.answer = bob.answer
        if let first = held.answer(held.prompts[0]) { loser.answer(held.prompts[0], with: first) }
        #expect(loser.drive(held, until: { !held.results.isEmpty }))
        let lost = try #require(held.results.first)
        #expect(lost.status == StatusType.INVALID_STATE.name)
        #expect(lost.error?.message.contains("activated meanwhile") == true, "\(lost.error?.message ?? "")")
        // Not the advice for events sent out of order, which INVALID_STATE gives otherwise.
        #expect(lost.advice?.hasPrefix("Another process on this state file activated the device first, for alice: log in as that user") == true,
                "\(lost.advice ?? "no advice")")

        // The device is alice's, and the IdP still says so: the loser's binding did not replace hers.
        let login = try #require(winner.run(kind == .activate ? .login : .legacyLogin, with: alice))
        #expect(login.outcome == .success, "\(login.status) \(login.error?.message ?? "")")
        #expect(login.user == "alice")
    }

    /// A logout says whether a user was logged in by the state file, not by what this process loaded at its start:
    /// after another process's logout, both said `wasLoggedIn: true`.
    @Test func aLogoutAfterAnotherProcesssLogoutSaysNoOneWasLoggedIn() throws {
        let stores = SimulationStores(
            identityProvider: MemoryIdentityProviderStore(), device: MemoryDeviceStore(), startOver: "starting again")
        let first = FlowService(environment: SimulationEnvironment(clock: ManualClock(), seed: 1, stores: stores))
        let second = FlowService(environment: SimulationEnvironment(clock: ManualClock(), seed: 2, stores: stores))
        #expect(first.run(.activate, with: RecordingFrontEnd.answering([Demo.aliceActivation, Demo.alice]))?.outcome == .success)
        let other = try #require(second.run(.logout, with: RecordingFrontEnd.answering([])))
        #expect(other.device?.wasLoggedIn == true)
        let late = try #require(first.run(.logout, with: RecordingFrontEnd.answering([])))
        #expect(late.outcome == .success)
        #expect(late.device?.wasLoggedIn == false)
    }

    /// Another process resets the state file while a login waits at its credentials (a CI's cleanup job): the login
    /// fails when it stores its tokens, the device stays reset, and its advice says so. It wrote the activation back,
    /// which the IdP's reset had forgotten, and every later login and activation failed until the next reset.
    @Test(arguments: [FlowKind.login, .legacyLogin])
    func aLoginThatAnotherProcessResetTheDeviceUnderFailsAndLeavesItReset(_ kind: FlowKind) throws {
        let device = MemoryDeviceStore()
        let identityProvider = MemoryIdentityProviderStore()
        let stores = SimulationStores(identityProvider: identityProvider, device: device, startOver: "starting again")
        let service = FlowService(environment: SimulationEnvironment(clock: ManualClock(), seed: 1, stores: stores))
        #expect(service.run(.activate, with: RecordingFrontEnd.answering([Demo.aliceActivation]))?.outcome == .success)
        // The device row goes, as a reset takes it; the IdP's binding stays for this process's own IdP, so that the
        // login reaches its SetAuthorisationCode.
        let resetting = RecordingFrontEnd.answering([Demo.aliceActivation, Demo.alice])
        let answer = resetting.answer
        resetting.answer = { prompt in
            try? device.update { $0 = nil }
            return answer(prompt)
        }
        let login = try #require(service.run(kind, with: resetting))
        #expect(login.status == StatusType.INVALID_STATE.name)
        #expect(login.error?.message.hasSuffix("the device was reset meanwhile by another process on this state file; activate it again") == true,
                "\(login.error?.message ?? "")")
        #expect(login.advice == "Another process on this state file reset the device while this login ran: activate it again.",
                "\(login.advice ?? "no advice")")
        #expect(try device.load()?.activation == nil)
    }

    /// Reset and activated again by another process while a login waits at its credentials: the login fails rather
    /// than write its tokens onto the other activation, which stays.
    @Test func aLoginThatFindsTheDeviceActivatedAgainFailsAndLeavesTheOtherActivation() throws {
        let device = MemoryDeviceStore()
        let stores = SimulationStores(identityProvider: MemoryIdentityProviderStore(), device: device, startOver: "starting again")
        let service = FlowService(environment: SimulationEnvironment(clock: ManualClock(), seed: 1, stores: stores))
        #expect(service.run(.activate, with: RecordingFrontEnd.answering([Demo.aliceActivation]))?.outcome == .success)
        let activatedAgain = RecordingFrontEnd.answering([Demo.aliceActivation, Demo.alice])
        let answer = activatedAgain.answer
        activatedAgain.answer = { prompt in
            try? device.update { $0?.activation?.astClientId = "ANOTHERCLIENTOFTHEDEVICE00" }
            return answer(prompt)
        }
        let login = try #require(service.run(.login, with: activatedAgain))
        #expect(login.status == StatusType.INVALID_STATE.name)
        #expect(login.error?.message == "the device was reset and activated again, as ANOTHERCLIENTOFTHEDEVICE00, by another process on this state file")
        #expect(login.advice == "Another process on this state file reset the device and activated it again, for alice, while this login ran: log in again.",
                "\(login.advice ?? "no advice")")
        #expect(try device.load()?.activation?.astClientId == "ANOTHERCLIENTOFTHEDEVICE00")
    }
}
