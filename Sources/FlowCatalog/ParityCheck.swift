import Determinism
import FlowEngine
import FlowRecords
import Foundation
import IdentityProvider
import IdpSdk
import KSMasterController
import LegacyFlows
import Scenario
import Secrets
import Simulation
import Threading

/// One case of the migration parity check: the same steps through the IdpSdk orchestration and through KSSIDP.
public struct ParityCase: Sendable {
    public let name: String
    /// Each step: the new flow, its legacy counterpart, and the answers (credentials by key; nil cancels).
    public let steps: [(new: FlowKind, legacy: FlowKind, answers: [String: Secret]?)]

    public init(name: String, steps: [(new: FlowKind, legacy: FlowKind, answers: [String: Secret]?)]) {
        self.name = name
        self.steps = steps
    }
}

/// What one side did in one step.
public struct ParityObservation: Sendable, Equatable, Encodable {
    public let flow: String
    public let outcome: String
    public let status: String
    public let error: String?
    /// The status of SetAuthorisationCode's result, or `not sent`.
    public let setAuthorisationCode: String
    /// The device afterwards: "not activated", "logged in as alice" …
    public let deviceAfter: String
    /// What the SDK's completion handed the app, in that SDK's names: the `IdpSdkResult` of
    /// `getAuthorizationCode` (an authorization code, or its `idpSdkError` as subsystem/code), or the
    /// `KssIdpStatus` case of KSSIDP's completion; "no completion (not called)" when the flow ended before the call.
    /// Shown, not judged: it is how an app's old handler maps onto the new one.
    public let appReceived: String
    /// The MC-SDK events and IdP requests, in order.
    public let messages: [String]
}

/// One step compared.
public struct ParityStep: Sendable, Equatable, Encodable {
    public let new: ParityObservation
    public let legacy: ParityObservation
    /// Every aspect that differs: outcome, status, error, SetAuthorisationCode, device.
    public let differences: [String]
}

public struct ParityCaseReport: Sendable, Equatable, Encodable {
    public let name: String
    public let steps: [ParityStep]
    public var agrees: Bool { steps.allSatisfy { $0.differences.isEmpty } }

    private enum CodingKeys: String, CodingKey { case name, agrees, steps }

    /// With the case's verdict, so that a script need not walk every step's differences.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(agrees, forKey: .agrees)
        try container.encode(steps, forKey: .steps)
    }
}

public struct ParityReport: Sendable, Equatable, Encodable {
    public let variant: String
    public let cases: [ParityCaseReport]
    /// Why no case ran (a scenario with no user to activate with); nil when they did.
    public var notRun: String? = nil
    public var differenceCount: Int { cases.reduce(0) { $0 + $1.steps.reduce(0) { $0 + $1.differences.count } } }
    /// No difference in cases that ran: a report of none agrees on nothing.
    public var agrees: Bool { notRun == nil && differenceCount == 0 }

    private enum CodingKeys: String, CodingKey { case variant, agrees, differenceCount, cases, notRun }

    /// With the verdict the exit status gives (`agrees`) and the footer's count (`compare --json` sorts the keys).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(variant, forKey: .variant)
        try container.encode(agrees, forKey: .agrees)
        try container.encode(differenceCount, forKey: .differenceCount)
        try container.encode(cases, forKey: .cases)
        try container.encodeIfPresent(notRun, forKey: .notRun)
    }
}

/// Runs the same scenario through the IdpSdk orchestration (`activate`, `login`) and through the legacy
/// KSSIDP wrapper (`legacy-activate`, `legacy-login`), each on a fresh simulated world of its own, and compares
/// what a user and the device would see: outcome, status, error, whether SetAuthorisationCode went out and
/// how it ended, and the device afterwards. The message sequences are shown, not judged: KSSIDP asks for every
/// credential before any event (it cannot ask the IdP's form first), so they differ by design.
public enum ParityCheck {
    /// How the new side orchestrates.
    public enum Variant: String, Sendable, CaseIterable {
        /// As the migration guide does it.
        case guide
        /// A deliberately wrong orchestration: login through the enrollment client. The check must catch it.
        case enrollmentClientForLogin = "enrollment-client-for-login"
    }

