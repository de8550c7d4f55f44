import Determinism
import DropsWeb
import Foundation
import IdentityProvider
import JSONText
import Secrets
import ThreeDSecure

// Reading a scenario's payments (cards, challenge designs) and faults.
extension ScenarioReader {
    /// The cards, the challenge's rules, the 3-D Secure timers, and the bridge's ready timer where the file sets one.
    mutating func payments(_ node: JSONNode) -> ([TestCard], ChallengePolicy, ThreeDSTimers, Duration?) {
        let path = "$.payments"
        var policy = ChallengePolicy()
        var timers = ThreeDSTimers()
        var bridgeReady: Duration?
        guard let members = object(node, path, known: ["includeDefaultCards", "cards", "challenge", "timers"]) else {
            return (CardCatalog.defaults, policy, timers, nil)
        }
        if let node = members["timers"],
            let values = object(node, "\(path).timers", known: ["methodSeconds", "lookupSeconds", "firstCReqSeconds", "bridgeReadySeconds"])
        {
            let keys: [(String, WritableKeyPath<ThreeDSTimers, Duration>)] = [
                ("methodSeconds", \.method), ("lookupSeconds", \.lookup), ("firstCReqSeconds", \.firstCReq),
            ]
            for (key, path) in keys {
                if let seconds = integer(values[key], "$.payments.timers.\(key)", 1...600) { timers[keyPath: path] = .seconds(seconds) }
            }
            // The bridge's, not 3-D Secure's: how long the host waits for the page's ready (a CI run of the
            // ready-never-comes and wrong-origin faults waited 10 s each).
            if let seconds = integer(values["bridgeReadySeconds"], "$.payments.timers.bridgeReadySeconds", 1...600) {
                bridgeReady = .seconds(seconds)
            }
        }
        if let node = members["challenge"],
            let rules = object(node, "\(path).challenge", known: ["attempts", "resends", "timeoutSeconds", "oneTimeCode"])
        {
            if let attempts = integer(rules["attempts"], "\(path).challenge.attempts", 1...10) { policy.attempts = attempts }
            if let resends = integer(rules["resends"], "\(path).challenge.resends", 0...10) { policy.resends = resends }
            if let seconds = integer(rules["timeoutSeconds"], "\(path).challenge.timeoutSeconds", 1...3600) {
                policy.timeout = .seconds(seconds)
            }
            // No longer than the challenge screen's code field and the answers' `otp` take: a longer code could
            // never be answered.
            if let code = secret(rules["oneTimeCode"], "\(path).challenge.oneTimeCode", maxBytes: ChallengePolicy.codeMaximumBytes,
                                 why: " (the challenge screen's code and the answers' otp take at most \(ChallengePolicy.codeMaximumBytes))") {
                // Plain mode reads the word, in any case, as asking for another code: that code could never be typed
                // there.
                if code.reveal().lowercased() == "resend" {
                    problem("\(path).challenge.oneTimeCode", rules["oneTimeCode"], "is the word plain mode takes to ask for a new code: choose another code")
                }
                // Plain mode trims a typed line's spaces (a pasted line often ends in one): a code that begins or ends
                // in one could never be typed there.
                let scalars = code.reveal().unicodeScalars
                if [scalars.first, scalars.last].contains(where: { $0.map(CharacterSet.whitespaces.contains) == true }) {
                    problem("\(path).challenge.oneTimeCode", rules["oneTimeCode"], "begins or ends with a space, which plain mode trims from a typed code: choose one without spaces at its ends")
                }
                policy.oneTimeCode = code
            }
        }
        let includeDefaults = bool(members["includeDefaultCards"], "\(path).includeDefaultCards") ?? true
        var cards: [TestCard] = []
        var numbers: Set<String> = []
        if let list = array(members["cards"], "\(path).cards", maxCount: 1000) {
            for (index, item) in list.enumerated() {
                if let card = card(item, "\(path).cards[\(index)]", numbers: &numbers) { cards.append(card) }
            }
        }
        // A scenario's own card replaces a default card with the same number.
        let defaults = includeDefaults ? CardCatalog.defaults.filter { !numbers.contains($0.number) } : []
        return (cards + defaults, policy, timers, bridgeReady)
    }

