import FlowCatalog
import FlowEngine
import Foundation
import IdentityProvider
import JSONText
import Q2Flows
import Q2ModuleInterfaces

/// What a q2-login's answers hold beyond the sign-in screen's fields.
struct Q2Answers: Sendable {
    /// Sign in with the saved credential when the module allows auto-login.
    var autoLogin = false
}

/// The Q2 sign-in screen's answers: its fixed fields, and `autoLogin` for a saved credential.
final class Q2Answering: FamilyAnswering {
    static let kinds = Q2Family.kinds
    static let keys: [(key: String, flows: [FlowKind])] = keys(of: Q2SignIn.fields, for: [.q2Login]) + [("autoLogin", [.q2Login])]
    static let asker: String? = "the Q2 sign-in screen asks for"

    static let options: [OptionSpec] = [
        OptionSpec(name: "--launch", value: "normal|deep-link|push", help: "how the app was opened, for the Q2 module", scope: .engine,
                   reaches: FlowCatalog.kinds(changedBy: Q2Settings.self)) {
            options, value, problem throws(UsageError) in
            guard let launch = Q2Launch(rawValue: value) else {
                throw problem("--launch takes normal, deep-link or push, not \"\(value)\"" + KeySuggestion.hint(for: value, among: Q2Launch.allCases.map(\.rawValue)))
            }
            options.settings.q2.launch = launch
        },
        // Every flow but a payment, whose page meets the network's faults alone (an answer's insecureDevice is refused
        // there too): the flows the insecure device fault reaches.
        OptionSpec(name: "--insecure-device", value: "REASON", help: "the device is rooted: the MC-SDK does not start, and Q2's security module denies every login with REASON", scope: .engine,
                   reaches: FlowCatalog.kinds(reachedByAnyOf: [IdentityFaults.Fault.insecureDevice.key])) {
            options, value, problem throws(UsageError) in
            guard !value.trimmingCharacters(in: .whitespaces).isEmpty, value.count <= 200,
                !value.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7f })
            else { throw problem("--insecure-device takes a reason of 1 to 200 characters, without control characters") }
            // The answers pasted here (a password among them) would go into every log line and the history.
            guard !ArgumentEcho.looksLikeJSON(value) else {
                throw problem("--insecure-device takes a reason in words (rooted, jailbroken), not JSON; answers go on standard input or in --answers FILE")
            }
            options.settings.q2.insecureDeviceReason = value
        },
    ]

    private let service: FlowService

    init(service: FlowService) {
        self.service = service
    }

    static func read(_ key: String, _ value: JSONNode, into answers: inout FlowAnswers, at place: String) throws(UsageError) -> Bool {
        guard key == "autoLogin" else { return false }
        guard let flag = value.bool else { throw UsageError("\(place).\(key) must be true or false (\(value.position))") }
        answers.own = Q2Answers(autoLogin: flag)
        return true
    }


    /// An auto-login with nothing to type in instead, that cannot happen whatever the earlier flows do: no q2-login
    /// before it to save a credential (none is saved when a run starts), or a push launch. The sign-in screen's
    /// fields, unless an auto-login may happen (it depends on what earlier flows saved).
    func check(_ run: AnswerPlan, at position: Int, _ stage: AnswerCheck) throws(UsageError) {
        let given = run.answers[position]
        // Nothing to type in instead: the auto-login must happen.
        let mustAutoLogin = Self.autoLogin(given) && given.values["username"] == nil && given.values["password"] == nil
        let mayAutoLogin = Self.autoLogin(given) && autoLoginMayHappen(run.flows, at: position)
        switch stage {
        case .requests where mustAutoLogin && !mayAutoLogin:
            throw UsageError(Self.autoLoginRefused(at: run.place(position), savedCredential: run.flows[..<position].contains(.q2Login), given))
        case .fields where !mayAutoLogin: try require(Q2SignIn.fields, run, at: position)
        default: break
        }
    }

    /// `"autoLogin": true` signs in with the saved credential when `shouldAllowAutoLogin()` allows it (asked on
    /// this, the main, thread); else the username and password of the answers are typed in.
    func answer(_ prompt: FlowPrompt, _ given: FlowAnswers, through runner: HeadlessRunner) -> Bool {
        guard let signIn = prompt.request as? Q2SignIn, Self.autoLogin(given) else { return false }
        if signIn.savedUsername != nil {
            let service = service
            if MainActor.assumeIsolated({ service.q2.allowsAutoLogin() }) {
                service.answer(prompt, with: .q2AutoLogin)
                return true
            }
        }
        if given.values["username"] == nil && given.values["password"] == nil {
            runner.refuse(prompt, Self.autoLoginRefused(at: runner.place, savedCredential: signIn.savedUsername != nil, given))
            return true
        }
        return false
    }

    private static func autoLogin(_ given: FlowAnswers) -> Bool { given.own(Q2Answers.self)?.autoLogin ?? false }

    /// Whether the q2-login at `position` may sign in with a saved credential: one saved by a q2-login earlier in
    /// the run (none is saved when a run starts), on a launch whose `shouldAllowAutoLogin()` is true.
    private func autoLoginMayHappen(_ flows: [FlowKind], at position: Int) -> Bool {
        flows[..<position].contains(.q2Login) && service.q2.settings.launch != .push
    }

    /// Why `"autoLogin": true` with no user name or password cannot sign in: no credential saved yet, or a launch
    /// whose `shouldAllowAutoLogin()` is false.
    static func autoLoginRefused(at place: String, savedCredential: Bool, _ given: FlowAnswers) -> String {
        let why = savedCredential
            ? "shouldAllowAutoLogin() is false (--launch push)"
            : "no credential is saved yet (a successful q2-login earlier in the run saves one)"
        return "\(place) (q2-login) asks for auto-login, but \(why); give \"username\" and \"password\" too\(given.at)"
    }
}

extension Q2Family: AnsweredFamily {
    static var answering: any FamilyAnswering.Type { Q2Answering.self }
}
