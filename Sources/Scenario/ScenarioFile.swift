import Determinism
import Foundation
import IdentityProvider
import JSONText
import DropsWeb
import Secrets
import ThreeDSecure

/// The scenario file format (docs/scenarios.md, docs/scenario.schema.json): reading with every problem
/// reported, and writing the effective scenario back out.
public enum ScenarioFile {
    public static let formatVersion = 1
    public static let maximumSize = 1 << 20
    /// What `scenario show` prints in place of a secret; a file that still holds it is refused.
    public static let secretPlaceholder = "<secret>"

    /// Reads a scenario. Returns it, or every problem found (never both).
    public static func read(_ bytes: [UInt8]) -> Result<Scenario, ScenarioProblems> {
        read(bytes, deferringUsers: true)
    }

    /// `deferringUsers`: whether the users lists that ``DeferredUsers`` can check are checked there, and made at
    /// their tenant's first use; tests and fuzzing compare the two ways.
    package static func read(_ bytes: [UInt8], deferringUsers: Bool) -> Result<Scenario, ScenarioProblems> {
        guard bytes.count <= maximumSize else {
            return .failure(ScenarioProblems([ScenarioProblem(path: "", position: nil, message: "the file is larger than 1 MiB")], complete: false))
        }
        // A file with a problem is read again the usual way, so that its problems are told as they always are.
        if deferringUsers, case let lists = DeferredUsers.find(in: bytes), !lists.isEmpty,
            let (root, positions) = try? JSONParser.parse(bytes, skippingCheckedArrays: lists.map(\.range)),
            positions.count == lists.count
        {
            var reader = ScenarioReader(deferred: Array(zip(lists, positions)), source: bytes)
            if let scenario = reader.scenario(root), reader.problems.isEmpty, reader.deferred.isEmpty { return .success(scenario) }
        }
        let root: JSONNode
        do {
            root = try JSONParser.parse(bytes, keepingDuplicateKeys: true)
        } catch {
            return .failure(ScenarioProblems([ScenarioProblem(path: "$", position: error.position, message: error.documentProblem)], complete: false))
        }
        var reader = ScenarioReader()
        let scenario = reader.scenario(root)
        if let scenario, reader.problems.isEmpty { return .success(scenario) }
        return .failure(ScenarioProblems(reader.problems))
    }

    /// Reads a faults object (the scenario's `faults`, or a headless answer's over the run's), with its problems. A
    /// key it does not know is reported by where its value starts, never quoted (in answers, it may be a password).
    /// Each key given sets its fault over `base`; a key left out keeps `base`'s.
    public static func faults(_ node: JSONNode, at path: String, over base: (IdentityFaults, BridgeFaults) = (IdentityFaults(), BridgeFaults()))
        -> Result<(IdentityFaults, BridgeFaults), ScenarioProblems>
    {
        var reader = ScenarioReader()
        let faults = reader.faults(node, path, over: base)
        return reader.problems.isEmpty ? .success(faults) : .failure(ScenarioProblems(reader.problems))
    }

    public static func read(path: String) -> Result<Scenario, ScenarioProblems> {
        switch TextFile.read(path, limit: maximumSize) {
        case .success(let bytes): return read(bytes)
        case .failure(let failure):
            return .failure(ScenarioProblems([ScenarioProblem(path: "", position: nil, message: "the file \(failure)")], complete: false))
        }
    }
}

// MARK: - Reading

struct ScenarioReader {
    var problems: [ScenarioProblem] = []
    /// Users lists checked already (by tenant), each with where the parser read it as an empty array; each is
    /// taken when its tenant is read.
    private(set) var deferred: [Int: (list: DeferredUsers.List, position: TextPosition)] = [:]
    private var source: [UInt8] = []
    /// Whether the tenants list, or one of its tenants, could not be read: the app's tenant may be the one missing.
    private var tenantRefused = false

    init() {}

