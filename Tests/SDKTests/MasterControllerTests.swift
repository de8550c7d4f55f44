import Crypto
import Determinism
import Dispatch
import IdentityProvider
import KSMasterController
import Testing
import Threading

@Suite struct MasterControllerTests {
    @Test func startReportsActivationRequiredOnAFreshDevice() async throws {
        let harness = SDKHarness()
        let start = try #require(await harness.controller.receive(KSMStartEvent()) as? KSMStartResultEvent)
        #expect(start.status == .KSMOK)
        #expect(start.sdkState == .activationRequired)
        #expect(start.userList.isEmpty)
    }

    /// The fields KOBIL's iOS samples read from the Start, Restart and GetAstClientData results: `errorCode` and
    /// `reportId` as `Int`, `errorDescription` as a `String` (empty when all went well), `userDetailsList`.
    @Test func resultEventsCarryTheFieldsKobilsSamplesRead() async throws {
        let harness = SDKHarness()
        let (_, set) = await harness.signIn(
            clientId: KSMClientId.enrollment, ["username": "alice", "password": "wonderland", "activation-code": "123456"])
        #expect((set as? KSMSetAuthorisationCodeResultEvent)?.status == .KSMOK)
        let restart = try #require(await harness.controller.receive(KSMRestartEvent()) as? KSMRestartResultEvent)
        let start = try #require(await harness.controller.receive(KSMStartEvent()) as? KSMStartResultEvent)
        let ast = await harness.astClientData()
        let alice = KsUserIdentifier(tenantId: "demo", userId: "alice")
        for (users, details) in [(restart.userList, restart.userDetailsList), (start.userList, start.userDetailsList)] {
            #expect(users == [alice])
            #expect(details.map(\.userIdentifier) == [alice])
        }
        let reported: [(code: Int, report: Int, description: String)] = [
            (restart.errorCode, restart.reportId, restart.errorDescription), (start.errorCode, start.reportId, start.errorDescription),
            (ast.errorCode, ast.reportId, ast.errorDescription)]
        #expect(reported.allSatisfy { $0 == (0, 0, "") })
        // SetAuthorisationCode's result carries the AST client id the activation minted, as later GetAstClientData
        // results give it.
        let minted = try #require(set as? KSMSetAuthorisationCodeResultEvent).astClientId
        #expect(minted == ast.astClientId && minted.count == 26 && minted != String(repeating: "0", count: 26))
    }

    @Test func getAstClientDataGivesZerosAndAFreshS256ChallengeEachTime() async throws {
        let harness = SDKHarness()
        let first = await harness.astClientData()
        let second = try #require(await harness.controller.receive(KSMGetAstClientDataEvent(tenantId: "demo")) as? KSMGetAstClientDataResultEvent)
        #expect(first.status == .KSMOK)
        #expect(first.astClientId == "00000000000000000000000000")
        #expect(first.codeChallangeMethod == "S256")
        #expect(first.codeChallange.count == 43)
        #expect(Base64URL.decode(first.codeChallange)?.count == 32)
        // Android's spelling reads the same values.
        #expect(first.codeChallenge == first.codeChallange && first.codeChallengeMethod == "S256")
        #expect(first.codeChallange != second.codeChallange)
        #expect(!first.hasErrorOccurred)
    }

