import Determinism
import FlowCatalog
import FlowEngine
import FlowRecords
import Foundation
import IdentityProvider
import IdpFlows
import IdpSdk
import KSMasterController
import kssidp
import Scenario
import Secrets
import Simulation
import Testing
import Threading

/// The IdP's chain in a file, as an app ships it: one file for the test process, removed when it exits.
func chainFile() -> String { chainFilePath }

private let chainFilePath: String = {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("idp-tui-test-chain-\(UUID().uuidString).pem").path
    _ = FileManager.default.createFile(atPath: path, contents: Data(IdentityProviderCertificates.genuinePEM.utf8))
    atexit { try? FileManager.default.removeItem(atPath: chainFilePath) }
    return path
}()

@Suite struct KssIdpWrapperTests {
    func wrapper() -> (KssIdpWrapper, MCSDK, Locked<[String]>) {
        let environment = SimulationEnvironment(clock: ManualClock())
        let seen = Locked<[String]>([])
        let wrapper = KssIdpWrapper(
            config: KssIdpConfig(certificatePath: chainFile(), baseUrl: environment.idpUrl, tenantId: "demo",
                                 masterController: environment.masterController, shouldKssIdpHandleTms: false, shouldHashPin: false,
                                 network: environment.world.network),
            observer: { event, status in seen.withLock { $0.append("\(event) \(status ?? "→")") } })
        return (wrapper, environment.masterController, seen)
    }

    func call(_ wrapper: KssIdpWrapper, activate: Bool = true, _ credentials: [String: String]) async -> (ResultObject, KssIdpResultObject) {
        await withCheckedContinuation { continuation in
            let done: @Sendable (ResultObject, KssIdpResultObject) -> Void = { continuation.resume(returning: ($0, $1)) }
            if activate {
                wrapper.activate(clientId: KSMClientId.enrollment, authMode: .no, credentials: credentials, parentSpan: nil, completion: done)
            } else {
                wrapper.login(clientId: KSMClientId.login, authMode: .no, credentials: credentials, parentSpan: nil, completion: done)
            }
        }
    }

    /// KOBIL's KSSIDP pages call `activate(clientId:credentials:authMode:)` and `login(…)` in that order, with no
    /// parent span: code copied from them compiles and runs as the guide's order does.
    @Test func kobilsPageOrderActivatesAndLogsIn() async {
        let (wrapper, controller, _) = wrapper()
        _ = await controller.receive(KSMStartEvent())
        let (activated, _) = await withCheckedContinuation { continuation in
            wrapper.activate(clientId: KSMClientId.enrollment, credentials: Demo.aliceActivation, authMode: .no) { resultObject, newResultObject in
                continuation.resume(returning: (resultObject, newResultObject))
            }
        }
        #expect(activated.status == .KSMOK && activated.userId == "alice")
        let (login, object) = await withCheckedContinuation { continuation in
            wrapper.login(clientId: KSMClientId.login, credentials: Demo.alice, authMode: .no) { continuation.resume(returning: ($0, $1)) }
        }
        #expect(login.status == .KSMOK)
        #expect(object.userId == "alice")
    }

    @Test func activateTakesTheCredentialsUpFrontAndRunsTheEventsItself() async {
        let (wrapper, controller, seen) = wrapper()
        _ = await controller.receive(KSMStartEvent())
        let (result, object) = await call(wrapper, Demo.aliceActivation)
        #expect(result.status == .KSMOK && result.userId == "alice")
        #expect(result.event?.userIdentifier == KsUserIdentifier(tenantId: "demo", userId: "alice"))
        #expect(object.status == .success(message: "logged in as alice@demo"))
        #expect(object.userId == "alice")
        #expect(seen.withLock { $0 } == ["GetAstClientData →", "GetAstClientData OK", "SetAuthorisationCode →", "SetAuthorisationCode OK"])
        let (login, _) = await call(wrapper, activate: false, Demo.alice)
        #expect(login.status == .KSMOK)
    }