    init(deferred lists: [(DeferredUsers.List, TextPosition)], source: [UInt8]) {
        deferred = Dictionary(uniqueKeysWithValues: lists.map { ($0.tenant, ($0, $1)) })
        self.source = source
    }

    mutating func problem(_ path: String, _ node: JSONNode?, _ message: String) {
        problems.append(ScenarioProblem(path: path, position: node?.position, message: message))
    }

    /// The object itself (its members are looked up with its subscript), reporting unknown keys and missing
    /// required ones; nil when it is not an object.
    mutating func object(_ node: JSONNode, _ path: @autoclosure () -> String, known: [String], required: [String] = []) -> JSONNode? {
        guard let members = node.members else {
            problem(path(), node, "must be an object, not \(node.kind)")
            return nil
        }
        // Each key's first value, to find one given again in one pass (a search of the members before each took
        // minutes on a file of 30,000 keys).
        var firsts: [String: JSONNode] = [:]
        for (key, value) in members {
            guard known.contains(key) else {
                // The key is not quoted back: a value typed where a key belongs (a password) would be.
                problem(path(), value, "has a key it does not know, before this value\(KeySuggestion.hint(for: key, among: known)); known keys here: \(known.joined(separator: ", "))")
                continue
            }
            // The parser keeps a key given twice (JSONParser's keepingDuplicateKeys) so that the file's other
            // problems are reported with it; the first is the one read.
            if let first = firsts[key] {
                let at = first.position
                problem("\(path()).\(key)", value, "is given twice in one object (its first value is at line \(at.line), column \(at.column), and is the one read); give each key once")
            } else {
                firsts[key] = value
            }
        }
        for key in required where node[key] == nil {
            problem("\(path()).\(key)", node, "is required")
        }
        return node
    }

    mutating func string(_ node: JSONNode?, _ path: @autoclosure () -> String, maxLength: Int = 200, allowEmpty: Bool = false) -> String? {
        guard let node else { return nil }
        guard let text = node.string else {
            problem(path(), node, "must be a string, not \(node.kind)")
            return nil
        }
        // Blank: only spaces and tabs (what `.whitespaces` trims), checked without Foundation's copy of the string.
        if !allowEmpty && text.unicodeScalars.allSatisfy({ $0 == "\t" || $0 == " " || (!$0.isASCII && $0.properties.generalCategory == .spaceSeparator) }) {
            problem(path(), node, "must not be empty")
            return nil
        }
        // Code points, as JSON Schema's maxLength counts (docs/scenario.schema.json): counted as characters, "Z" and
        // 300,000 combining marks (600 KB) passed a limit of 64.
        if text.utf8.count > maxLength && text.unicodeScalars.count > maxLength {
            problem(path(), node, "is longer than \(maxLength) characters")
            return nil
        }
        if text.unicodeScalars.contains(where: \.isControlCharacter) {
            problem(path(), node, "contains a control character")
            return nil
        }
        // Bidirectional overrides and isolates draw text in another order than it is held ("Trojan Source"): a user
        // name with U+202E showed as another name in every list.
        if let bidi = text.unicodeScalars.first(where: { (0x202A...0x202E).contains($0.value) || (0x2066...0x2069).contains($0.value) }) {
            problem(path(), node, "contains a bidirectional control character (U+\(String(bidi.value, radix: 16, uppercase: true))), which draws the text in another order than it holds")
            return nil
        }
        return text
    }

    /// A secret: never quoted back in a message. `maxBytes`, and `why` it is that.
    mutating func secret(_ node: JSONNode?, _ path: @autoclosure () -> String, maxBytes: Int = 256, why: String = "") -> Secret? {
        guard let node else { return nil }
        guard let text = node.string else {
            problem(path(), node, "must be a string, not \(node.kind)")
            return nil
        }
        if text.isEmpty {
            problem(path(), node, "must not be empty")
            return nil
        }
        if text == ScenarioFile.secretPlaceholder {
            problem(path(), node, "is the \(ScenarioFile.secretPlaceholder) placeholder that `scenario show` prints; put the real value")
            return nil
        }
        // No control character, C1 included: no front end can type one (the terminal's fields and plain mode drop
        // or refuse them, and the answers refuse them), so a user given one could never sign in.
        if text.utf8.count > maxBytes || text.unicodeScalars.contains(where: \.isControlCharacter) {
            problem(path(), node, "must be at most \(maxBytes) bytes, without control characters\(why)")
            return nil
        }
        return Secret(text)
    }