    @Test func eventsBeforeStartGetInvalidState() async throws {
        let harness = SDKHarness()
        let ast = try #require(await harness.controller.receive(KSMGetAstClientDataEvent(tenantId: "demo")) as? KSMGetAstClientDataResultEvent)
        #expect(ast.status == .KSMINVALID_STATE)
        #expect(ast.hasErrorOccurred)
        let set = try #require(await harness.controller.receive(KSMSetAuthorisationCodeEvent(
            tenantId: "demo", authenticationMode: .no, authorisationCode: "x", clientId: "KssIdpLogin"))
            as? KSMSetAuthorisationCodeResultEvent)
        #expect(set.status == .KSMINVALID_STATE)
        let restart = try #require(await harness.controller.receive(KSMRestartEvent()) as? KSMInvalidStateEvent)
        #expect(restart.errorMessage.contains("StartEvent"))
    }

    @Test func setAuthorisationCodeWithoutGetAstClientDataGetsInvalidState() async throws {
        let harness = SDKHarness()
        _ = await harness.controller.receive(KSMStartEvent())
        let set = try #require(await harness.controller.receive(KSMSetAuthorisationCodeEvent(
            tenantId: "demo", authenticationMode: .no, authorisationCode: "x", clientId: "KssIdpLogin"))
            as? KSMSetAuthorisationCodeResultEvent)
        #expect(set.status == .KSMINVALID_STATE)
        #expect(set.errorDescription == "send GetAstClientDataEvent before SetAuthorisationCodeEvent")
    }

    /// A double-tapped login: two GetAstClientDataEvents, then two SetAuthorisationCodeEvents. The second Set was
    /// told to "send GetAstClientDataEvent before SetAuthorisationCodeEvent", which it had done.
    @Test func aSecondSetAfterTheClientDataWasTakenSaysSo() async throws {
        let harness = SDKHarness()
        _ = await harness.controller.receive(KSMStartEvent())
        _ = await harness.controller.receive(KSMGetAstClientDataEvent(tenantId: "demo"))
        _ = await harness.controller.receive(KSMGetAstClientDataEvent(tenantId: "demo"))
        let set = KSMSetAuthorisationCodeEvent(tenantId: "demo", authenticationMode: .no, authorisationCode: "x", clientId: "KssIdpLogin")
        let first = try #require(await harness.controller.receive(set) as? KSMSetAuthorisationCodeResultEvent)
        #expect(first.status == .KSMFAILED)
        let second = try #require(await harness.controller.receive(set) as? KSMSetAuthorisationCodeResultEvent)
        #expect(second.status == .KSMINVALID_STATE)
        #expect(second.errorDescription.hasPrefix("the last GetAstClientDataEvent's client data was already taken by a SetAuthorisationCodeEvent"),
                "\(second.errorDescription)")
        // After a restart nothing was taken since: the plain advice again.
        _ = await harness.controller.receive(KSMRestartEvent())
        let third = try #require(await harness.controller.receive(set) as? KSMSetAuthorisationCodeResultEvent)
        #expect(third.errorDescription == "send GetAstClientDataEvent before SetAuthorisationCodeEvent")
    }

    @Test func activationThenLoginThenRestart() async throws {
        let harness = SDKHarness()
        let (code, set) = await harness.signIn(
            clientId: KSMClientId.enrollment, ["username": "alice", "password": "wonderland", "activation-code": "123456"])
        #expect(!code.hasError())
        let activated = try #require(set as? KSMSetAuthorisationCodeResultEvent)
        #expect(activated.status == .KSMOK)
        #expect(activated.userIdentifier == KsUserIdentifier(tenantId: "demo", userId: "alice"))
        #expect(harness.controller.snapshot.loggedIn)
        #expect(harness.controller.snapshot.authenticationMode == .pin)

        let start = try #require(await harness.controller.receive(KSMStartEvent()) as? KSMStartResultEvent)
        #expect(start.sdkState == .loginRequired)
        #expect(start.userList == [KsUserIdentifier(tenantId: "demo", userId: "alice")])
        let data = try #require(await harness.controller.receive(KSMGetAstClientDataEvent(tenantId: "demo")) as? KSMGetAstClientDataResultEvent)
        #expect(data.astClientId == harness.controller.snapshot.astClientId)
        #expect(data.astClientId != "00000000000000000000000000")
        #expect(harness.idp.boundUser(astClientId: data.astClientId) == "alice")

        let restart = try #require(await harness.controller.receive(KSMRestartEvent()) as? KSMRestartResultEvent)
        #expect(restart.status == .KSMOK)
        #expect(!harness.controller.snapshot.loggedIn)
        #expect(harness.controller.snapshot.activatedUser?.userId == "alice")

        let (_, login) = await harness.signIn(clientId: KSMClientId.login, ["username": "alice", "password": "wonderland"])
        #expect((login as? KSMSetAuthorisationCodeResultEvent)?.status == .KSMOK)
        #expect(harness.controller.snapshot.loggedIn)
    }

    /// A login whose device another process reset meanwhile (between its Start and its SetAuthorisationCode, on a
    /// shared state file) fails, and writes no activation back: it wrote the device's activation again, which the
    /// IdP's reset had forgotten, and every login failed until the next reset (a tester's CI, resetting while jobs ran).
    @Test func aLoginThatFindsTheDeviceResetMeanwhileFailsAndLeavesItReset() async throws {
        let store = MemoryDeviceStore()
        let harness = SDKHarness(store: store)
        let (_, activated) = await harness.signIn(
            clientId: KSMClientId.enrollment, ["username": "alice", "password": "wonderland", "activation-code": "123456"])
        #expect((activated as? KSMSetAuthorisationCodeResultEvent)?.status == .KSMOK)
        let data = await harness.astClientData()
        let code = try #require(await harness.authorizationCode(
            harness.service(), data, clientId: KSMClientId.login, .answering(["username": "alice", "password": "wonderland"])).authorizationCode)
        try store.update { $0 = nil }
        let login = try #require(await harness.controller.receive(KSMSetAuthorisationCodeEvent(
            tenantId: "demo", authenticationMode: .pin, authorisationCode: code, clientId: KSMClientId.login)) as? KSMSetAuthorisationCodeResultEvent)
        #expect(login.status == .KSMINVALID_STATE)
        #expect(login.errorDescription == "the device was reset meanwhile by another process on this state file; activate it again")
        #expect(try store.load()?.activation == nil)
        #expect(!harness.controller.snapshot.loggedIn)
    }

    /// OfflineLoginEvent's user is the one to log in: another than the device's gets MISMATCHED_USER, not the
    /// device's user logged in (it was not read).
    @Test func anOfflineLoginForAnotherUserIsRefused() async throws {
        let harness = SDKHarness()
        let (_, set) = await harness.signIn(
            clientId: KSMClientId.enrollment, ["username": "alice", "password": "wonderland", "activation-code": "123456"])
        #expect((set as? KSMSetAuthorisationCodeResultEvent)?.status == .KSMOK)
        _ = await harness.controller.receive(KSMRestartEvent())
        _ = await harness.controller.receive(KSMStartEvent())
        for other in [KsUserIdentifier(tenantId: "demo", userId: "bob"), KsUserIdentifier(tenantId: "other", userId: "alice")] {
            let refused = try #require(await harness.controller.receive(KSMOfflineLoginEvent(userIdentifier: other)) as? KSMOfflineLoginResultEvent)
            #expect(refused.status == .KSMMISMATCHED_USER && refused.userIdentifier == nil, "\(other)")
            #expect(!harness.controller.snapshot.loggedIn)
        }
        let alice = KsUserIdentifier(tenantId: "demo", userId: "alice")
        let offline = try #require(await harness.controller.receive(KSMOfflineLoginEvent(userIdentifier: alice)) as? KSMOfflineLoginResultEvent)
        #expect(offline.status == .KSMOK && offline.userIdentifier == alice)
    }

    /// The vendor: logout is RestartEvent; wait for its result before sending anything else. An app that sends on
    /// without waiting (a fire-and-forget logout) is told so, as it would fail on a device, instead of passing here.
    @Test func anEventSentBeforeTheRestartsResultIsRefused() async throws {
        let harness = SDKHarness()
        let (_, set) = await harness.signIn(
            clientId: KSMClientId.enrollment, ["username": "alice", "password": "wonderland", "activation-code": "123456"])
        #expect((set as? KSMSetAuthorisationCodeResultEvent)?.status == .KSMOK)
        let early = try #require(Self.sendWithoutWaitingForRestart(harness.controller) as? KSMGetAstClientDataResultEvent)
        #expect(early.status == .KSMINVALID_STATE)
        #expect(early.errorDescription.contains("before RestartEvent's result arrived"), "\(early.errorDescription)")
        // Once the restart's result has arrived, the same event is in order.
        let restart = try #require(await harness.controller.receive(KSMRestartEvent()) as? KSMRestartResultEvent)
        #expect(restart.status == .KSMOK)
        let later = try #require(await harness.controller.receive(KSMGetAstClientDataEvent(tenantId: "demo")) as? KSMGetAstClientDataResultEvent)
        #expect(later.status == .KSMOK)
    }

    /// Sends RestartEvent with no completion, then GetAstClientData at once; the controller's queue is held (by a
    /// completion that has not returned yet) until both are sent, so the restart is surely still in flight.
    private static func sendWithoutWaitingForRestart(_ controller: MCSDK) -> (any KsEvent)? {
        let hold = DispatchSemaphore(value: 0)
        let answered = DispatchSemaphore(value: 0)
        let reply = Locked<(any KsEvent)?>(nil)
        controller.receive(KSMStartEvent()) { _ in hold.wait() }
        controller.receive(KSMRestartEvent(), withCompletionHandler: nil)
        controller.receive(KSMGetAstClientDataEvent(tenantId: "demo")) { result in
            reply.withLock { $0 = result }
            answered.signal()
        }
        hold.signal()
        answered.wait()
        return reply.withLock { $0 }
    }

    @Test func aCodeFromAnEarlierChallengeFailsPKCE() async throws {
        let harness = SDKHarness()
        let stale = await harness.astClientData()
        let result = await harness.authorizationCode(
            harness.service(), stale, clientId: KSMClientId.enrollment,
            .answering(["username": "alice", "password": "wonderland", "activation-code": "123456"]))
        // A second GetAstClientData replaces the verifier the controller will send.
        _ = await harness.controller.receive(KSMGetAstClientDataEvent(tenantId: "demo"))
        let code = try #require(result.authorizationCode)
        let set = try #require(await harness.controller.receive(KSMSetAuthorisationCodeEvent(
            tenantId: "demo", authenticationMode: .no, authorisationCode: code,
            clientId: KSMClientId.enrollment)) as? KSMSetAuthorisationCodeResultEvent)
        #expect(set.status == .KSMFAILED)
        #expect(set.errorDescription.contains("PKCE"))
        #expect(!harness.controller.snapshot.loggedIn)
    }

    @Test func aCodeCannotBeSetTwice() async throws {
        let harness = SDKHarness()
        let data = await harness.astClientData()
        let result = await harness.authorizationCode(
            harness.service(), data, clientId: KSMClientId.enrollment,
            .answering(["username": "alice", "password": "wonderland", "activation-code": "123456"]))
        let code = try #require(result.authorizationCode)
        let event = KSMSetAuthorisationCodeEvent(
            tenantId: "demo", authenticationMode: .no, authorisationCode: code, clientId: KSMClientId.enrollment)
        #expect((await harness.controller.receive(event) as? KSMSetAuthorisationCodeResultEvent)?.status == .KSMOK)
        _ = await harness.controller.receive(KSMGetAstClientDataEvent(tenantId: "demo"))
        let again = try #require(await harness.controller.receive(event) as? KSMSetAuthorisationCodeResultEvent)
        #expect(again.status == .KSMFAILED)
        #expect(again.errorDescription.contains("already been used"))
    }

    @Test func anUnreachableIdpIsNotReachable() async throws {
        let harness = SDKHarness()
        let other = MCSDK(configuration: MasterControllerConfiguration(
            idpUrl: "https://nowhere.test", network: harness.network, random: harness.random,
            clientDataKey: harness.idp.clientDataKey))
        _ = await other.receive(KSMStartEvent())
        _ = await other.receive(KSMGetAstClientDataEvent(tenantId: "demo"))
        let set = try #require(await other.receive(KSMSetAuthorisationCodeEvent(
            tenantId: "demo", authenticationMode: .no, authorisationCode: "x", clientId: KSMClientId.login))
            as? KSMSetAuthorisationCodeResultEvent)
        #expect(set.status == .KSMNOT_REACHABLE)
    }
}