    static let uiTypes: [String: AcsUiType] = [
        "text": .text, "single-select": .singleSelect, "multi-select": .multiSelect, "out-of-band": .outOfBand, "html": .htmlOther,
    ]

    /// A scenario card. `numbers`: the card numbers read so far; a number listed twice is a problem even when
    /// something else is wrong with either card.
    mutating func card(_ node: JSONNode, _ path: String, numbers: inout Set<String>) -> TestCard? {
        guard let members = object(node, path, known: ["number", "title", "frictionless", "challenge", "lookup", "final", "reason", "prompt", "options", "correct"],
                                   required: ["number"]) else { return nil }
        var number: CardNumber?
        if let text = string(members["number"], "\(path).number", maxLength: 40) {
            do {
                number = try CardNumber(text)
            } catch {
                problem("\(path).number", members["number"], error.description)
            }
        }
        let title = string(members["title"], "\(path).title", maxLength: 80) ?? "Scenario card"
        let reason: TransStatusReason? = string(members["reason"], "\(path).reason", maxLength: 2).flatMap { code in
            guard let reason = TransStatusReason(rawValue: code) else {
                problem("\(path).reason", members["reason"], "must be a transStatusReason code from 01 to 26 (two digits)")
                return nil
            }
            return reason
        }
        var scenario: CardScenario?
        let kinds = ["frictionless", "challenge", "lookup"].filter { members[$0] != nil }
        if kinds.isEmpty {
            problem(path, node, "needs \"frictionless\" (the ARes transStatus), \"challenge\" (its UI type) or \"lookup\" (no ARes)")
        } else if kinds.count > 1 {
            problem("\(path).\(kinds[1])", members[kinds[1]], "a card is frictionless, challenged or ends at lookup: one of them")
        } else if let frictionless = members["frictionless"] {
            for key in ["final", "prompt", "options", "correct"] where members[key] != nil {
                problem("\(path).\(key)", members[key], "applies only to a challenge card")
            }
            // Read at any length, so that "Yes" is told what the key takes, not that it is longer than 1 character.
            if let text = string(frictionless, "\(path).frictionless", maxLength: 40) {
                if let status = TransStatus(rawValue: text), [.authenticated, .attempted, .notAuthenticated, .couldNotBePerformed, .rejected].contains(status) {
                    Self.checkReason(reason, for: status, members, path, into: &self)
                    scenario = .frictionless(status, reason: reason)
                } else {
                    let meant = TransStatus(rawValue: text.uppercased()).map { " (did you mean \($0.rawValue)?)" } ?? ""
                    problem("\(path).frictionless", frictionless, "must be one letter, the ARes transStatus: Y, A, N, U or R\(meant)")
                }
            }
        } else if let lookup = members["lookup"] {
            for key in ["final", "reason", "prompt", "options", "correct"] where members[key] != nil {
                problem("\(path).\(key)", members[key], "does not apply to a card that ends at lookup")
            }
            if let text = word(lookup, "\(path).lookup", among: LookupOutcome.allCases.map(\.rawValue)), let outcome = LookupOutcome(rawValue: text) {
                scenario = .lookup(outcome)
            }
        } else if let challenge = members["challenge"] {
            scenario = self.challenge(challenge, members, path, reason: reason)
        }
        if let number, !numbers.insert(number.digits).inserted {
            problem("\(path).number", members["number"], "this card number is listed twice")
        }
        guard let number, let scenario else { return nil }
        return TestCard(number: number.digits, brand: number.brand, title: title, source: nil, scenario: scenario)
    }

    /// EMV 3DS gives a transStatusReason with N, U and R, and none with Y or A: a card that broke that rule ran,
    /// and its payment's result did too (N without a reason, Y with "exceeds ACS maximum challenges").
    static func checkReason(_ reason: TransStatusReason?, for status: TransStatus, _ members: JSONNode, _ path: String,
                            into reader: inout ScenarioReader) {
        switch (status, reason) {
        case (.authenticated, _?), (.attempted, _?):
            reader.problem("\(path).reason", members["reason"], "a transStatusReason goes with N, U or R, not with \(status.rawValue)")
        // Only when none is given: a reason given that is wrong is said as that (it was said twice, once as missing).
        case (.notAuthenticated, nil), (.couldNotBePerformed, nil), (.rejected, nil):
            guard members["reason"] == nil else { break }
            reader.problem(path, members, "a card that ends in \(status.rawValue) needs \"reason\" (a transStatusReason, as EMV 3DS requires: 01 card authentication failed, 08 no card record, 11 suspected fraud …)")
        default: break
        }
    }

