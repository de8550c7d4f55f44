import Threading
import Determinism
import Foundation
import IdentityProvider
import IdpSdk
import KSMasterController
import Secrets

/// One device and one IdP, wired as the flow service wires them, for tests of the SDK surfaces alone.
struct SDKHarness {
    let clock = ManualClock()
    let random = RandomSource(seed: 3)
    let network: SimulatedNetwork
    let idp: IdentityProvider
    let controller: MCSDK

    init(_ configuration: IdentityProviderConfiguration = .demo(), store: any DeviceStore = MemoryDeviceStore()) {
        network = SimulatedNetwork(clock: clock)
        idp = IdentityProvider(configuration: configuration, clock: clock, random: random)
        network.register(idp)
        controller = MCSDK(configuration: MasterControllerConfiguration(
            idpUrl: idp.baseURL, network: network, random: random, clientDataKey: idp.clientDataKey, store: store))
    }

    func service(chain: String = IdentityProviderCertificates.genuinePEM, url: String? = nil, hashPin: Bool = false) -> IdpSdkService {
        service(chainBytes: Data(chain.utf8), url: url, hashPin: hashPin)
    }

    func service(chainBytes: Data, url: String? = nil, hashPin: Bool = false) -> IdpSdkService {
        IdpSdkService(tenantId: "demo", idpUrl: url ?? idp.baseURL, certificateChain: chainBytes, shouldHashPin: hashPin, network: network)
    }

    func astClientData() async -> KSMGetAstClientDataResultEvent {
        _ = await controller.receive(KSMStartEvent())
        return await controller.receive(KSMGetAstClientDataEvent(tenantId: "demo")) as! KSMGetAstClientDataResultEvent
    }

    func authorizationCode(
        _ service: IdpSdkService, _ data: KSMGetAstClientDataResultEvent, clientId: String,
        _ interaction: ScriptedInteraction
    ) async -> IdpSdkResult {
        await withCheckedContinuation { continuation in
            service.getAuthorizationCode(
                withAstClientData: AstClientDataInfo(astClientData: data), clientId: clientId,
                interactionInterface: interaction, userId: nil, traceParent: nil
            ) { continuation.resume(returning: $0) }
        }
    }

    /// The migration guide's orchestration: GetAstClientData → getAuthorizationCode → SetAuthorisationCode.
    func signIn(clientId: String, _ answers: [String: String], service: IdpSdkService? = nil) async -> (IdpSdkResult, (any KsEvent)?) {
        let data = await astClientData()
        let result = await authorizationCode(service ?? self.service(), data, clientId: clientId, .answering(answers))
        guard let code = result.authorizationCode else { return (result, nil) }
        let set = await controller.receive(KSMSetAuthorisationCodeEvent(
            tenantId: "demo", authenticationMode: .pin, authorisationCode: code, clientId: clientId))
        return (result, set)
    }
}

/// An `IdpSdkInteractionInterface` that answers from a script and records every call and its thread.
final class ScriptedInteraction: IdpSdkInteractionInterface {
    struct Call: Sendable {
        let data: IdpSdkInteractionData
        let onMainThread: Bool
        let queue: String
    }

    private let script: @Sendable (IdpSdkInteractionData) -> IdpSdkProvideCredentialsResult
    private let recorded = Locked<[Call]>([])

    init(_ script: @escaping @Sendable (IdpSdkInteractionData) -> IdpSdkProvideCredentialsResult) {
        self.script = script
    }

    static func answering(_ answers: [String: String]) -> ScriptedInteraction {
        ScriptedInteraction { data in
            var values: [String: String] = [:]
            for field in data.inputFieldIds.compactMap(IdpSdkInputFieldId.init(rawValue:)) { values[field.key] = answers[field.key] }
            return IdpSdkProvideCredentialsResult(credentials: values)
        }
    }

    var calls: [Call] { recorded.withLock { $0 } }

    func provideCredentials(_ interactionData: IdpSdkInteractionData) -> IdpSdkProvideCredentialsResult {
        recorded.withLock {
            $0.append(Call(data: interactionData, onMainThread: Thread.isMainThread, queue: QueueName.current))
        }
        return script(interactionData)
    }
}
