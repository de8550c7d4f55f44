import FlowEngine
import IdpFlows

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
}

extension IdpSdkFamily: AnsweredFamily {
    static var answering: any FamilyAnswering.Type { IdpAnswering.self }
}