    mutating func challenge(_ node: JSONNode, _ members: JSONNode, _ path: String, reason: TransStatusReason?) -> CardScenario? {
        guard let name = word(node, "\(path).challenge", among: Self.uiTypes.keys.sorted()), let uiType = Self.uiTypes[name] else { return nil }
        var outcome = TransStatus.authenticated
        var endsInError = false
        var finalRefused = false
        if let text = string(members["final"], "\(path).final", maxLength: 5) {
            let finals: [TransStatus] = [.authenticated, .notAuthenticated, .couldNotBePerformed]
            if let status = TransStatus(rawValue: text), finals.contains(status) {
                outcome = status
            } else if text == "error" {
                (outcome, endsInError) = (.couldNotBePerformed, true)
            } else {
                let meant = finals.map(\.rawValue).first { $0 == text.uppercased() } ?? (text.lowercased() == "error" ? "error" : nil)
                problem("\(path).final", members["final"], "must be Y, N or U (the result of a challenge answered right), or error (the ACS fails)"
                    + (meant.map { " (did you mean \($0)?)" } ?? ""))
                finalRefused = true
            }
        }
        let prompt = string(members["prompt"], "\(path).prompt", maxLength: 200) ?? ChallengeDesign.defaultPrompt(for: uiType)
        // What a challenge ends in, as EMV 3DS has it: a reason with N and U (and only then), and HTML's own end.
        if uiType == .htmlOther {
            for key in ["final", "reason"] where members[key] != nil {
                problem("\(path).\(key)", members[key], "does not apply to an html challenge: a terminal cannot show it, so it ends U, reason 03")
            }
        } else if endsInError, members["reason"] != nil {
            problem("\(path).reason", members["reason"], "does not apply to a card whose ACS fails (final error): it ends U, reason 22")
        } else if !endsInError, !finalRefused {
            // Not after a refused final: its reason was then judged against Y, a second error that contradicted the
            // author's R.
            Self.checkReason(reason, for: outcome, members, path, into: &self)
        }
        // A list whose problem was reported already is not reported again as missing ("has more than 8 entries"
        // and then "needs at least two options").
        var options: [String] = []
        var optionsReported = members["options"] != nil
        var optionCount = 0
        if let list = array(members["options"], "\(path).options", maxCount: 8) {
            options = list.enumerated().compactMap { string($1, "\(path).options[\($0)]", maxLength: 60) }
            optionsReported = options.count != list.count
            optionCount = list.count
            // Answers name an option by its text in any case: options that differ only so could not be told apart.
            if Set(options.map { $0.lowercased() }).count != options.count {
                problem("\(path).options", members["options"], "each option must differ, in more than case (an answer may name an option by its text, in any case)")
            }
        }
        var correct: Set<Int> = []
        var correctReported = members["correct"] != nil
        if let list = array(members["correct"], "\(path).correct", maxCount: 8) {
            correctReported = false
            for (index, item) in list.enumerated() {
                // Options refused as a list (more than 8) are judged by the most a list may have: "from 1 to 1" sent
                // the author to fix the right answers, which were fine, and "from 1 to 9" took an option the list
                // may not have.
                let most = optionCount > 0 || !optionsReported ? min(max(1, optionCount), 8) : 8
                guard let number = integer(item, "\(path).correct[\(index)]", 1...most) else {
                    correctReported = true
                    continue
                }
                if !correct.insert(number - 1).inserted { problem("\(path).correct[\(index)]", item, "option \(number) is named twice") }
            }
        }
        let selects = uiType == .singleSelect || uiType == .multiSelect
        if selects {
            if options.count < 2 && !optionsReported {
                problem("\(path).options", members["options"] ?? node, "a select challenge needs at least two options")
            }
            if correct.isEmpty && !correctReported { problem("\(path).correct", members["correct"] ?? node, "name the right option numbers (from 1)") }
            if uiType == .singleSelect && correct.count > 1 {
                problem("\(path).correct", members["correct"], "a single-select challenge has exactly one right option")
            }
        } else {
            for key in ["options", "correct"] where members[key] != nil {
                problem("\(path).\(key)", members[key], "applies only to a select challenge")
            }
        }
        return .challenge(ChallengeDesign(uiType: uiType, outcome: outcome, outcomeReason: reason, endsInError: endsInError,
                                          prompt: prompt, options: options, correctOptions: correct))
    }