    @Test func failuresAreRequestOrEventFailures() async {
        let (wrapper, controller, _) = wrapper()
        let (early, earlyObject) = await call(wrapper, Demo.aliceActivation)
        #expect(early.status == .KSMINVALID_STATE, "no StartEvent yet")
        guard case .eventFailed(.KSMINVALID_STATE, let why, _) = earlyObject.status else { Issue.record("\(earlyObject)"); return }
        #expect(why.contains("StartEvent"))
        _ = await controller.receive(KSMStartEvent())
        let (wrong, wrongObject) = await call(wrapper, ["username": "alice", "password": "nope", "activation-code": "123456"])
        #expect(wrong.status == .KSMFAILED && wrong.errorCode == 4011)
        guard case .requestFailed(.failed, 400, let model, _) = wrongObject.status else { Issue.record("\(wrongObject)"); return }
        #expect(model.subsystem == 513 && model.code == "4011")
        let (missing, missingObject) = await call(wrapper, ["username": "alice", "password": "wonderland"])
        guard case .requestFailed(.invalidParameter, 0, let missingModel, _) = missingObject.status else { Issue.record("\(missingObject)"); return }
        #expect(missing.errorCode == 3 && missingModel.code == "3", "no activation-code in the dictionary")
        // In KSSIDP's terms: its apps write no provideCredentials.
        #expect(missingModel.description == #"the credentials dictionary has no "activation-code", which the IdP's form asks for"#)
    }
}

@Suite struct LegacyFlowAndParityTests {
    @Test func theLegacyFlowsActivateAndLogIn() throws {
        let service = FlowService(environment: SimulationEnvironment(clock: ManualClock()))
        let frontEnd = RecordingFrontEnd.answering([Demo.aliceActivation, Demo.alice])
        let activated = try #require(service.run(.legacyActivate, with: frontEnd))
        #expect(activated.outcome == .success && activated.user == "alice")
        #expect(frontEnd.prompts.first?.fields == [.username, .password, .activationCode], "every credential up front")
        let steps = frontEnd.events(of: activated.flowID).map { "\($0.from.rawValue)→\($0.to.rawValue) \($0.step.rawValue)" }
        #expect(steps.contains("App→KSSIDP KssIdpWrapper.activate"))
        #expect(steps.contains("KSSIDP→MC-SDK GetAstClientData"))
        #expect(steps.contains("KSSIDP→MC-SDK SetAuthorisationCode"))
        #expect(!steps.contains("App→MC-SDK GetAstClientData"), "the wrapper, not the app, sends it")
        #expect(service.run(.legacyLogin, with: frontEnd)?.outcome == .success)
    }

    /// The cases run as the scenario's own first user with an activation code: on a scenario without alice they
    /// failed alike on both sides (WRONG_CREDENTIALS, ACTIVATION_REQUIRED), and the check said they agreed.
    @Test func theCasesRunAsTheScenariosOwnUser() throws {
        var scenario = Scenario.embeddedDefault
        scenario.identityProvider.tenants[0].users.removeFirst()  // alice
        let user = try #require(ParityCheck.caseUser(in: scenario))
        #expect(user.username == "bob")
        let report = ParityCheck.run(scenario: scenario)
        #expect(report.agrees && report.notRun == nil)
        let login = report.cases[0].steps[1]
        #expect(login.new.outcome == "success" && login.new.deviceAfter.contains("bob"), "\(login.new)")
        #expect(report.cases[1].steps[0].new.status == "WRONG_CREDENTIALS")
        #expect(report.cases[2].steps[0].new.status == "WRONG_CREDENTIALS")
    }

    /// An app tenant that expects hashed PINs: both apps hash, as apps set up for that IdP do (neither did, every case
    /// failed alike with WRONG_CREDENTIALS, and the check agreed).
    @Test func aTenantThatExpectsHashedPinsIsCheckedWithHashing() throws {
        var scenario = Scenario.embeddedDefault
        scenario.identityProvider.tenants[0].expectsHashedPins = true
        let report = ParityCheck.run(scenario: scenario)
        #expect(report.agrees, "\(report)")
        #expect(report.cases[0].steps.map(\.new.outcome) == ["success", "success"], "\(report.cases[0].steps.map(\.new))")
        #expect(report.cases[0].steps.map(\.legacy.outcome) == ["success", "success"], "\(report.cases[0].steps.map(\.legacy))")
    }

