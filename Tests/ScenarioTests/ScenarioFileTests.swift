import Foundation
import IdentityProvider
import JSONText
import Scenario
import ThreeDSecure
import Testing

/// The repository's docs folder.
let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("docs")

func read(_ text: String) -> Result<Scenario, ScenarioProblems> { ScenarioFile.read(Array(text.utf8)) }

func problems(_ text: String) -> [String] {
    if case .failure(let failure) = read(text) { return failure.problems.map(\.description) }
    return []
}

/// A minimal valid scenario with `extra` members added at the top level.
func minimal(_ extra: String = "", users: String = #"{"username": "alice", "password": "pw"}"#) -> String {
    """
    {"scenario": 1, "identityProvider": {"tenants": [{"id": "demo", "users": [\(users)]}]}\(extra.isEmpty ? "" : ", " + extra)}
    """
}

@Suite struct ScenarioFileTests {
    /// A length limit counts code points, as the schema's maxLength does: "Z" and 3,000 combining marks (one
    /// character) passed the user name's 64, and 300,000 of them made a 600 KB name.
    @Test func lengthLimitsCountCodePoints() {
        let marks = "Z" + String(repeating: "\u{301}", count: 3000)
        #expect(problems(minimal(users: #"{"username": ""# + marks + #"", "password": "pw"}"#)).contains { $0.contains("username") && $0.contains("is longer than 64") })
        #expect(problems(minimal(#""name": ""# + marks + #"""#)).contains { $0.contains("$.name") && $0.contains("is longer than 80") })
        // 64 code points of a two-byte letter are within the limit.
        #expect(problems(minimal(users: #"{"username": ""# + String(repeating: "é", count: 64) + #"", "password": "pw"}"#)).isEmpty)
    }

    @Test func theDefaultFileIsTheEmbeddedDefault() throws {
        let result = ScenarioFile.read(path: docs.appendingPathComponent("scenarios/default.json").path)
        let scenario = try result.get()
        #expect(ScenarioFile.json(scenario) == ScenarioFile.json(.embeddedDefault))
        let users = scenario.identityProvider.tenants[0].users
        #expect(users.map(\.username) == ["alice", "bob"])
        #expect(users[0].password.reveal() == "wonderland" && users[0].activationCode?.code.reveal() == "123456")
        #expect(users[1].password.reveal() == "builder" && users[1].activationCode?.code.reveal() == "654321")
        #expect(scenario.challengePolicy.oneTimeCode.reveal() == "1234")
        #expect(scenario.cards == CardCatalog.defaults)
        // Field for field, as the file says it is: it lacked two timers that `scenario show` prints, which reading
        // it with the defaults filled in did not notice.
        let file = try JSONParser.parse(Array(Data(contentsOf: docs.appendingPathComponent("scenarios/default.json"))))
        #expect(Self.paths(file).subtracting(["$.$schema"]) == Self.paths(ScenarioFile.json(.embeddedDefault)))
    }

    /// Every JSON path of a document's members (array items as `[]`).
    static func paths(_ node: JSONNode, _ path: String = "$") -> Set<String> {
        switch node.value {
        case .object(let members): return members.reduce(into: [path]) { $0.formUnion(paths($1.value, "\(path).\($1.key)")) }
        case .array(let items): return items.reduce(into: [path]) { $0.formUnion(paths($1, "\(path)[]")) }
        default: return [path]
        }
    }

