import Threading
import Crypto
import Determinism
import Dispatch
import IdentityProvider
import Secrets

/// The IdpSdk: reads the identity provider's login form for a client id, asks the app for the fields it
/// needs through `provideCredentials`, and returns an authorization code for `SetAuthorisationCodeEvent`.
///
/// ```swift
/// let service = IdpSdkService(tenantId: "demo", idpUrl: url, certificateChain: pem, shouldHashPin: false)
/// service.getAuthorizationCode(
///     withAstClientData: AstClientDataInfo(astClientData: result), clientId: "KssIdpLogin",
///     interactionInterface: handler, userId: "alice", traceParent: nil
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
    private let queue: DispatchQueue

    /// `certificateChain` is the PEM text of the chain to pin (leaf first). `network` is the simulated network
    /// that reaches the IdP; code that leaves it out uses ``SimulatedNetwork/shared``. `targetQueue` is the
    /// serial queue the service's own queue runs on (idp-tui shares one per device; nil for a queue of its own).
    public init(
        tenantId: String, idpUrl: String, certificateChain: String, shouldHashPin: Bool,
        network: SimulatedNetwork = .shared, targetQueue: DispatchQueue? = nil
    ) {
        queue = QueueName.makeSerialQueue("IdpSdk", target: targetQueue)
        self.tenantId = tenantId
        self.idpUrl = idpUrl
        self.shouldHashPin = shouldHashPin
        self.network = network
        do {
            pinnedChain = .success(try CertificateChain.parsed(pem: certificateChain))
        } catch {
            pinnedChain = .failure(error)
        }
    }

    public func getAuthorizationCode(
        withAstClientData astClientData: AstClientDataInfo, clientId: String,
        interactionInterface: any IdpSdkInteractionInterface, userId: String?, traceParent: String?,
        completion: @escaping @Sendable (IdpSdkResult) -> Void
    ) {
        let request = AuthorizationRequest(
            tenantId: tenantId, clientId: clientId, clientData: astClientData.clientData,
            codeChallenge: astClientData.codeChallange, codeChallengeMethod: astClientData.codeChallangeMethod,
            loginHint: userId, traceParent: traceParent)
        queue.async { [self] in
            completion(authorize(request, interaction: interactionInterface))
        }
    }

    // MARK: The login

    private func authorize(_ request: AuthorizationRequest, interaction: any IdpSdkInteractionInterface) -> IdpSdkResult {
        guard !request.clientId.isEmpty else { return IdpSdkResult(error: .invalidArgument("clientId is empty")) }
        guard !request.clientData.isEmpty, !request.codeChallenge.isEmpty else {
            return IdpSdkResult(error: .invalidArgument("astClientData has no clientData or codeChallange; pass a successful GetAstClientDataResultEvent"))
        }
        let provider: IdentityProvider
        switch connect() {
        case .failure(let error): return IdpSdkResult(error: error)
        case .success(let connected): provider = connected
        }
        var page = provider.authorize(request)
        while true {
            switch page {
            case .error(let failure):
                return IdpSdkResult(error: IdpSdkError(subsystem: IdpFailure.subsystem, errorCode: failure.code, message: failure.message))
            case .redirect(let code):
                return IdpSdkResult(authorizationCode: code)
            case .malformed(let what):
                return IdpSdkResult(error: .unreadablePage(what))
            case .form(let form):
                switch answer(form, clientId: request.clientId, interaction: interaction) {
                case .failure(let error):
                    provider.abandon(sessionID: form.sessionID)
                    return IdpSdkResult(error: error)
                case .success(let values):
                    do {
                        try network.roundTrip()
                    } catch {
                        provider.abandon(sessionID: form.sessionID)
                        return IdpSdkResult(error: .network(error))
                    }
                    page = provider.submit(sessionID: form.sessionID, values: values)
                }
            }
        }
    }

    /// Opens the connection and checks the server's chain against the pinned one.
    private func connect() -> Result<IdentityProvider, IdpSdkError> {
        let pins: CertificateChain
        switch pinnedChain {
        case .failure(let error): return .failure(.badCertificateChain(error.description))
        case .success(let chain): pins = chain
        }
        let provider: IdentityProvider
        do {
            provider = try network.connect(to: idpUrl)
        } catch {
            return .failure(.network(error))
        }
        let presented = provider.presentedChain
        do {
            try presented.validate(at: network.clock.now.date)
        } catch {
            return .failure(.untrustedServer(error.description))
        }
        guard presented.isPinned(by: pins) else {
            return .failure(.pinningFailed(
                presented: presented.root?.description ?? "no certificate",
                pinned: pins.certificates.map(\.description).joined(separator: ", ")))
        }
        return .success(provider)
    }

    /// Asks the app for one form page and checks what comes back.
    private func answer(_ form: LoginForm, clientId: String, interaction: any IdpSdkInteractionInterface)
        -> Result<[FormField: Secret], IdpSdkError>
    {
        let data = IdpSdkInteractionData(
            inputFieldIds: form.fields.map(IdpSdkInputFieldId.init), clientId: clientId, page: form.page,
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
        if shouldHashPin, let username = values[.username]?.reveal() {
            for field in [FormField.password, .newPassword, .currentPassword] {
                if let plain = values[field] {
                    values[field] = PinHashing.hash(plain, tenantId: tenantId, username: username)
                }
            }
        }
        return .success(values)
    }
}