    /// An expired code is no code to run the cases with (every case failed alike, and the check agreed); the wrong
    /// password and code are as long as the right ones (a 256-byte password made one longer, "too long", the case).
    @Test func theCasesSkipAnExpiredCodeAndKeepTheSecretsLengths() throws {
        var scenario = Scenario.embeddedDefault
        scenario.identityProvider.tenants[0].users[0].activationCode?.validFor = .seconds(-86_400)  // alice's
        scenario.identityProvider.tenants[0].users[1].password = Secret(String(repeating: "p", count: 256))  // bob's
        let user = try #require(ParityCheck.caseUser(in: scenario))
        #expect(user.username == "bob")
        let report = ParityCheck.run(scenario: scenario)
        #expect(report.cases[0].steps[0].new.outcome == "success", "\(report.cases[0].steps[0].new)")
        #expect(report.cases[1].steps[0].new.status == "WRONG_CREDENTIALS", "\(report.cases[1].steps[0].new)")
        #expect(report.cases[2].steps[0].new.status == "WRONG_CREDENTIALS", "\(report.cases[2].steps[0].new)")
    }

    /// A scenario whose app tenant has no user with an activation code cannot be checked: the report says so and
    /// does not agree (it agreed on no case at all).
    @Test func aScenarioWithNoUserToActivateIsNotChecked() {
        var scenario = Scenario.embeddedDefault
        for index in scenario.identityProvider.tenants[0].users.indices {
            scenario.identityProvider.tenants[0].users[index].activationCode = nil
        }
        let report = ParityCheck.run(scenario: scenario)
        #expect(report.cases.isEmpty && !report.agrees)
        #expect(report.notRun == "the scenario's app tenant \"demo\" has no user with an activation code that is still valid, so no case could activate a device")
    }

