import Secrets

/// A field of a credential form: the key its value is given under, which is also the id SDKs ask for it by
/// (`username`, `activation-code`), and whether it is a secret to mask.
public struct CredentialField: Sendable, Hashable, CustomStringConvertible {
    public let key: String
    public let isSecret: Bool
    /// What a form labels it with: "Activation code".
    public let label: String

    public init(key: String, isSecret: Bool, label: String) {
        self.key = key
        self.isSecret = isSecret
        self.label = label
    }

    public var description: String { key }

    /// The fields most sign-ins ask for (an IdP's form, the Q2 sign-in screen); a family declares its others.
    public static let username = CredentialField(key: "username", isSecret: false, label: "Username")
    public static let password = CredentialField(key: "password", isSecret: true, label: "Password")
}

/// A prompt that is a form of credential fields: every front end shows and answers it the same way, whichever
/// family asks (an IdP's login form, the Q2 sign-in screen).
public protocol CredentialForm: PromptRequest {
    var fields: [CredentialField] { get }
    /// A user name the app already knows (a login's: the device's user): the form's user name starts with it.
    var knownUsername: String? { get }
    /// What the working screen says while the answer is on its way ("IdpSdk: submitting page 1 of 2…"); nil, the
    /// default, says that the flow is sending it.
    var sending: String? { get }
    /// A warning over the form (and over the choice a ``ChoosingForm`` opens on): Q2's
    /// `presentWithLocalizedErrorMessage`. Nil, the default: none.
    var banner: String? { get }
    /// What the form says above its fields, in place of naming what it asks for and whose client asks (Q2: "Sign
    /// in to online banking"); a banner or the form's note takes its place. Nil, the default: the IdP's client or
    /// the flow is named.
    var hint: String? { get }
    /// Who asks, and what identifies them, as the line above the fields names them when ``hint`` is nil: "The
    /// IdpSdk" and "client mobile-app" ("The IdpSdk asks for alice's password (client mobile-app)"). Nil, the
    /// default: the flow asks ("Log in asks for a password").
    var askedBy: (who: String, identified: String)? { get }
}

extension CredentialForm {
    public var knownUsername: String? { nil }
    public var sending: String? { nil }
    public var banner: String? { nil }
    public var hint: String? { nil }
    public var askedBy: (who: String, identified: String)? { nil }
}

/// The values typed into a credential form, keyed by ``CredentialField/key``.
public struct Credentials: Sendable {
    public let values: [String: Secret]

    public init(_ values: [String: Secret]) {
        self.values = values
    }
}

extension PromptAnswer {
    /// A credential form's values.
    public static func credentials(_ values: [String: Secret]) -> PromptAnswer { PromptAnswer(Credentials(values)) }
}

extension FlowPrompt {
    /// The fields of a credential form; empty for the other kinds of prompt.
    public var fields: [CredentialField] { (request as? any CredentialForm)?.fields ?? [] }
}