    /// The cases, as `user` (the app's tenant's first user with an activation code, in the scenario's own
    /// order: alice in the demo scenario).
    public static func cases(as user: UserConfiguration) -> [ParityCase] {
        guard let code = user.activationCode?.code else { return [] }
        let name = Secret(user.username)
        // Wrong by construction, whatever the scenario's: longer than the real one by a character.
        let wrongPassword = Secret(user.password.reveal() + "!")
        let wrongCode = Secret(code.reveal() + "0")
        return [
            ParityCase(name: "activation, then login", steps: [
                (.activate, .legacyActivate, ["username": name, "password": user.password, "activation-code": code]),
                (.login, .legacyLogin, ["username": name, "password": user.password]),
            ]),
            ParityCase(name: "a wrong password", steps: [
                (.activate, .legacyActivate, ["username": name, "password": wrongPassword, "activation-code": code]),
            ]),
            ParityCase(name: "a wrong activation code", steps: [
                (.activate, .legacyActivate, ["username": name, "password": user.password, "activation-code": wrongCode]),
            ]),
            ParityCase(name: "a cancel at the credentials", steps: [(.activate, .legacyActivate, nil)]),
            ParityCase(name: "login before activation", steps: [(.login, .legacyLogin, ["username": name, "password": user.password])]),
        ]
    }

    /// The user the cases run as: the first of the app's tenant who has an activation code; nil when there is none.
    public static func caseUser(in scenario: Scenario) -> UserConfiguration? {
        scenario.identityProvider.tenants.first { $0.id == scenario.appTenant }?.users.first { $0.activationCode != nil }
    }

    /// Why the scenario cannot be checked: no user in the app's tenant to activate with.
    public static func noCaseUser(in scenario: Scenario) -> String {
        "the scenario's app tenant \"\(scenario.appTenant)\" has no user with an activation code, so no case could activate a device"
    }

    /// Runs the cases (by default, as the scenario's ``caseUser(in:)``; none when it has no such user, and the report
    /// says why in ``ParityReport/notRun``).
    public static func run(scenario: Scenario = .embeddedDefault, cases: [ParityCase]? = nil, variant: Variant = .guide,
                           seed: UInt64 = 1) -> ParityReport {
        let user = cases == nil ? caseUser(in: scenario) : nil
        guard let cases = cases ?? user.map(Self.cases(as:)) else {
            return ParityReport(variant: variant.rawValue, cases: [], notRun: noCaseUser(in: scenario))
        }
        // Prompts are answered at once from the case; one that is not is a fault of the check, reported in 30 s.
        let legacyConfiguration = FlowConfiguration(promptTimeout: .seconds(30))
        var configuration = legacyConfiguration
        if variant == .enrollmentClientForLogin { configuration.idp.loginClientId = KSMClientId.enrollment }
        let reports = cases.map { parityCase -> ParityCaseReport in
            let new = observe(parityCase.steps.map { ($0.new, $0.answers) }, scenario: scenario, configuration: configuration, seed: seed)
            let legacy = observe(
                parityCase.steps.map { ($0.legacy, $0.answers) }, scenario: scenario, configuration: legacyConfiguration, seed: seed)
            let steps = zip(new, legacy).map { new, legacy in
                ParityStep(new: new, legacy: legacy, differences: differences(new, legacy))
            }
            return ParityCaseReport(name: parityCase.name, steps: steps)
        }
        return ParityReport(variant: variant.rawValue, cases: reports)
    }

    static func differences(_ new: ParityObservation, _ legacy: ParityObservation) -> [String] {
        var found: [String] = []
        if new.outcome != legacy.outcome { found.append("outcome: \(new.outcome) ≠ \(legacy.outcome)") }
        if new.status != legacy.status { found.append("status: \(new.status) ≠ \(legacy.status)") }
        if new.error != legacy.error { found.append("error: \(new.error ?? "none") ≠ \(legacy.error ?? "none")") }
        if new.setAuthorisationCode != legacy.setAuthorisationCode {
            found.append("SetAuthorisationCode: \(new.setAuthorisationCode) ≠ \(legacy.setAuthorisationCode)")
        }
        if new.deviceAfter != legacy.deviceAfter { found.append("device after: \(new.deviceAfter) ≠ \(legacy.deviceAfter)") }
        return found
    }