    @Test func onTheDefaultCasesTheTwoOrchestrationsAgree() {
        let report = ParityCheck.run()
        #expect(report.agrees, "\(report.cases.flatMap { $0.steps.flatMap(\.differences) })")
        #expect(report.cases.map(\.name) == ["activation, then login", "a wrong password", "a wrong activation code",
                                              "a cancel at the credentials", "login before activation"])
        let cancel = report.cases[3].steps[0]
        #expect(cancel.new.outcome == "cancelled" && cancel.legacy.outcome == "cancelled")
        #expect(cancel.new.sequence != cancel.legacy.sequence, "KSSIDP asks before any event; the IdpSdk reads the form first")
        let lines = ParityText.lines(report, width: 100)
        #expect(lines.last?.hasPrefix("The two orchestrations agree") == true)
    }

    @Test func theReportShowsTheErrorItJudges() {
        // The summary says the errors agree: the reader sees which, on both sides (513/4011 is what a KSSIDP
        // handler read from errorModel, and what idpSdkError carries after the migration).
        let lines = ParityText.lines(ParityCheck.run(), width: 100)
        let wrongPassword = lines.drop { !$0.contains("2. a wrong password") }.prefix { !$0.contains("3. a wrong activation code") }
        #expect(wrongPassword.contains { $0.contains("error 513/4011") && $0.components(separatedBy: "error 513/4011").count == 3 },
                "\(wrongPassword)")
        let activation = lines.drop { !$0.contains("1. activation, then login") }.prefix { !$0.contains("2. a wrong password") }
        #expect(!activation.contains { $0.contains("error ") }, "no error row when neither side failed")
    }

    /// At 60 columns a column is 27 characters: a longer name breaks where a reader would, and nothing is lost.
    @Test func aNameLongerThanItsColumnBreaksAtAPartOfIt() {
        #expect(ParityText.wrapText("IdpSdkResult.authorizationCode", width: 27) == ["IdpSdkResult.", "authorizationCode"])
        #expect(ParityText.wrapText("KssIdpStatus.requestFailed now", width: 20) == ["KssIdpStatus.", "requestFailed now"])
        #expect(ParityText.wrapText("onPayerAuthenticationComplete", width: 20) == ["onPayer", "Authentication", "Complete"])
        #expect(ParityText.wrapText("0123456789abcdefghij0123", width: 10) == ["0123456789", "abcdefghij", "0123"], "no part: the line's end")
        let lines = ParityText.lines(ParityCheck.run(), width: 60)
        #expect(lines.contains { $0.contains("IdpSdkResult.") } && !lines.contains { $0.hasSuffix("IdpSdkResult.authoriz") })
        #expect(lines.allSatisfy { $0.count <= 60 })
        // No line ends in spaces, and a full left column stays two columns clear of the right one (at 80 columns
        // "error the authorisation code is empty error 513/4011" read as one phrase).
        let written = ParityText.lines(ParityCheck.run(variant: .guideAsWritten), width: 80)
        #expect(written.allSatisfy { !$0.hasSuffix(" ") }, "\(written)")
        #expect(written.contains { $0.contains("error 513/4011") } && !written.contains { $0.contains("empty error") }, "\(written)")
    }

    @Test func theReportShowsWhatEachAppWasHanded() {
        // How an old handler maps onto the new one: a KSSIDP app's requestFailed is the IdpSdkResult's
        // idpSdkError; KSSIDP is never called when the app's own form is cancelled.
        let report = ParityCheck.run()
        let wrongPassword = report.cases[1].steps[0]
        #expect(wrongPassword.new.appReceived == "IdpSdkResult.idpSdkError 513/4011")
        #expect(wrongPassword.legacy.appReceived == "KssIdpStatus.requestFailed 513/4011", "the errorModel's subsystem/code, as the IdpSdk side shows its error's")
        let activation = report.cases[0].steps[0]
        #expect(activation.new.appReceived == "IdpSdkResult.authorizationCode" && activation.legacy.appReceived == "KssIdpStatus.success")
        let cancel = report.cases[3].steps[0]
        #expect(cancel.new.appReceived == "IdpSdkResult.idpSdkError 1000/1")
        #expect(cancel.legacy.appReceived == "no completion (not called)")
        let lines = ParityText.lines(report, width: 100)
        #expect(lines.contains { $0.contains("IdpSdkResult.idpSdkError 513/4011") && $0.contains("KssIdpStatus.requestFailed 513/4011") }, "\(lines)")
    }

    @Test(arguments: [40, 56, 76, 156])
    func theReportFitsAnyWidthAndCutsNothing(_ width: Int) {
        let report = ParityCheck.run(variant: .enrollmentClientForLogin)
        let lines = ParityText.lines(report, width: width)
        #expect(lines.allSatisfy { $0.count <= width }, "\(lines.filter { $0.count > width })")
        #expect(!lines.contains { $0.contains("…") })
        // Every value is there whole, if in pieces: the text without its spaces holds each one without its spaces.
        let text = lines.joined().filter { $0 != " " }
        for step in report.cases.flatMap(\.steps) {
            for value in step.new.sequence + step.legacy.sequence + [step.new.deviceAfter, step.legacy.deviceAfter] + step.differences
                + [step.new.error, step.legacy.error].compactMap({ $0 }) {
                #expect(text.contains(value.filter { $0 != " " }), "\(value) at \(width) columns")
            }
        }
    }

    @Test func aDeliberatelyWrongOrchestrationIsCaught() {
        let report = ParityCheck.run(variant: .enrollmentClientForLogin)
        #expect(!report.agrees)
        let login = report.cases[0].steps[1]
        #expect(login.differences.contains("idp-tui status: INVALID_STATE ≠ OK"), "\(login.differences)")
        #expect(login.differences.contains("SetAuthorisationCode: not sent ≠ OK"))
        #expect(report.cases[1].agrees, "activation does not use the login client")
        #expect(ParityText.lines(report, width: 100).contains { $0.contains("✗ differs: idp-tui status: INVALID_STATE ≠ OK") })
    }
}

@Suite struct KssIdpCertificateTests {
    @Test func aCertificatePathThatNamesNoFileIsARequestFailureSayingSo() async {
        let environment = SimulationEnvironment(clock: ManualClock())
        let wrapper = KssIdpWrapper(config: KssIdpConfig(
            certificatePath: "/nonexistent/idp-chain.pem", baseUrl: environment.idpUrl, tenantId: "demo",
            masterController: environment.masterController, shouldKssIdpHandleTms: false, shouldHashPin: false, network: environment.world.network),
            observer: nil)
        _ = await environment.masterController.receive(KSMStartEvent())
        let (result, object) = await withCheckedContinuation { continuation in
            wrapper.activate(clientId: KSMClientId.enrollment, authMode: .no, credentials: Demo.aliceActivation, parentSpan: nil) {
                continuation.resume(returning: ($0, $1))
            }
        }
        guard case .requestFailed(.invalidParameter, _, let model, _) = object.status else { Issue.record("\(object)"); return }
        #expect(result.errorDescription == "KssIdpConfig.certificatePath names no readable file: /nonexistent/idp-chain.pem")
        #expect(model.description == result.errorDescription)
    }
}
