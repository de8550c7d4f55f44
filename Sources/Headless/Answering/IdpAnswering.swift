import Crypto
import FlowCatalog
import FlowEngine
import IdentityProvider
import IdpFlows
import JSONText
import KSMasterController

/// The IdpSdk flows' answers: the fields the scenario's IdP may put on its forms, checked as the forms come.
final class IdpAnswering: FamilyAnswering {
    static let kinds = IdpSdkFamily.kinds
    static let keys: [(key: String, flows: [FlowKind])] =
        keys(of: [.username, .password], for: [.activate, .login])
        // Only activation's second page asks for the code (KnownClient.enrollment).
        + keys(of: [.activationCode], for: [.activate])
        // Fields the IdP's form may name: the IdpSdk asks for whatever its form holds.
        + keys(of: [.newPassword, .currentPassword], for: [.activate, .login])

    init(service: FlowService) {}

    static func asker(of prompt: FlowPrompt) -> String? { "the identity provider asks for on page \(prompt.page) of \(prompt.pageCount)" }

    static let options: [OptionSpec] = [
        OptionSpec(name: "--auth-mode", value: "no|biometric|password|pin", help: "the authentication mode SetAuthorisationCode sends", scope: .engine,
                   reaches: reach) {
            options, value, problem throws(UsageError) in
            guard let mode = KSMAuthenticationMode(rawValue: value) else {
                throw problem("--auth-mode takes no, biometric, password or pin, not \"\(value)\""
                    + KeySuggestion.hint(for: value, among: KSMAuthenticationMode.allCases.map(\.rawValue)))
            }
            options.settings.idp.authenticationMode = mode
        },
        OptionSpec(name: "--hash-pin", value: nil, help: "the IdpSdk hashes the password (shouldHashPin)", scope: .engine, reaches: reach) {
            options, _, _ in options.settings.idp.shouldHashPin = true
        },
        OptionSpec(name: "--certificate-chain", value: "FILE", help: "the PEM chain the app pins (default: the IdP's own)", scope: .engine,
                   reaches: reach) {
            options, value, _ in options[IdpOptionValues.self].certificateChainPath = value
        },
    ]

    /// The flows its settings change (the KSSIDP wrapper's too, which runs on the IdpSdk).
    private static var reach: [FlowKind] { FlowCatalog.kinds(changedBy: IdpSettings.self) }

    /// Reads and checks the certificate chain file `--certificate-chain` named.
    static func finish(_ configuration: inout FlowConfiguration, from options: CommandLineOptions, for command: Command) throws(UsageError) {
        guard let path = options[IdpOptionValues.self].certificateChainPath else { return }
        let pem = try CommandLineOptions.readText(path, what: "certificate chain", command: command.prefix)
        do {
            _ = try CertificateChain(pem: pem)
        } catch {
            throw UsageError("\(command.prefix)the certificate chain file \(path) is unusable: \(error.description)")
        }
        configuration.idp.certificateChainPEM = pem
    }
}

/// What the IdpSdk's options keep until the command line is whole: the file the chain is read from then.
struct IdpOptionValues: HeldOptionValues {
    var certificateChainPath: String?
}

extension IdpSdkFamily: AnsweredFamily {
    static var answering: any FamilyAnswering.Type { IdpAnswering.self }
}
