import Threading
import Crypto
import Determinism
import Dispatch
import Foundation
import IdentityProvider
import IdpTuiWorld
import Secrets

/// The IdpSdk: reads the identity provider's login form for a client id, asks the app for the fields it
/// needs through `provideCredentials`, and returns an authorization code for `SetAuthorisationCodeEvent`.
///
/// ```swift
/// let world = SimulatedWorld.current
/// let idpSdk = IdpSdkService(tenantId: world.tenantId, idpUrl: world.idpUrl, certificateChain: world.certificateChain,
///                            shouldHashPin: false)
/// idpSdk.getAuthorizationCode(
///     withAstClientData: AstClientDataInfo(astClientData: result), clientId: "KssIdpLogin",
///     interactionInterface: handler, userId: "alice", traceParent: ""
/// ) { result in … }
/// ```
///
/// Work runs on the service's own serial queue (named `IdpSdk`); `provideCredentials` and `completion` are
/// called there, never on the main thread.
public final class IdpSdkService: Sendable {
    public let tenantId: String
    public let idpUrl: String
    public let shouldHashPin: Bool
    private let pinnedChain: Result<CertificateChain, CertificateError>
    private let network: SimulatedNetwork
    /// Each call's work in turn, on the service's queue: a round trip's latency leaves the queue's thread free.
    private let lane: SerialTaskLane

    /// `certificateChain` is the chain to pin (leaf first), the bytes of an app's asset: PEM text or DER certificates
    /// one after another (an Android app's `.cer`). The service
    /// talks to the identity provider of ``SimulatedWorld/current`` as it is when the service is made.
    public convenience init(tenantId: String, idpUrl: String, certificateChain: Data, shouldHashPin: Bool) {
        self.init(tenantId: tenantId, idpUrl: idpUrl, certificateChain: certificateChain, shouldHashPin: shouldHashPin,
                  network: SimulatedWorld.current.network)
    }

    /// `network` is the simulated network that reaches the IdP. `targetQueue` is the serial queue the service's
    /// own queue runs on (idp-tui shares one per device; nil for a queue of its own). `queueLabel`: its queue's name,
    /// `KSSIDP` for the legacy wrapper's IdP login, which KSSIDP did over HTTP itself (REFERENCE.md), not through an
    /// IdpSdk.
    package init(
        tenantId: String, idpUrl: String, certificateChain: Data, shouldHashPin: Bool, network: SimulatedNetwork,
        targetQueue: DispatchQueue? = nil, queueLabel: String = "IdpSdk"
    ) {
        lane = SerialTaskLane(queue: QueueName.makeSerialQueue(queueLabel, target: targetQueue), counting: network.clock.pendingWork)
        self.tenantId = tenantId
        self.idpUrl = idpUrl
        self.shouldHashPin = shouldHashPin
        self.network = network
        do {
            pinnedChain = .success(try CertificateChain.parsed(asset: certificateChain))
        } catch {
            pinnedChain = .failure(error)
        }
    }

    /// Reads the IdP's login form for `clientId`, asks `interactionInterface` for each page, and completes with
    /// the authorization code or the error, on the `IdpSdk` queue. `userId` is nil on first activation;
    /// `traceParent` is a W3C trace parent (empty or nil for none).
    public func getAuthorizationCode(
        withAstClientData astClientData: AstClientDataInfo, clientId: String,
        interactionInterface: any IdpSdkInteractionInterface, userId: String?, traceParent: String?,
        completion: @escaping (IdpSdkResult) -> Void
    ) {
        let request = AuthorizationRequest(
            tenantId: tenantId, clientId: clientId, clientData: astClientData.clientData,
            codeChallenge: astClientData.codeChallange, codeChallengeMethod: astClientData.codeChallangeMethod,
            loginHint: userId, traceParent: traceParent)
        // Neither the app's interaction object nor its block is `Sendable` in the vendor's API: the SDK uses
        // both on its own serial queue only, and the vendor asks for a thread-safe interaction object.
        let interaction = UncheckedSendable(interactionInterface)
        let done = UncheckedSendable(completion)
        lane.add { [self] in
            done.value(await authorize(request, interaction: interaction.value))
        }
    }

    // MARK: The login