    /// Runs the flows in order on a world of their own and observes each.
    static func observe(_ steps: [(FlowKind, [String: Secret]?)], scenario: Scenario, configuration: FlowConfiguration,
                        seed: UInt64) -> [ParityObservation] {
        // Built as every other service is (the catalog's, with every family), on a world of its own.
        let service = FlowService(
            environment: SimulationEnvironment(scenario: scenario, seed: seed), configuration: configuration, history: nil)
        let frontEnd = ScriptedFrontEnd()
        var observations: [ParityObservation] = []
        for (kind, answers) in steps {
            frontEnd.answers = answers
            frontEnd.result = nil
            frontEnd.events = []
            service.start(kind)
            while frontEnd.result == nil {
                _ = service.mailbox.waitForMessages(timeout: .seconds(60))
                service.deliverPendingMessages(to: frontEnd)
            }
            guard let result = frontEnd.result else { break }
            let set = frontEnd.events.last { $0.step == .setAuthorisationCode && $0.from == .masterController }
            // Requests only: to the MC-SDK from the app or the wrapper, and to the IdP.
            let messages = frontEnd.events.filter {
                (($0.to == .masterController && $0.from != .identityProvider) || $0.to == .identityProvider) && !$0.step.isFaultNotice
            }.map { $0.step.rawValue }
            let error = result.error.map { error in
                error.code.map { code in "\(error.subsystem.map { "\($0)/" } ?? "")\(code)" } ?? error.message
            }
            observations.append(ParityObservation(
                flow: kind.rawValue, outcome: result.outcome.rawValue, status: result.status,
                error: result.outcome == .cancelled ? nil : error, setAuthorisationCode: set?.status ?? "not sent",
                deviceAfter: service.statusLine, appReceived: appReceived(frontEnd.events), messages: messages))
        }
        return observations
    }
}

/// What the SDK's completion handed the app: `IdpSdkResult` for the IdpSdk's `getAuthorizationCode`, the
/// `KssIdpStatus` case (`success`, `requestFailed`, `eventFailed`, `biometricError`) for KSSIDP's completion.
func appReceived(_ events: [FlowEvent]) -> String {
    if let completion = events.last(where: { $0.from == .kssidp && $0.to == .app }) {
        let status = completion.status ?? ""
        return "KssIdpStatus." + status.prefix(1).lowercased() + status.dropFirst()
    }
    if let result = events.last(where: { $0.from == .idpSdk && $0.to == .app && $0.step == .getAuthorizationCode }) {
        return result.status == StatusType.OK.name ? "IdpSdkResult.authorizationCode" : "IdpSdkResult.idpSdkError \(result.status ?? "")"
    }
    return "no completion (not called)"
}

/// Answers credential prompts from a dictionary; nil answers cancel.
private final class ScriptedFrontEnd: FlowFrontEnd {
    var answers: [String: Secret]?
    var result: FlowResult?
    var events: [FlowEvent] = []

    func flowService(_ service: FlowService, didEmit event: FlowEvent) { events.append(event) }

    func flowService(_ service: FlowService, needsAnswerTo prompt: FlowPrompt) {
        guard let answers else {
            service.answer(prompt, with: .cancel)
            return
        }
        var values: [String: Secret] = [:]
        for field in prompt.fields { values[field.key] = answers[field.key] }
        service.answer(prompt, with: .credentials(values))
    }

    func flowService(_ service: FlowService, didFinish result: FlowResult) { self.result = result }
}

