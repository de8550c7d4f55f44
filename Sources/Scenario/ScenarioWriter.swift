import IdentityProvider
import JSONText
import DropsWeb
import Secrets
import ThreeDSecure

extension ScenarioFile {
    /// The scenario in the file format, secrets replaced by ``secretPlaceholder`` (`scenario show`).
    public static func json(_ scenario: Scenario) -> JSONNode {
        let idp = scenario.identityProvider
        let tenants: [JSONNode] = idp.tenants.map { tenant in
            .object([
                ("id", .string(tenant.id)), ("hashedPins", .bool(tenant.expectsHashedPins)), ("usernameFirst", .bool(tenant.usernameFirst)),
                ("users", .array(tenant.users.map { user in
                    var members: [(String, JSONNode)] = [("username", .string(user.username)), ("password", .string(secretPlaceholder))]
                    if let code = user.activationCode {
                        members.append(("activationCode", .string(secretPlaceholder)))
                        members.append(("activationCodeValidDays", .number(Double(code.validFor.components.seconds) / 86_400)))
                    }
                    return .object(members)
                })),
            ])
        }
        let defaults = CardCatalog.defaults
        let includesDefaults = defaults.allSatisfy { scenario.cards.contains($0) }
        let own = includesDefaults ? scenario.cards.filter { !defaults.contains($0) } : scenario.cards
        let policy = scenario.challengePolicy
        let timers = scenario.threeDSTimers
        let identity = scenario.identityFaults
        let bridge = scenario.bridgeFaults
        return .object([
            ("scenario", .int(formatVersion)),
            ("name", .string(scenario.name)),
            ("identityProvider", .object([
                ("url", .string(idp.baseURL)),
                ("lockout", .object([
                    ("maxFailures", .int(idp.lockout.maxFailures)), ("lockSeconds", .int(Int(idp.lockout.lockDuration.components.seconds))),
                ])),
                ("tenants", .array(tenants)),
            ])),
            ("app", .object([("tenant", .string(scenario.appTenant))])),
            ("payments", .object([
                ("includeDefaultCards", .bool(includesDefaults)),
                ("challenge", .object([
                    ("attempts", .int(policy.attempts)), ("resends", .int(policy.resends)),
                    ("timeoutSeconds", .int(Int(policy.timeout.components.seconds))), ("oneTimeCode", .string(secretPlaceholder)),
                ])),
                ("cards", .array(own.map(card))),
                ("timers", .object([
                    ("methodSeconds", .int(Int(timers.method.components.seconds))),
                    ("lookupSeconds", .int(Int(timers.lookup.components.seconds))),
                    ("firstCReqSeconds", .int(Int(timers.firstCReq.components.seconds))),
                    ("bridgeReadySeconds", .int(Int((scenario.bridgeReadyTimeout ?? BridgeTiming.swiftHost.readyTimeout).components.seconds))),
                ])),
            ])),
            ("network", .object([("latencyMs", .int(Int(scenario.networkLatency.milliseconds))),
                                 ("requestTimeoutSeconds", .int(Int(scenario.requestTimeout.components.seconds)))])),
            ("faults", .object([
                ("networkUnavailable", .bool(identity.networkUnavailable)), ("addedLatencyMs", .int(Int(identity.addedLatency.milliseconds))),
                ("requestTimeout", .bool(identity.requestTimeout)), ("serverError", .bool(identity.serverError)),
                ("malformedPage", .bool(identity.malformedPage)), ("pinningFails", .bool(identity.pinningFails)),
                ("insecureDevice", .bool(identity.insecureDevice)), ("runtimeError", .bool(identity.runtimeError)),
                ("clockSkewDays", .int(Int(identity.clockSkew.components.seconds / 86_400))),
                ("bridge", .object([
                    ("loseAcks", .int(bridge.lostAcks)), ("loseEveryAck", .bool(bridge.loseEveryAck)),
                    ("readyNeverComes", .bool(bridge.readyNeverComes)), ("malformedMessage", .bool(bridge.malformedMessage)),
                    ("unknownEvent", .bool(bridge.unknownEvent)), ("wrongOrigin", .bool(bridge.wrongOrigin)),
                ])),
                ("threeDS", .object([
                    ("methodTimeout", .bool(bridge.threeDS.methodTimeout)), ("firstCReqLost", .bool(bridge.threeDS.firstCReqLost)),
                    ("directoryServer", bridge.threeDS.directoryServer.map { .string($0.rawValue) } ?? .null),
                    ("acs", bridge.threeDS.acs.map { .string($0.rawValue) } ?? .null),
                ])),
            ])),
        ])
    }

    private static func card(_ card: TestCard) -> JSONNode {
        var members: [(String, JSONNode)] = [("number", .string(card.number)), ("title", .string(card.title))]
        switch card.scenario {
        case .frictionless(let status, let reason):
            members.append(("frictionless", .string(status.rawValue)))
            if let reason { members.append(("reason", .string(reason.rawValue))) }
        case .lookup(let outcome):
            members.append(("lookup", .string(outcome.rawValue)))
        case .challenge(let design):
            let name = ScenarioReader.uiTypeNames[design.uiType] ?? "text"
            members.append(("challenge", .string(name)))
            // As a scenario file gives them: an html card has neither (a terminal cannot show it), an error card no
            // reason (the ACS's error gives its own).
            if design.uiType != .htmlOther {
                members.append(("final", .string(design.endsInError ? "error" : design.outcome.rawValue)))
                if let reason = design.outcomeReason, !design.endsInError { members.append(("reason", .string(reason.rawValue))) }
            }
            members.append(("prompt", .string(design.prompt)))
            if !design.options.isEmpty {
                members.append(("options", .array(design.options.map { .string($0) })))
                members.append(("correct", .array(design.correctOptions.sorted().map { .int($0 + 1) })))
            }
        }
        return .object(members)
    }
}

extension ScenarioReader {
    static let uiTypeNames: [AcsUiType: String] = Dictionary(uniqueKeysWithValues: uiTypes.map { ($1, $0) })
}