    /// A file that leaves out the identity provider has the demo's, as a part left out is the demo's: a timer or a
    /// fault alone is the demo with it (a library user's test had to copy the demo's users to shorten the request
    /// timeout: "$.identityProvider: is required"). An app tenant it names must still be one of the demo's.
    @Test func aFileWithoutTheIdentityProviderHasTheDemos() throws {
        let scenario = try read(#"{"scenario": 1, "network": {"requestTimeoutSeconds": 2}}"#).get()
        #expect(scenario.requestTimeout == .seconds(2))
        #expect(scenario.appTenant == "demo")
        let demo = Scenario.embeddedDefault
        #expect(ScenarioFile.json(Scenario(name: demo.name, identityProvider: scenario.identityProvider, appTenant: "demo"))
                == ScenarioFile.json(demo))
        #expect(problems(#"{"scenario": 1, "app": {"tenant": "retail"}}"#)
                == ["line 1, column 35: $.app.tenant: names no tenant of the identity provider (tenants: demo)"])
        // The identity provider's lockout or URL alone: its tenants are the demo's ("tenants: is required").
        let locking = try read(#"{"scenario": 1, "identityProvider": {"lockout": {"maxFailures": 5}}}"#).get()
        #expect(locking.identityProvider.lockout.maxFailures == 5)
        #expect(locking.identityProvider.tenants.map(\.id) == ["demo"] && locking.identityProvider.tenants[0].users.map(\.username) == ["alice", "bob"])
    }

