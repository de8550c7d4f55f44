import IdpSdk
import KSMasterController
import SafepayDropsSDK
import kssidp
import Testing

/// An app unit-tests its handlers by handing them the results the SDKs would: every result and callback value
/// can be made outside idp-tui's package (their initializers were internal, so only the SDKs could make them).
/// This file compiles only while they are public.
@Suite struct AppTestDoubleTests {
    @Test func everyMasterControllerResultCanBeMadeByAnAppsTests() {
        let alice = KsUserIdentifier(tenantId: "demo", userId: "alice")
        let start = KSMStartResultEvent(status: .KSMOK, sdkState: .loginRequired, userList: [alice])
        let client = KSMGetAstClientDataResultEvent(status: .KSMOK, clientData: "opaque", astClientId: String(repeating: "0", count: 26),
                                                    codeChallange: "challenge", codeChallangeMethod: "S256")
        let refused = KSMSetAuthorisationCodeResultEvent(status: .KSMFAILED, userIdentifier: nil, errorCode: 0, errorDescription: "the authorisation code is empty")
        let restart = KSMRestartResultEvent(status: .KSMOK, sdkState: .loginRequired)
        let offline = KSMOfflineLoginResultEvent(status: .KSMNO_TOKEN_DATA_AVAILABLE, userIdentifier: nil)
        let events: [any KsEvent] = [start, client, refused, restart, offline, KSMInvalidStateEvent(errorMessage: "not started"),
                                     KSMErrorRuntimeEvent(errorType: .runtimeError, errorCode: 0, errorDescription: "restarting")]
        #expect(events.map { $0.getName() } == [
            "StartResultEvent", "GetAstClientDataResultEvent", "SetAuthorisationCodeResultEvent", "RestartResultEvent",
            "OfflineLoginResultEvent", "InvalidStateEvent", "ErrorRuntimeEvent",
        ])
        #expect(!client.hasErrorOccurred && refused.errorCode == 0 && refused.status == .KSMFAILED && start.userList == [alice])
    }

    /// A KSSIDP app's `handleNewResult(newResultObject:)` is tested with results made here, before the migration.
    @Test func everyKSSIDPResultCanBeMadeByAnAppsTests() {
        let model = KssIdpErrorModel(subsystem: 513, code: "4011", description: "wrong password", parameters: [:])
        let refused = KssIdpResultObject(status: .requestFailed(status: .failed, httpStatus: 400, errorModel: model, line: 1), userId: "",
                                         traceContext: nil)
        let event = KSMSetAuthorisationCodeResultEvent(status: .KSMOK, userIdentifier: KsUserIdentifier(tenantId: "demo", userId: "alice"))
        let mcSide = ResultObject(status: .KSMOK, errorCode: 0, reportId: 0, userId: "alice", errorDescription: nil, event: event)
        #expect(refused.status == .requestFailed(status: .failed, httpStatus: 400, errorModel: model, line: 1))
        #expect(mcSide.event?.userIdentifier?.userId == "alice" && model.code == "4011")
    }

    /// What a handler's `provideCredentials` answered can be checked key by key without printing it.
    @Test func whatProvideCredentialsAnsweredCanBeRead() {
        let answer = IdpSdkProvideCredentialsResult(credentials: ["username": "alice", "password": "wonderland"])
        #expect(answer.credentials["password"]?.reveal() == "wonderland" && answer.credentials["activation-code"] == nil)
        #expect(!"\(answer)".contains("wonderland"))
    }

    @Test func everyDropsCallbackValueCanBeMadeByAnAppsTests() {
        let outcome = ThreeDSecureOutcome(transStatus: "N", transStatusReason: "01", eci: "07", challengeCancel: nil)
        let success = PayerAuthenticationSuccessData(tracker: "track_xxx", requestId: "req_1", paymentMethod: "pm_1")
        let failure = PayerAuthenticationErrorData(tracker: "track_xxx", requestId: nil, error: "AUTHENTICATION_FAILED", threeDSecure: outcome)
        let required = PayerAuthenticationData(tracker: "track_xxx", requestId: nil)
        let error = SafepayErrorData(message: "offline", status: nil)
        #expect(success.paymentMethod == "pm_1" && failure.threeDSecure?.transStatus == "N" && required.errorMessage == nil)
        #expect(error.error == SafepayErrorData.Detail(message: "offline", status: nil))
    }
}