    mutating func bool(_ node: JSONNode?, _ path: @autoclosure () -> String) -> Bool? {
        guard let node else { return nil }
        guard let flag = node.bool else {
            problem(path(), node, "must be true or false, not \(node.kind)")
            return nil
        }
        return flag
    }

    mutating func integer(_ node: JSONNode?, _ path: @autoclosure () -> String, _ range: ClosedRange<Int>) -> Int? {
        guard let node else { return nil }
        guard let number = node.integer else {
            problem(path(), node, node.integerProblem(range))
            return nil
        }
        guard range.contains(number) else {
            problem(path(), node, "must be from \(range.lowerBound) to \(range.upperBound)")
            return nil
        }
        return number
    }

    mutating func number(_ node: JSONNode?, _ path: @autoclosure () -> String, _ range: ClosedRange<Double>) -> Double? {
        guard let node else { return nil }
        guard let number = node.number else {
            problem(path(), node, "must be a number, not \(node.kind)")
            return nil
        }
        guard range.contains(number) else {
            problem(path(), node, "must be from \(Self.show(range.lowerBound)) to \(Self.show(range.upperBound))")
            return nil
        }
        return number
    }

    static func show(_ number: Double) -> String {
        number == number.rounded() ? String(Int(number)) : String(number)
    }

    mutating func array(_ node: JSONNode?, _ path: @autoclosure () -> String, maxCount: Int) -> [JSONNode]? {
        guard let node else { return nil }
        guard let items = node.array else {
            problem(path(), node, "must be an array, not \(node.kind)")
            return nil
        }
        // Its entries are read all the same: `scenario check` reports their problems with this one (a password
        // given as a number in a list of 1,001 users went unsaid until the list was cut).
        if items.count > maxCount { problem(path(), node, "has more than \(maxCount) entries") }
        return items
    }

    // MARK: The scenario

    mutating func scenario(_ root: JSONNode) -> Scenario? {
        guard let top = object(root, "$", known: ["$schema", "scenario", "name", "identityProvider", "app", "payments", "network", "faults"],
                               required: ["scenario"]) else { return nil }
        if let version = top["scenario"] {
            if version.integer != ScenarioFile.formatVersion {
                // 1.0 or "1" is the version written another way (a schema's const takes 1.0): said so.
                problem("$.scenario", version, "must be \(ScenarioFile.formatVersion) (the format version this idp-tui reads)"
                    + (version.kind == "a string" || version.kind == "a number" && version.integer == nil ? ", written as the whole number \(ScenarioFile.formatVersion)" : ""))
            }
        }
        _ = string(top["$schema"], "$.$schema", maxLength: 500)
        let name = string(top["name"], "$.name", maxLength: 80) ?? "scenario"
        // Left out, the demo's, as every other part left out is the demo's: a file of a timer or a fault alone is the demo
        // with it (a library user's test had to copy the demo's users to shorten the request timeout).
        let idp = top["identityProvider"].map { identityProvider($0) } ?? .demo()
        var appTenant = idp?.tenants.first?.id
        if let app = top["app"], let members = object(app, "$.app", known: ["tenant"]) {
            if let tenant = string(members["tenant"], "$.app.tenant", maxLength: 64) {
                // Not when a tenant could not be read (the list refused whole or empty, a tenant or its id refused): the
                // tenant named may be that one. A problem inside a tenant that was read (an unknown key, a user
                // refused) leaves it in the list.
                if let idp, !tenantRefused, !idp.tenants.isEmpty, !idp.tenants.contains(where: { $0.id == tenant }) {
                    problem("$.app.tenant", members["tenant"], "names no tenant of the identity provider (tenants: \(idp.tenants.map(\.id).joined(separator: ", ")))")
                }
                appTenant = tenant
            }
        }
        var cards = CardCatalog.defaults
        var policy = ChallengePolicy()
        var timers = ThreeDSTimers()
        var bridgeReadyTimeout: Duration?
        if let payments = top["payments"] { (cards, policy, timers, bridgeReadyTimeout) = self.payments(payments) }
        var (latency, timeout) = (Duration.zero, FaultSwitchboard.requestTimeout)
        if let network = top["network"], let members = object(network, "$.network", known: ["latencyMs", "requestTimeoutSeconds"]) {
            if let ms = integer(members["latencyMs"], "$.network.latencyMs", 0...60_000) { latency = .milliseconds(ms) }
            if let seconds = integer(members["requestTimeoutSeconds"], "$.network.requestTimeoutSeconds", 1...600) { timeout = .seconds(seconds) }
        }
        var identityFaults = IdentityFaults()
        var bridgeFaults = BridgeFaults()
        if let faults = top["faults"] { (identityFaults, bridgeFaults) = self.faults(faults, "$.faults") }
        guard let idp, let appTenant else { return nil }
        return Scenario(name: name, identityProvider: idp, appTenant: appTenant, cards: cards, challengePolicy: policy,
                        threeDSTimers: timers, networkLatency: latency, requestTimeout: timeout, bridgeReadyTimeout: bridgeReadyTimeout, identityFaults: identityFaults, bridgeFaults: bridgeFaults)
    }