    private func authorize(_ request: AuthorizationRequest, interaction: any IdpSdkInteractionInterface) async -> IdpSdkResult {
        guard !request.clientId.isEmpty else { return IdpSdkResult(error: .invalidArgument("clientId is empty")) }
        guard !request.clientData.isEmpty, !request.codeChallenge.isEmpty else {
            return IdpSdkResult(error: .invalidArgument("astClientData has no clientData or codeChallange; pass a successful GetAstClientDataResultEvent"))
        }
        let provider: IdentityProvider
        switch await connect(sending: .openLogin(clientId: request.clientId, tenantId: request.tenantId)) {
        case .failure(let error): return IdpSdkResult(error: error)
        case .success(let connected): provider = connected
        }
        var page = provider.authorize(request)
        // The user name given on an earlier page, for hashing a password asked on a page of its own (a form that
        // asks for the username first): it was sent as typed, and a tenant expecting hashed PINs refused every one.
        var username: Secret?
        while true {
            switch page {
            case .error(let failure):
                let mismatch = shouldHashPin != provider.expectsHashedPins(tenant: tenantId)
                return IdpSdkResult(error: IdpSdkError(subsystem: IdpFailure.subsystem, errorCode: failure.code, errorDescription: describe(failure, hint: mismatch)))
            case .redirect(let code):
                return IdpSdkResult(authorizationCode: code)
            case .malformed(let what):
                return IdpSdkResult(error: .unreadablePage(what))
            case .form(let form):
                switch answer(form, clientId: request.clientId, interaction: interaction, username: &username) {
                case .failure(let error):
                    provider.abandon(sessionID: form.sessionID)
                    return IdpSdkResult(error: error)
                case .success(let values):
                    do {
                        try await network.roundTrip(sending: .submitForm(values.keys.map(\.rawValue)))
                    } catch {
                        provider.abandon(sessionID: form.sessionID)
                        return IdpSdkResult(error: .network(error))
                    }
                    page = provider.submit(sessionID: form.sessionID, values: values)
                }
            }
        }
    }

    /// The IdP's message; a wrong password from an app whose `shouldHashPin` is not what the tenant expects says so,
    /// since such a tenant refuses every password so sent (the simulator's hint: the real IdP cannot tell). The
    /// migration guide's "Before" hashes (`true`) and its "After" does not (`false`): an app that copies it to a
    /// tenant that expects hashed PINs fails every login.
    private func describe(_ failure: IdpFailure, hint mismatch: Bool) -> String {
        guard mismatch, case .wrongCredentials = failure else { return failure.message }
        // The tenant named: an author whose user is in another tenant of the scenario than the app's saw only the
        // hashing blamed.
        return failure.message + (shouldHashPin
            ? "; shouldHashPin is true, so the password was sent hashed, and tenant \"\(tenantId)\" expects it as typed"
            : "; shouldHashPin is false, so the password was sent as typed, and tenant \"\(tenantId)\" expects hashed PINs")
    }

    /// Opens the connection and checks the server's chain against the pinned one.
    private func connect(sending request: NetworkRequest) async -> Result<IdentityProvider, IdpSdkError> {
        let pins: CertificateChain
        switch pinnedChain {
        case .failure(let error): return .failure(.badCertificateChain(error.description))
        case .success(let chain): pins = chain
        }
        // TLS comes before HTTP: a chain the SDK refuses ends the connection in its handshake (a round trip, with the
        // network's faults), and the request never leaves (the log showed `GET /authorize` sent to the IdP).
        if let server = network.server(at: idpUrl), let refusal = refusal(of: server.presentedChain, pinnedTo: pins) {
            do {
                _ = try await network.connect(to: idpUrl)
            } catch {
                return .failure(.network(error))
            }
            return .failure(refusal)
        }
        let provider: IdentityProvider
        do {
            provider = try await network.connect(to: idpUrl, sending: request)
        } catch {
            return .failure(.network(error))
        }
        return refusal(of: provider.presentedChain, pinnedTo: pins).map { .failure($0) } ?? .success(provider)
    }

    /// Why the SDK refuses the chain a server presents: not valid now, or not under the pinned chain; nil when it
    /// takes it.
    private func refusal(of presented: CertificateChain, pinnedTo pins: CertificateChain) -> IdpSdkError? {
        do {
            try presented.validate(at: network.clock.now.date)
        } catch {
            return .untrustedServer(error.description)
        }
        guard presented.isPinned(by: pins) else {
            return .pinningFailed(presented: presented.root, pinned: pins.certificates)
        }
        return nil
    }

    /// Asks the app for one form page and checks what comes back.
    private func answer(_ form: LoginForm, clientId: String, interaction: any IdpSdkInteractionInterface, username: inout Secret?)
        -> Result<[FormField: Secret], IdpSdkError>
    {
        let data = IdpSdkInteractionData(
            inputFieldIds: form.fields.map { IdpSdkInputFieldId($0).rawValue }, clientId: clientId, page: form.page,
            pageCount: form.pageCount)
        let result = interaction.provideCredentials(data)
        if let error = result.error { return .failure(error) }
        var values: [FormField: Secret] = [:]
        for field in form.fields {
            guard let value = result.credentials[field.rawValue] else { return .failure(.missingCredential(field.rawValue)) }
            guard value.byteCount <= FormField.maximumLength else {
                return .failure(.credentialTooLong(field.rawValue, limit: FormField.maximumLength))
            }
            values[field] = value
        }
        username = values[.username] ?? username
        if shouldHashPin, let username = username?.reveal() {
            for field in [FormField.password, .newPassword, .currentPassword] {
                if let plain = values[field] {
                    values[field] = PinHashing.hash(plain, tenantId: tenantId, username: username)
                }
            }
        }
        return .success(values)
    }
}