/// The status line's reload (`loadStoredDevice`, when the home screen comes back) runs on the main thread while a
/// cancelled flow's call may still be on the MC-SDK's queue: what that call stored and loaded meanwhile is not
/// overwritten by what the reload read before it.
@Suite struct MasterControllerReloadTests {
    @Test func aReloadDoesNotUndoWhatTheQueueStoredMeanwhile() async throws {
        let store = GatedDeviceStore(PersistedDevice(
            deviceID: "device-1",
            activation: .init(user: KsUserIdentifier(tenantId: "demo", userId: "alice"), astClientId: "ast", authenticationMode: .no),
            accessTokenHash: [1, 2, 3]))
        let controller = MCSDK(configuration: MasterControllerConfiguration(
            idpUrl: "https://idp.invalid", network: SimulatedNetwork(clock: ManualClock()), random: RandomSource(seed: 1),
            clientDataKey: [1, 2, 3], store: store))
        let start = try #require(await controller.receive(KSMStartEvent()) as? KSMStartResultEvent)
        #expect(start.status == .KSMOK)
        #expect(controller.snapshot.loggedIn)
        Self.reloadAcrossARestart(controller, store)
        #expect(try store.load()?.accessTokenHash == nil)
        #expect(!controller.snapshot.loggedIn, "the reload put back the session the restart had ended")
    }