    mutating func identityProvider(_ node: JSONNode) -> IdentityProviderConfiguration? {
        let path = "$.identityProvider"
        guard let members = object(node, path, known: ["url", "tenants", "lockout"]) else { return nil }
        var url = IdentityProviderConfiguration.defaultBaseURL
        if let text = string(members["url"], "\(path).url", maxLength: 300) {
            // A scheme in any case, as URLs take it (HTTPS:// was refused).
            if let parsed = URL(string: text), ["https", "http"].contains(parsed.scheme?.lowercased() ?? ""), parsed.host?.isEmpty == false {
                // A password in the URL would be printed wherever the URL is (scenario show, the events); the
                // simulated IdP takes none.
                if parsed.user != nil || parsed.password != nil {
                    problem("\(path).url", members["url"], "must not carry a user name or password (user:password@)")
                } else if let port = parsed.port, !(1...65535).contains(port) {
                    problem("\(path).url", members["url"], "has port \(port): a port is 1 to 65535")
                } else {
                    url = text
                }
            } else {
                problem("\(path).url", members["url"], "must be an http(s) URL")
            }
        }
        var lockout = LockoutPolicy()
        if let node = members["lockout"], let policy = object(node, "\(path).lockout", known: ["maxFailures", "lockSeconds"]) {
            if let max = integer(policy["maxFailures"], "\(path).lockout.maxFailures", 1...100) { lockout.maxFailures = max }
            if let seconds = integer(policy["lockSeconds"], "\(path).lockout.lockSeconds", 1...31_536_000) {
                lockout.lockDuration = .seconds(seconds)
            }
        }
        // Left out, the tenants are the demo's, as every part left out is: a file that sets only the lockout or the
        // URL had to copy the demo's users, whose secrets `scenario show` does not print.
        guard members["tenants"] != nil else {
            return IdentityProviderConfiguration(baseURL: url, tenants: IdentityProviderConfiguration.demo().tenants, lockout: lockout)
        }
        var tenants: [TenantConfiguration] = []
        tenantRefused = true
        if let list = array(members["tenants"], "\(path).tenants", maxCount: 100) {
            tenantRefused = false
            if list.isEmpty { problem("\(path).tenants", members["tenants"], "needs at least one tenant") }
            var ids: Set<String> = []
            for (index, item) in list.enumerated() {
                let tenantPath = "\(path).tenants[\(index)]"
                guard let tenant = tenant(item, tenantPath, index: index) else {
                    tenantRefused = true
                    continue
                }
                if !ids.insert(tenant.id).inserted {
                    problem("\(tenantPath).id", item["id"], "the tenant \"\(tenant.id)\" is listed twice")
                }
                tenants.append(tenant)
            }
        }
        return IdentityProviderConfiguration(baseURL: url, tenants: tenants, lockout: lockout)
    }