/// The parity report as text: one block per case, the two sides in columns, ✓ or ✗ per step.
public enum ParityText {
    /// The messages joined with arrows, in lines of at most `width` characters, each piece as `spelled` spells it.
    static func wrap(_ messages: [String], width: Int, spelled: (String) -> String = { $0 }) -> [String] {
        var lines: [String] = []
        var line = ""
        for (index, message) in messages.enumerated() {
            let piece = spelled(index == 0 ? message : " → " + message)
            if !line.isEmpty && line.count + piece.count > width {
                lines.append(line)
                line = spelled("→ " + message)
            } else {
                line += piece
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }

    /// `text` in lines of at most `width` characters, broken at spaces where it can be and inside a word where
    /// a word is longer than a line: nothing is cut. Inside a word, the break comes after the last `.` `/` `_` `=`
    /// `:` `,` that fits (`IdpSdkResult.` / `authorizationCode`), else before the last capital that follows a small
    /// letter (`onPayer` / `Authentication`), else at the line's end.
    public static func wrapText(_ text: String, width: Int) -> [String] {
        let width = max(1, width)
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: false) {
            var word = Substring(word)
            if !line.isEmpty && line.count + 1 + word.count <= width {
                line += " " + word
                continue
            }
            if !line.isEmpty { lines.append(line) }
            while word.count > width {
                let cut = breakPoint(in: word.prefix(width + 1), width: width)
                lines.append(String(word.prefix(cut)))
                word = word.dropFirst(cut)
            }
            line = String(word)
        }
        lines.append(line)
        return lines
    }

    /// Where to break a word longer than `width`: `head` is its first `width + 1` characters.
    private static func breakPoint(in head: Substring, width: Int) -> Int {
        let characters = Array(head)
        let cuts = stride(from: width, to: 0, by: -1)
        return cuts.first { "./_=:,".contains(characters[$0 - 1]) }
            ?? cuts.first { characters[$0].isUppercase && characters[$0 - 1].isLowercase } ?? width
    }

    /// The report in lines of at most `width` columns. `spelled` turns each piece of text into what is printed
    /// (``PlainASCII`` under a locale that is not UTF-8: `✓` is `ok`, `→` is `->`) before the columns are laid out,
    /// so that they stay aligned in either spelling.
    public static func lines(_ report: ParityReport, width: Int, spelled: (String) -> String = { $0 }) -> [String] {
        markedLines(report, width: width, spelled: spelled).map(\.text)
    }

    /// A line of the report, and the verdict it carries, if any: a case's heading (`✓ 1. …`, `✗ 2. …`) and a
    /// difference (`✗ differs: …`), every row of each when it is wrapped.
    public struct Line: Sendable, Equatable {
        public let text: String
        /// True for a case that agrees, false for one that differs and for a difference; nil for the rest.
        public let agrees: Bool?

        public init(text: String, agrees: Bool?) {
            self.text = text
            self.agrees = agrees
        }
    }

    /// ``lines(_:width:spelled:)``, each with its verdict, for a screen that colours them.
    public static func markedLines(_ report: ParityReport, width: Int, spelled: (String) -> String = { $0 }) -> [Line] {
        let column = max(12, (width - 4) / 2)
        func wrapText(_ text: String, width: Int) -> [String] { Self.wrapText(spelled(text), width: width) }
        // Two columns side by side, each wrapped: a value longer than its column takes more rows, never a cut.
        func row(_ left: String, _ right: String, lead: String = "    ") -> [String] {
            let leftLines = wrapText(left, width: column - 1)
            let rightLines = wrapText(right, width: column - 1)
            return (0..<max(leftLines.count, rightLines.count)).map { index in
                let text = index < leftLines.count ? leftLines[index] : ""
                let padded = text.padding(toLength: column, withPad: " ", startingAt: 0)
                return (index == 0 ? lead : "    ") + padded + (index < rightLines.count ? rightLines[index] : "")
            }
        }
        var lines: [Line] = []
        func add(_ texts: [String], agrees: Bool? = nil) { lines += texts.map { Line(text: $0, agrees: agrees) } }
        add(wrapText(heading(report), width: width) + [""])
        for (index, parityCase) in report.cases.enumerated() {
            add(wrapText("\(parityCase.agrees ? "✓" : "✗") \(index + 1). \(parityCase.name)", width: width), agrees: parityCase.agrees)
            add(row("IdpSdk", "KSSIDP"))
            for step in parityCase.steps {
                // The mark in the lead's four columns, whichever its spelling (`✓`, `ok`).
                let mark = spelled(step.differences.isEmpty ? "✓" : "✗")
                add(row("\(step.new.flow): \(step.new.outcome) \(step.new.status)",
                        "\(step.legacy.flow): \(step.legacy.outcome) \(step.legacy.status)",
                        lead: String(repeating: " ", count: max(0, 3 - mark.count)) + mark + " "))
                add(row("SetAuthorisationCode \(step.new.setAuthorisationCode)", "SetAuthorisationCode \(step.legacy.setAuthorisationCode)"))
                // The error is judged, so it is shown: the IdpSdkError (KSSIDP's errorModel) as subsystem/code.
                if step.new.error != nil || step.legacy.error != nil {
                    add(row("error \(step.new.error ?? "none")", "error \(step.legacy.error ?? "none")"))
                }
                add(row(step.new.deviceAfter, step.legacy.deviceAfter))
                add(row(step.new.appReceived, step.legacy.appReceived))
                let left = wrap(step.new.messages, width: column - 1, spelled: spelled)
                let right = wrap(step.legacy.messages, width: column - 1, spelled: spelled)
                for index in 0..<max(left.count, right.count) {
                    add(row(index < left.count ? left[index] : "", index < right.count ? right[index] : ""))
                }
                for difference in step.differences {
                    add(wrapText("✗ differs: \(difference)", width: width - 4).map { "    " + $0 }, agrees: false)
                }
            }
            add([""])
        }
        add(footer(report).flatMap { wrapText($0, width: width) })
        return lines
    }

    /// The report with one side under the other, for plain mode: a screen reader reads a line at a time, and two
    /// columns side by side were read mixed (and wrapped mid-word on an 80-column terminal).
    public static func stackedLines(_ report: ParityReport, width: Int, spelled: (String) -> String = { $0 }) -> [String] {
        func wrapped(_ text: String, indent: Int) -> [String] {
            Self.wrapText(spelled(text), width: width - indent).map { String(repeating: " ", count: indent) + $0 }
        }
        var lines = wrapped(heading(report), indent: 0) + [""]
        for (index, parityCase) in report.cases.enumerated() {
            lines += wrapped("\(parityCase.agrees ? "✓" : "✗") \(index + 1). \(parityCase.name)", indent: 0)
            for step in parityCase.steps {
                lines += wrapped("\(step.differences.isEmpty ? "✓" : "✗") \(step.new.flow) against \(step.legacy.flow)", indent: 2)
                let errors = step.new.error != nil || step.legacy.error != nil
                for (side, result) in [("IdpSdk", step.new), ("KSSIDP", step.legacy)] {
                    let facts = ["\(result.outcome) \(result.status)", "SetAuthorisationCode \(result.setAuthorisationCode)"]
                        + (errors ? ["error \(result.error ?? "none")"] : []) + [result.deviceAfter, result.appReceived]
                    lines += wrapped("\(side): " + facts.joined(separator: "; "), indent: 4)
                    lines += wrap(result.messages, width: width - 6, spelled: spelled).map { "      " + $0 }
                }
                for difference in step.differences { lines += wrapped("✗ differs: \(difference)", indent: 4) }
            }
            lines.append("")
        }
        return lines + footer(report).flatMap { wrapped($0, indent: 0) }
    }

    private static func heading(_ report: ParityReport) -> String {
        "Migration parity: IdpSdk orchestration (\(report.variant)) against the KSSIDP wrapper"
    }

    private static func footer(_ report: ParityReport) -> [String] {
        if let notRun = report.notRun { return ["No case ran: \(notRun)."] }
        let count = report.differenceCount
        return ["(The message sequences are shown, not judged: KSSIDP takes every credential before any event.)",
                count == 0 ? "The two orchestrations agree in every case (outcome, status, error, SetAuthorisationCode, device)."
                    : "\(count) \(count == 1 ? "difference" : "differences") found."]
    }
}

extension FlowService {
    /// Runs the migration parity check (``ParityCheck``) on worlds of its own, off the caller's thread; the
    /// ``ParityReport`` arrives through the mailbox like a flow's result (``FlowFrontEnd/flowService(_:didReport:)``).
    /// This device is not touched.
    public func compareOrchestrations() {
        let scenario = world.scenario
        report { ParityCheck.run(scenario: scenario) }
    }
}