    // MARK: Faults

    /// The faults `node` sets, each key over what `base` has (a key left out keeps `base`'s value; `false`, 0 or
    /// null, where each is the key's type, switches that fault off).
    mutating func faults(_ node: JSONNode, _ path: String, over base: (IdentityFaults, BridgeFaults) = (IdentityFaults(), BridgeFaults()))
        -> (IdentityFaults, BridgeFaults)
    {
        var (identity, bridge) = base
        let flags: [(String, WritableKeyPath<IdentityFaults, Bool>)] = [
            ("networkUnavailable", \.networkUnavailable), ("requestTimeout", \.requestTimeout), ("serverError", \.serverError),
            ("malformedPage", \.malformedPage), ("pinningFails", \.pinningFails), ("insecureDevice", \.insecureDevice),
            ("runtimeError", \.runtimeError),
        ]
        guard let members = object(node, path, known: flags.map(\.0) + ["addedLatencyMs", "clockSkewDays", "bridge", "threeDS"]) else {
            return (identity, bridge)
        }
        for (key, keyPath) in flags {
            if let flag = bool(members[key], "\(path).\(key)") { identity[keyPath: keyPath] = flag }
        }
        if let ms = integer(members["addedLatencyMs"], "\(path).addedLatencyMs", 0...60_000) { identity.addedLatency = .milliseconds(ms) }
        if let days = integer(members["clockSkewDays"], "\(path).clockSkewDays", -3650...3650) {
            identity.clockSkew = .seconds(days * 86_400)
        }
        if let node = members["bridge"] {
            let bridgeFlags: [(String, WritableKeyPath<BridgeFaults, Bool>)] = [
                ("loseEveryAck", \.loseEveryAck), ("readyNeverComes", \.readyNeverComes), ("malformedMessage", \.malformedMessage),
                ("unknownEvent", \.unknownEvent), ("wrongOrigin", \.wrongOrigin),
            ]
            if let fields = object(node, "\(path).bridge", known: ["loseAcks"] + bridgeFlags.map(\.0)) {
                if let count = integer(fields["loseAcks"], "\(path).bridge.loseAcks", 0...100) { bridge.lostAcks = count }
                for (key, keyPath) in bridgeFlags {
                    if let flag = bool(fields[key], "\(path).bridge.\(key)") { bridge[keyPath: keyPath] = flag }
                }
            }
        }
        if let node = members["threeDS"],
            let fields = object(node, "\(path).threeDS", known: ["methodTimeout", "firstCReqLost", "directoryServer", "acs"])
        {
            if let flag = bool(fields["methodTimeout"], "\(path).threeDS.methodTimeout") { bridge.threeDS.methodTimeout = flag }
            if let flag = bool(fields["firstCReqLost"], "\(path).threeDS.firstCReqLost") { bridge.threeDS.firstCReqLost = flag }
            for (key, keyPath) in [("directoryServer", \ThreeDSFaults.directoryServer), ("acs", \ThreeDSFaults.acs)] {
                // null: no fault (what `scenario show` writes when none is on).
                guard let node = fields[key] else { continue }
                guard node.value != .null else {
                    bridge.threeDS[keyPath: keyPath] = nil
                    continue
                }
                if let text = word(node, "\(path).threeDS.\(key)", among: ServerFault.allCases.map(\.rawValue), alsoAllowed: ", or null (it answers normally)"),
                    let fault = ServerFault(rawValue: text)
                {
                    bridge.threeDS[keyPath: keyPath] = fault
                }
            }
        }
        return (identity, bridge)
    }
}