    mutating func tenant(_ node: JSONNode, _ path: @autoclosure () -> String, index: Int) -> TenantConfiguration? {
        guard let members = object(node, path(), known: ["id", "hashedPins", "usernameFirst", "users"], required: ["id", "users"]) else { return nil }
        let id = string(members["id"], "\(path()).id", maxLength: 64)
        if let id, !id.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) }) {
            problem("\(path()).id", members["id"], "may hold only letters, digits, - _ and .")
        }
        let (hashed, first) = (bool(members["hashedPins"], "\(path()).hashedPins") ?? false, bool(members["usernameFirst"], "\(path()).usernameFirst") ?? false)
        if let (list, position) = deferred[index], let node = members["users"], node.array?.isEmpty == true, node.position == position {
            deferred[index] = nil
            guard let id else { return nil }
            let source = source
            return TenantConfiguration(id: id, userCount: list.count, expectsHashedPins: hashed, usernameFirst: first) {
                Self.users(checkedAlready: Array(source[list.range]))
            }
        }
        var users: [UserConfiguration] = []
        if let list = array(members["users"], "\(path()).users", maxCount: 1000) {
            var names: Set<String> = []
            names.reserveCapacity(list.count)
            users.reserveCapacity(list.count)
            for (index, item) in list.enumerated() {
                if let user = user(item, "\(path()).users[\(index)]", names: &names) { users.append(user) }
            }
        }
        guard let id else { return nil }
        return TenantConfiguration(id: id, users: users, expectsHashedPins: hashed, usernameFirst: first)
    }

    /// The users of a list ``DeferredUsers`` checked: made as any other list is, and finding nothing wrong.
    static func users(checkedAlready text: [UInt8]) -> [UserConfiguration] {
        var reader = ScenarioReader()
        var names: Set<String> = []
        let users = ((try? JSONParser.parse(text))?.array ?? []).compactMap { reader.user($0, "$", names: &names) }
        assert(reader.problems.isEmpty && !users.isEmpty, "a users list DeferredUsers accepted has problems: \(reader.problems)")
        return users
    }

    /// A tenant's user. `names`: the tenant's user names read so far; a name listed twice is a problem even when
    /// something else is wrong with either user (`scenario check` reports every problem at once).
    mutating func user(_ node: JSONNode, _ path: @autoclosure () -> String, names: inout Set<String>) -> UserConfiguration? {
        guard let members = object(node, path(), known: ["username", "password", "activationCode", "activationCodeValidDays"],
                                   required: ["username", "password"]) else { return nil }
        let username = name(members["username"], "\(path()).username", maxLength: 64)
        let password = secret(members["password"], "\(path()).password")
        let code = secret(members["activationCode"], "\(path()).activationCode")
        let days = number(members["activationCodeValidDays"], "\(path()).activationCodeValidDays", -3650...3650)
        if days != nil && members["activationCode"] == nil {
            problem("\(path()).activationCodeValidDays", members["activationCodeValidDays"], "applies only with an activationCode")
        }
        if let username, !names.insert(username).inserted {
            problem("\(path()).username", members["username"], "the user \"\(username)\" is listed twice in this tenant")
        }
        guard let username, let password else { return nil }
        let activation = code.map { code in
            // Rounded, not truncated: what `scenario show` writes (whole seconds over 86,400) is seldom exact in
            // binary, and 11 s read back as 10.999 s, shown as 10.
            ActivationCodeConfiguration(code: code, validFor: .milliseconds(Int64(((days ?? 30) * 86_400_000).rounded())))
        }
        return UserConfiguration(username: username, password: password, activationCode: activation)
    }
}