    /// `usernameFirst` is read (a boolean; anything else is said by its path) and shown back.
    @Test func aTenantsFormCanAskForTheUsernameFirst() throws {
        let file = #"{"scenario": 1, "identityProvider": {"tenants": [{"id": "demo", "usernameFirst": true, "users": [{"username": "alice", "password": "pw"}]}]}}"#
        let scenario = try read(file).get()
        #expect(scenario.identityProvider.tenants.map(\.usernameFirst) == [true])
        #expect(ScenarioFile.json(scenario).text().contains(#""usernameFirst": true"#))
        #expect(try read(minimal()).get().identityProvider.tenants.map(\.usernameFirst) == [false])
        let wrong = problems(file.replacingOccurrences(of: #""usernameFirst": true"#, with: #""usernameFirst": "yes""#))
        #expect(wrong.count == 1 && wrong.first?.contains("identityProvider.tenants[0].usernameFirst") == true, "\(wrong)")
    }

    @Test(arguments: ["default", "bank-qa", "faults"])
    func everyExampleIsValidAndShowsBackTheSame(_ name: String) throws {
        let scenario = try ScenarioFile.read(path: docs.appendingPathComponent("scenarios/\(name).json").path).get()
        let shown = ScenarioFile.json(scenario).text()
        // What show prints reads back to the same scenario, once its secrets are put back in.
        let placeholders = problems(shown)
        #expect(placeholders.allSatisfy { $0.contains("placeholder") })
        #expect(!shown.contains("wonderland") && !shown.contains("123456") && !shown.contains("correct horse"))
    }

    /// Found with fuzz-scenario's round-trip check (Fuzz/corpus/scenario/valid-days-fraction.json): a validity of a
    /// fraction of a day, as `scenario show` wrote it, read back a second shorter.
    @Test func aFractionOfADayShowsBackTheSame() throws {
        let file = minimal(users: #"{"username": "alice", "password": "pw", "activationCode": "1", "activationCodeValidDays": 0.000128}"#)
        let scenario = try read(file).get()
        #expect(scenario.identityProvider.tenants[0].users[0].activationCode?.validFor == .milliseconds(11_059))
        let shown = ScenarioFile.json(scenario).text()
        let filledIn = shown.replacingOccurrences(of: "\"\(ScenarioFile.secretPlaceholder)\"", with: "\"x\"")
        let again = try read(filledIn).get()
        #expect(again.identityProvider.tenants[0].users[0].activationCode?.validFor == .seconds(11))
        #expect(ScenarioFile.json(again).text() == shown)
    }

    /// A reason given that is wrong is said as that, once: it was also said to be missing ("a card that ends in N
    /// needs \"reason\""), and `run` showed only that first, wrong line.
    @Test func aWrongReasonIsNotAlsoAMissingOne() {
        for reason in [#""27""#, "1"] {
            let found = problems(minimal(#""payments": {"cards": [{"number": "4111111111111111", "frictionless": "N", "reason": "# + reason + "}]}"))
            #expect(found.count == 1 && found[0].contains("cards[0].reason: "), "\(found)")
        }
        #expect(problems(minimal(#""payments": {"cards": [{"number": "4111111111111111", "frictionless": "N"}]}"#)).contains { $0.contains("needs \"reason\"") })
    }

    /// A URL's scheme is read in any case, as URLs take it (`HTTPS://` was refused as not an http(s) URL).
    @Test func aURLsSchemeIsReadInAnyCase() {
        let upper = minimal().replacingOccurrences(of: #""identityProvider": {"#, with: #""identityProvider": {"url": "HTTPS://idp.example.test/auth", "#)
        #expect(upper != minimal())
        #expect(problems(upper).isEmpty, "\(problems(upper))")
        let ftp = minimal().replacingOccurrences(of: #""identityProvider": {"#, with: #""identityProvider": {"url": "ftp://idp.example.test/auth", "#)
        #expect(problems(ftp).contains { $0.contains("must be an http(s) URL") })
        // A port past 65535 is no port (it passed `scenario check`, and the events showed it).
        let port = minimal().replacingOccurrences(of: #""identityProvider": {"#, with: #""identityProvider": {"url": "https://idp.example.test:99999/auth", "#)
        #expect(problems(port).contains { $0.contains("has port 99999: a port is 1 to 65535") }, "\(problems(port))")
        let fine = minimal().replacingOccurrences(of: #""identityProvider": {"#, with: #""identityProvider": {"url": "https://idp.example.test:8443/auth", "#)
        #expect(problems(fine).isEmpty, "\(problems(fine))")
    }

    /// A URL with a password in it is refused, and the refusal does not repeat it: `scenario show` and the events
    /// would have printed it.
    @Test func aURLWithAUserOrPasswordIsRefusedWithoutRepeatingIt() {
        for userinfo in ["bob:hunter2@", "bob@"] {
            let text = minimal().replacingOccurrences(of: #""identityProvider": {"#, with: #""identityProvider": {"url": "https://\#(userinfo)idp.example.test", "#)
            #expect(text != minimal())
            let found = problems(text)
            #expect(found.count == 1 && found[0].contains("must not carry a user name or password"), "\(found)")
            #expect(!found.joined().contains("hunter2") && !found.joined().contains("bob"))
        }
    }

    @Test func theSchemaFileParsesAndNamesTheSameTopLevelKeys() throws {
        let bytes = try Array(Data(contentsOf: docs.appendingPathComponent("scenario.schema.json")))
        let schema = try JSONParser.parse(bytes)
        // The reader's limits a schema can say, said there too (an editor passed a URL the check refused).
        #expect(schema["properties"]?["identityProvider"]?["properties"]?["url"]?["maxLength"]?.integer == 300)
        let keys = schema["properties"]?.members?.map(\.key) ?? []
        #expect(keys == ["$schema", "scenario", "name", "identityProvider", "app", "payments", "network", "faults"])
        #expect(problems(minimal(#""frobnicate": 1"#)).first?.contains("known keys here: " + keys.joined(separator: ", ")) == true)
        // Every free string refuses what the check refuses, control characters and bidirectional controls, so that an
        // editor validating against the schema flags them too (it passed a NUL in a password, a tester).
        func freeStrings(_ node: JSONNode, _ path: String) -> [String] {
            var found: [String] = []
            // A pattern of its own (a tenant id's, a card number's) allows none of them either.
            if node["type"]?.string == "string", node["enum"] == nil, node["const"] == nil, node["pattern"] == nil {
                found.append(path)
            }
            for member in node.members ?? [] { found += freeStrings(member.value, path + "." + member.key) }
            for (index, element) in (node.array ?? []).enumerated() { found += freeStrings(element, path + "[\(index)]") }
            return found
        }
        #expect(freeStrings(schema, "$").isEmpty, "\(freeStrings(schema, "$"))")
        // And the pattern refuses them, as an editor's validator reads it (ICU and ECMA-262 read \uXXXX alike).
        let pattern = try #require(schema["properties"]?["name"]?["pattern"]?.string)
        let regex = try NSRegularExpression(pattern: pattern)
        func matches(_ text: String) -> Bool { regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil }
        #expect(matches("bank QA — démo") && !matches("a\u{0}b") && !matches("al\u{202E}ice") && !matches("a\u{7F}") && !matches("tab\there"))
    }

    @Test func aScenarioSetsUsersCardsPolicyLatencyAndFaults() throws {
        let scenario = try ScenarioFile.read(path: docs.appendingPathComponent("scenarios/bank-qa.json").path).get()
        #expect(scenario.appTenant == "retail")
        #expect(scenario.identityProvider.lockout == LockoutPolicy(maxFailures: 5, lockDuration: .seconds(900)))
        #expect(scenario.identityProvider.tenants[1].expectsHashedPins)
        #expect(scenario.identityProvider.tenants[0].users[1].activationCode?.validFor == .seconds(-86_400))
        #expect(scenario.challengePolicy.attempts == 2 && scenario.challengePolicy.resends == 1)
        #expect(scenario.challengePolicy.timeout == .seconds(120))
        #expect(scenario.networkLatency == .milliseconds(150))
        #expect(scenario.cards.count == CardCatalog.defaults.count + 4)
        let rejected = try #require(scenario.cards.first { $0.number == "5555555555554444" })
        #expect(rejected.scenario == .frictionless(.rejected, reason: .stolenCard))
        let faults = try ScenarioFile.read(path: docs.appendingPathComponent("scenarios/faults.json").path).get()
        #expect(faults.identityFaults.serverError && faults.identityFaults.addedLatency == .milliseconds(800))
        #expect(faults.bridgeFaults.lostAcks == 2)
    }

    static let badFiles: [(String, String)] = [
        // A truncated file says so, and where what it left open began (it said a key was expected).
        ("{", "line 1, column 2: $: not valid JSON: the object that opens at line 1, column 1 is not closed: the text ends"),
        ("{\n  \"users\": [1,\n", "line 3, column 1: $: not valid JSON: the text ends where a value should be"),
        ("{\n  \"users\": [1", "line 2, column 14: $: not valid JSON: the array that opens at line 2, column 12 is not closed: the text ends"),
        (#"{"a": 1 x"#, "$: not valid JSON: expected , or } after a member"),
        // JSON, with a number no double holds: said as it is, not as invalid JSON.
        ("{\"scenario\": 1e400}", "line 1, column 14: $: a number beyond what a double holds (about 1.8e308)"),
        ("[]", "line 1, column 1: $: must be an object, not an array"),
        (#"{"identityProvider": {"tenants": []}}"#, "$.scenario: is required"),
        (minimal().replacingOccurrences(of: #""scenario": 1"#, with: #""scenario": 2"#), "$.scenario: must be 1"),
        (minimal().replacingOccurrences(of: #""scenario": 1"#, with: #""scenario": 1.0"#),
         "$.scenario: must be 1 (the format version this idp-tui reads), written as the whole number 1"),
        (minimal(#""name": 7"#), "$.name: must be a string, not a number"),
        (minimal(users: #"{"username": "alice", "password": 123456}"#),
         "line 1, column 109: $.identityProvider.tenants[0].users[0].password: must be a string, not a number"),
        (minimal(users: #"{"username": "alice"}"#), "$.identityProvider.tenants[0].users[0].password: is required"),
        (minimal(users: #"{"username": "alice", "password": "pw"}, {"username": "alice", "password": "x"}"#),
         #"$.identityProvider.tenants[0].users[1].username: the user "alice" is listed twice in this tenant"#),
        (minimal(users: #"{"username": "alice", "password": "<secret>"}"#), "the <secret> placeholder"),
        (minimal(#""payments": {"challenge": {"oneTimeCode": "resend"}}"#),
         "$.payments.challenge.oneTimeCode: is the word plain mode takes to ask for a new code: choose another code"),
        // Plain mode takes the word in any case.
        (minimal(#""payments": {"challenge": {"oneTimeCode": "ReSend"}}"#),
         "$.payments.challenge.oneTimeCode: is the word plain mode takes to ask for a new code: choose another code"),
        // Plain mode trims a typed code's spaces, a no-break space's too.
        (minimal(#""payments": {"challenge": {"oneTimeCode": " 1234"}}"#),
         "$.payments.challenge.oneTimeCode: begins or ends with a space, which plain mode trims from a typed code: choose one without spaces at its ends"),
        (minimal(#""payments": {"challenge": {"oneTimeCode": "1234\u00A0"}}"#),
         "$.payments.challenge.oneTimeCode: begins or ends with a space, which plain mode trims from a typed code: choose one without spaces at its ends"),
        // A code the challenge screen and the answers' otp (16 bytes) could never give.
        (minimal(#""payments": {"challenge": {"oneTimeCode": "ABCDEFGHIJKLMNOPQ"}}"#),
         "$.payments.challenge.oneTimeCode: must be at most 16 bytes, without control characters (the challenge screen's code and the answers' otp take at most 16)"),
        (minimal(users: #"{"username": "alice", "password": "pw", "activationCodeValidDays": 3}"#), "applies only with an activationCode"),
        (minimal(#""app": {"tenant": "retail"}"#), #"$.app.tenant: names no tenant of the identity provider (tenants: demo)"#),
        (#"{"scenario": 1, "identityProvider": {"tenants": [{"id": "a b", "users": []}]}}"#, "may hold only letters, digits"),
        (#"{"scenario": 1, "identityProvider": {"url": "ftp://x", "tenants": [{"id": "a", "users": []}]}}"#, "$.identityProvider.url: must be an http(s) URL"),
        (#"{"scenario": 1, "identityProvider": {"lockout": {"maxFailures": 0}, "tenants": [{"id": "a", "users": []}]}}"#,
         "$.identityProvider.lockout.maxFailures: must be from 1 to 100"),
        (minimal(#""payments": {"cards": [{"number": "4000000000002502", "frictionless": "Y"}]}"#), "$.payments.cards[0].number: the card number fails the Luhn check"),
        (minimal(#""payments": {"cards": [{"number": "4111111111111111"}]}"#), "needs \"frictionless\" (the ARes transStatus), \"challenge\" (its UI type) or \"lookup\""),
        (minimal(#""payments": {"cards": [{"number": "4111111111111111", "lookup": "sometimes"}]}"#),
         "$.payments.cards[0].lookup: must be one of unavailable, error, timeout, bypassed"),
        (minimal(#""payments": {"cards": [{"number": "4111111111111111", "lookup": "error", "reason": "01"}]}"#),
         "$.payments.cards[0].reason: does not apply to a card that ends at lookup"),
        (minimal(#""payments": {"timers": {"firstCReqSeconds": 0}}"#), "$.payments.timers.firstCReqSeconds: must be from 1 to 600"),
        (minimal(#""payments": {"cards": [{"number": "4111111111111111", "frictionless": "C"}]}"#), "must be one letter, the ARes transStatus: Y, A, N, U or R"),
        (minimal(#""payments": {"cards": [{"number": "4111111111111111", "frictionless": "Y", "challenge": "text"}]}"#), "a card is frictionless, challenged or ends at lookup: one of them"),
        (minimal(#""payments": {"cards": [{"number": "4111111111111111", "challenge": "voice"}]}"#), "must be one of html, multi-select"),
        // A value in the wrong case is named, as a misspelt key is.
        (minimal(#""payments": {"cards": [{"number": "4111111111111111", "challenge": "Text"}]}"#), "(did you mean text?)"),
        (minimal(#""payments": {"cards": [{"number": "4111111111111111", "frictionless": "y"}]}"#), "must be one letter, the ARes transStatus: Y, A, N, U or R (did you mean Y?)"),
        (minimal(#""payments": {"cards": [{"number": "4111111111111111", "lookup": "Timeout"}]}"#), "(did you mean timeout?)"),
        (minimal(#""payments": {"cards": [{"number": "4111111111111111", "challenge": "text", "final": "n", "reason": "01"}]}"#),
         "or error (the ACS fails) (did you mean N?)"),
        (minimal(#""payments": {"cards": [{"number": "4111111111111111", "challenge": "single-select", "options": ["a", "b"], "correct": [3]}]}"#),
         "$.payments.cards[0].correct[0]: must be from 1 to 2"),
        (minimal(#""payments": {"cards": [{"number": "4111111111111111", "challenge": "single-select", "options": ["a"]}]}"#), "needs at least two options"),
        (minimal(#""payments": {"cards": [{"number": "4111111111111111", "frictionless": "N", "reason": "99"}]}"#), "transStatusReason code from 01 to 26"),
        (minimal(#""payments": {"cards": [{"number": "4111111111111111", "frictionless": "Y"}, {"number": "4111 1111 1111 1111", "frictionless": "A"}]}"#),
         "$.payments.cards[1].number: this card number is listed twice"),
        (minimal(#""payments": {"challenge": {"attempts": 2.5}}"#), "$.payments.challenge.attempts: must be a whole number, not a fraction"),
        (minimal(#""network": {"latencyMs": -1}"#), "$.network.latencyMs: must be from 0 to 60000"),
        (minimal(#""faults": {"serverError": "yes"}"#), "$.faults.serverError: must be true or false, not a string"),
        (minimal(#""faults": {"bridge": {"loseAcks": 1000}}"#), "$.faults.bridge.loseAcks: must be from 0 to 100"),
        (minimal(#""faults": {"gremlins": true}"#), "$.faults: has a key it does not know, before this value; known keys here:"),
        (minimal(#""faults": {"serverEror": true}"#), #"$.faults: has a key it does not know, before this value; did you mean "serverError"?; known keys here:"#),
        (minimal(#""app": {"tenant": "demo\u009b31m"}"#), "$.app.tenant: contains a control character"),
        // A name drawn in another order than it is held ("Trojan Source"): "alice" with U+202E shows as another name.
        (minimal(users: #"{"username": "\u202Eecila", "password": "pw"}"#),
         "$.identityProvider.tenants[0].users[0].username: contains a bidirectional control character (U+202E)"),
        // Invisible characters: "ali\u200Bce" and "alice" showed alike in every list.
        (minimal(users: #"{"username": "ali\u200Bce", "password": "pw"}"#),
         "$.identityProvider.tenants[0].users[0].username: contains an invisible formatting character (U+200B)"),
        (minimal(users: #"{"username": "ali\u00ADce", "password": "pw"}"#), "contains an invisible formatting character (U+00AD)"),
        // A word from a list is told the list and the word meant, whatever the mistake ("Yes" was told it is
        // longer than 1 character; "timout", "tex" and "HTTP500" were told no word).
        (minimal(#""payments": {"cards": [{"number": "4111111111111111", "frictionless": "Yes"}]}"#),
         "$.payments.cards[0].frictionless: must be one letter, the ARes transStatus: Y, A, N, U or R"),
        (minimal(#""payments": {"cards": [{"number": "4111111111111111", "lookup": "timout"}]}"#), "(did you mean timeout?)"),
        (minimal(#""payments": {"cards": [{"number": "4111111111111111", "challenge": "tex"}]}"#), "(did you mean text?)"),
        (minimal(#""faults": {"threeDS": {"acs": "HTTP500"}}"#),
         "$.faults.threeDS.acs: must be one of unreachable, slow, timeout, erro, http500, malformed, or null (it answers normally) (did you mean http500?)"),
    ]

    /// A name or number listed twice is reported with whatever else is wrong with either entry, not once that is
    /// put right: `scenario check` reports every problem at once.
    @Test func aDuplicateIsReportedBesideTheOtherProblemsOfItsEntries() {
        let users = problems(minimal(users: #"{"username": "alice", "password": 5}, {"username": "alice", "password": "b"}"#))
        #expect(users.contains { $0.contains("users[0].password: must be a string, not a number") }, "\(users)")
        #expect(users.contains { $0.contains(#"users[1].username: the user "alice" is listed twice in this tenant"#) }, "\(users)")
        let cards = problems(minimal(#""payments": {"cards": [{"number": "4111111111111111", "frictionless": "Y"}, {"number": "4111111111111111", "frictionless": "Q"}]}"#))
        #expect(cards.contains { $0.contains("cards[1].frictionless: must be one letter, the ARes transStatus: Y, A, N, U or R") }, "\(cards)")
        #expect(cards.contains { $0.contains("cards[1].number: this card number is listed twice") }, "\(cards)")
    }

    /// A list over its cap is one problem, and its entries are checked all the same (a password given as a number
    /// among 1,001 users went unsaid until the list was cut to 1,000).
    @Test func aListOverItsCapHasItsEntriesChecked() {
        let users = (0..<1001).map { "{\"username\": \"u\($0)\", \"password\": " + ($0 == 7 ? "5" : "\"pw\"") + "}" }
        let found = problems(minimal(users: users.joined(separator: ", ")))
        #expect(found.contains { $0.contains("$.identityProvider.tenants[0].users: has more than 1000 entries") }, "\(found)")
        #expect(found.contains { $0.contains("users[7].password: must be a string, not a number") }, "\(found)")
        #expect(found.count == 2, "\(found)")
        // A select card's nine options: the right answers are judged against the eight a list may have.
        let options = (1...9).map { "\"option \($0)\"" }.joined(separator: ", ")
        let card = #"{"number": "4000000000002925", "challenge": "single-select", "prompt": "Pick", "options": ["# + options + #"], "correct": [9]}"#
        let select = problems(minimal(#""payments": {"cards": ["# + card + "]}"))
        #expect(select.contains { $0.hasSuffix("$.payments.cards[0].options: has more than 8 entries") }, "\(select)")
        #expect(select.contains { $0.hasSuffix("$.payments.cards[0].correct[0]: must be from 1 to 8") }, "\(select)")
    }

    /// A refused `final` is the card's one problem: its reason was then judged against Y, "a transStatusReason goes
    /// with N, U or R, not with Y", which contradicted the author's R.
    @Test func aRefusedFinalIsNotFollowedByAReasonProblem() {
        let found = problems(minimal(#""payments": {"cards": [{"number": "4111111111111111", "challenge": "text", "final": "R", "reason": "01"}]}"#))
        #expect(found.count == 1 && found.first?.contains("cards[0].final: must be Y, N or U") == true, "\(found)")
    }

    @Test(arguments: 0..<badFiles.count)
    func badFilesAreReportedWithTheirPath(_ index: Int) {
        let (text, expected) = Self.badFiles[index]
        let found = problems(text)
        #expect(found.contains { $0.contains(expected) }, "\(found)")
    }

    /// A tenants list refused whole (over 100, or empty), or a tenant refused, is the one problem: the app's tenant is
    /// not then said to name no tenant, with a list of the tenants read (empty, or without the one refused).
    @Test func aTenantRefusedIsNotAlsoAnUnknownAppTenant() {
        let many = (0...100).map { #"{"id": "t\#($0)", "users": []}"# }.joined(separator: ", ")
        let tooMany = problems(#"{"scenario": 1, "identityProvider": {"tenants": [\#(many)]}, "app": {"tenant": "t5"}}"#)
        #expect(tooMany.count == 1 && tooMany[0].contains("$.identityProvider.tenants: "), "\(tooMany)")
        let refused = problems(#"{"scenario": 1, "identityProvider": {"tenants": [{"id": "a", "users": []}, {"id": "b", "users": 7}]}, "app": {"tenant": "b"}}"#)
        #expect(refused.count == 1 && refused[0].contains("$.identityProvider.tenants[1].users: must be an array"), "\(refused)")
        let badId = problems(#"{"scenario": 1, "identityProvider": {"tenants": [{"id": "a", "users": []}, {"id": "b c", "users": []}]}, "app": {"tenant": "b c"}}"#)
        #expect(badId.count == 1 && badId[0].contains("$.identityProvider.tenants[1].id: may hold only"), "\(badId)")
        // No tenant at all is the one problem (it went on "names no tenant … (tenants: )").
        let none = problems(#"{"scenario": 1, "identityProvider": {"tenants": []}, "app": {"tenant": "demo"}}"#)
        #expect(none.count == 1 && none[0].contains("$.identityProvider.tenants: needs at least one tenant"), "\(none)")
        // A problem inside a tenant read keeps the check: both are said.
        let both = problems(#"{"scenario": 1, "identityProvider": {"tenants": [{"id": "a", "users": 7}]}, "app": {"tenant": "z"}}"#)
        #expect(both.count == 2 && both[1].contains("$.app.tenant: names no tenant of the identity provider (tenants: a)"), "\(both)")
        // A problem whose path ends in "]" (a tenant's unknown key, a user refused) is inside a tenant read too.
        for inside in [#"{"id": "a", "users": [], "extra": 1}"#, #"{"id": "a", "users": [7]}"#,
                       #"{"id": "a", "users": [{"username": "x", "password": "y", "pasword": 1}]}"#] {
            let found = problems(#"{"scenario": 1, "identityProvider": {"tenants": [\#(inside)]}, "app": {"tenant": "z"}}"#)
            #expect(found.count == 2 && found.last?.contains("$.app.tenant: names no tenant of the identity provider (tenants: a)") == true,
                    "\(inside): \(found)")
        }
    }

    /// A whole number written with an exponent (or too long for an Int) is no fraction: the message says what is wrong.
    @Test(arguments: [
        (#""faults": {"addedLatencyMs": 1e9}"#, "$.faults.addedLatencyMs: must be from 0 to 60000"),
        (#""faults": {"addedLatencyMs": 99999999999999999999}"#, "$.faults.addedLatencyMs: must be from 0 to 60000"),
        (#""faults": {"clockSkewDays": -1E9}"#, "$.faults.clockSkewDays: must be from -3650 to 3650"),
        (#""faults": {"bridge": {"loseAcks": 1e9}}"#, "$.faults.bridge.loseAcks: must be from 0 to 100"),
        (#""network": {"latencyMs": 1.5e9}"#, "$.network.latencyMs: must be from 0 to 60000"),
        (#""faults": {"addedLatencyMs": 1e3}"#,
         "$.faults.addedLatencyMs: must be written as a whole number, without a decimal point or an exponent (from 0 to 60000)"),
        (#""faults": {"clockSkewDays": 2.0}"#,
         "$.faults.clockSkewDays: must be written as a whole number, without a decimal point or an exponent (from -3650 to 3650)"),
        (#""faults": {"addedLatencyMs": 2.5}"#, "$.faults.addedLatencyMs: must be a whole number, not a fraction"),
        (#""faults": {"addedLatencyMs": "5"}"#, "$.faults.addedLatencyMs: must be a whole number, not a string"),
    ])
    func aNumberThatIsNoIntegerIsToldWhatIsWrong(extra: String, expected: String) {
        let found = problems(minimal(extra))
        #expect(found.count == 1 && found.first?.hasSuffix(expected) == true, "\(found)")
    }

    @Test func everyProblemIsReportedNotOnlyTheFirst() {
        let found = problems(minimal(#""name": 1, "network": {"latencyMs": "x"}, "faults": {"serverError": 1}"#,
                                     users: #"{"username": "", "password": 5}"#))
        #expect(found.count == 5, "\(found)")
    }

    @Test func secretsNeverAppearInProblems() {
        let found = problems(minimal(users: #"{"username": "alice", "password": "hunter2-secret", "activationCode": "\u0007bell"}"#))
        #expect(!found.isEmpty)
        #expect(!found.joined().contains("hunter2") && !found.joined().contains("bell"))
    }
}