    /// The reload reads the store (logged in), then a restart on the controller's queue ends the session and
    /// returns, then the reload goes on with what it read.
    private static func reloadAcrossARestart(_ controller: MCSDK, _ store: GatedDeviceStore) {
        let reloaded = DispatchSemaphore(value: 0)
        let restarted = DispatchSemaphore(value: 0)
        store.holdNextLoad()
        DispatchQueue.global().async {
            controller.loadStoredDevice()
            reloaded.signal()
        }
        store.read.wait()
        controller.receive(KSMRestartEvent()) { _ in restarted.signal() }
        restarted.wait()
        store.proceed.signal()
        reloaded.wait()
    }
}

/// A device store whose next load, once held, returns only when told to, having signalled that it has read.
final class GatedDeviceStore: DeviceStore, @unchecked Sendable {
    private let inner = MemoryDeviceStore()
    private let held = Locked(false)
    let read = DispatchSemaphore(value: 0)
    let proceed = DispatchSemaphore(value: 0)

    init(_ device: PersistedDevice) {
        _ = try? inner.update { $0 = device }
    }

    func holdNextLoad() { held.withLock { $0 = true } }

    func load() throws(StoreFailure) -> PersistedDevice? {
        let device = try inner.load()
        if held.withLock({ held in
            let was = held
            held = false
            return was
        }) {
            read.signal()
            proceed.wait()
        }
        return device
    }

    func update<T>(_ body: (inout PersistedDevice?) -> T) throws(StoreFailure) -> T {
        try inner.update(body)
    }
}
