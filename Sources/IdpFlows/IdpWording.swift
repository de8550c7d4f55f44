import FlowEngine
import IdpSdk

/// How the IdpSdk's and KSSIDP's results read on the result screen and in plain mode (``ResultSummary``): the
/// device's user, client and mode after a success; the MC-SDK named in a cancel.
public enum DeviceWording {
    /// The wording of an activation's or a login's results: `success` is a success's headline ("Logged in").
    /// `wrapperCall`: a KSSIDP wrapper flow's one call, which cannot be stopped once made.
    public static func summarize(success: String, wrapperCall: FlowStep? = nil) -> FlowKind.Summarize {
        { summary, result in
            if result.outcome == .success {
                summary.headline = "✓ \(success)"
                if let device = result.device {
                    summary.rows.append(.init("user", "\(device.user ?? "?")@\(device.tenantId)"))
                    summary.rows.append(.init("astClientId", device.astClientId ?? "none"))
                    summary.rows.append(.init("auth mode", result.authenticationMode?.rawValue ?? "none"))
                }
            }
            if let wrapperCall { sayWhatTheWrapperDoes(&summary, result, call: wrapperCall) } else { sayNothingMoreWasSent(&summary, result) }
            markOurCode(&summary)
        }
    }

    /// The subsystem/code pairs KOBIL publishes (REFERENCE.md: "Other IdpSdkError subsystem/code values: not
    /// public"); docs/sdk-names.md lists every one the simulation gives.
    static let publicCodes: Set<String> = ["513/4036", "513/4041", "513/4042"]

    /// An error code of idp-tui's own is said to be one: 513/4043 beside the public 4041 and 4042 read as KOBIL's,
    /// and an engineer learning from the screen would match it in the app (the iOS engineer's reading).
    static func markOurCode(_ summary: inout ResultSummary) {
        guard let index = summary.rows.firstIndex(where: { $0.label == ResultSummary.Label.error }),
              !publicCodes.contains(summary.rows[index].value) else { return }
        summary.rows[index].value += " (idp-tui's code; the real one is not public)"
    }

    /// A KSSIDP flow cancelled says what the wrapper does: nothing, before its call; once called, it goes on without
    /// the app ("Nothing more was sent to the MC-SDK" was said while the wrapper went on to activate the device, a
    /// tester).
    private static func sayWhatTheWrapperDoes(_ summary: inout ResultSummary, _ result: FlowResult, call: FlowStep) {
        guard result.outcome == .cancelled, let index = summary.rows.firstIndex(where: { $0.label == ResultSummary.Label.whatHappened })
        else { return }
        if result.failedStep == call {
            summary.rows[index].value = "Cancelled while \(call.rawValue) was in flight: KSSIDP cannot be stopped, and goes on without the "
                + "app (the log shows what it does, the status line the device it leaves)."
        } else if result.failedStep == .credentialForm {
            summary.rows[index].value = "Cancelled before the app called KSSIDP: nothing was sent to it."
        } else {
            summary.rows[index].value += " Nothing more was sent to the MC-SDK."
            sayTheSDKsHaveNoSuchCancel(&summary, result, wrapper: true)
        }
    }

    /// The cancel of a call in flight is idp-tui's (docs/decisions.md): an engineer learning from the screen took it
    /// for one the SDKs have (the iOS engineer's reading). Last: what the cancel left (a spent code) matters more.
    /// A KSSIDP app (`wrapper`) has no provideCredentials: its cancel is its own form's, before the wrapper is called.
    private static func sayTheSDKsHaveNoSuchCancel(_ summary: inout ResultSummary, _ result: FlowResult, wrapper: Bool = false) {
        guard let step = result.failedStep, result.error?.code == nil else { return }
        let only = wrapper ? "a KSSIDP app cancels only in its own form, before it calls the wrapper"
            : "only provideCredentials cancels, by returning an error"
        summary.rows.append(.init("real SDKs", "no cancel here: an app waits for \(step.rawValue)'s result; \(only) (this cancel is idp-tui's, for tests)"))
    }

    /// The wording of a logout's results: one that had nothing to do is a notice, not an achievement (no ✓, the
    /// text's colour).
    static let logout: FlowKind.Summarize = { summary, result in
        if result.outcome == .success {
            if let device = result.device, device.wasLoggedIn == false {
                summary.headline = device.user == nil
                    ? "Nothing to log out: this device is not activated" : "Nothing to log out: no user was logged in"
                summary.tone = .plain
            } else if let device = result.device, let user = device.user {
                // Who was logged out, and what stays: the activation, so the next login asks for no code.
                summary.headline = "✓ Logged out \(user)@\(device.tenantId)"
                summary.rows.append(.init("device", "still activated for \(user): the next login asks for no activation code"))
            } else {
                summary.headline = "✓ Logged out"
            }
        }
        sayNothingMoreWasSent(&summary, result)
        markOurCode(&summary)
    }

    /// A cancel says what reached the SDKs: "User cancelled" from the credential prompt, and nothing after it.
    private static func sayNothingMoreWasSent(_ summary: inout ResultSummary, _ result: FlowResult) {
        guard result.outcome == .cancelled, let index = summary.rows.firstIndex(where: { $0.label == ResultSummary.Label.whatHappened })
        else { return }
        let cancelled = IdpSdkError.userCancelled
        if result.error?.subsystem == cancelled.subsystem && result.error?.code == cancelled.errorCode {
            summary.rows[index].value =
                "Cancelled at the credential prompt: the IdpSdk received \"User cancelled\" and nothing was sent to the MC-SDK afterwards."
        } else {
            summary.rows[index].value += " Nothing more was sent to the MC-SDK."
            sayTheSDKsHaveNoSuchCancel(&summary, result)
        }
    }
}
