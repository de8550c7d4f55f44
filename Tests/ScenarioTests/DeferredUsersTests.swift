import Foundation
import IdentityProvider
import JSONText
import Scenario
import Testing

/// A scenario's users lists are checked at start without making a value per user, and made at their tenant's first
/// use (issue 16, point 5). What a file reads as, or what is wrong with it, must not depend on that: every file
/// here is read both ways and must come out the same.
@Suite struct DeferredUsersTests {
    static let valid = #"{"username": "alice", "password": "pw", "activationCode": "123456", "activationCodeValidDays": 7}, {"username": "bob", "password": "builder"}"#

    /// Two tenants: `first`'s users, then `second`'s.
    static func file(_ second: String, first: String = valid, after: String = "") -> String {
        #"{"scenario": 1, "identityProvider": {"tenants": [{"id": "demo", "users": [\#(first)]}, {"id": "other", "hashedPins": true, "users": [\#(second)]}]}\#(after)}"#
    }

    /// What a read comes out as: the problems, or the scenario as `scenario show` writes it with every user's secrets.
    static func outcome(_ bytes: [UInt8], deferring: Bool) -> String {
        switch ScenarioFile.read(bytes, deferringUsers: deferring) {
        case .failure(let failure):
            return failure.problems.map(\.description).joined(separator: "\n")
        case .success(let scenario):
            let secrets = scenario.identityProvider.tenants.flatMap(\.users).map {
                "\($0.username) \($0.password.reveal()) \($0.activationCode.map { "\($0.code.reveal()) \($0.validFor)" } ?? "-")"
            }
            return ScenarioFile.json(scenario).text() + "\n" + secrets.joined(separator: "\n")
        }
    }

    static let name64 = String(repeating: "n", count: 64)
    static let manyUsers = (0..<1000).map { #"{"username": "u\#($0)", "password": "p"}"# }.joined(separator: ", ")

    /// Each a second tenant's users list: valid, with one thing wrong, or valid in a way only the reader takes.
    static let lists: [String] = [
        valid,
        #"{"username": "alice", "password": "a"}, {"username": "alice", "password": "b"}"#,
        #"{"username": "\#(name64)", "password": "p"}"#, #"{"username": "\#(name64)n", "password": "p"}"#,
        #"{"username": "   ", "password": "p"}"#, #"{"username": "", "password": "p"}"#,
        #"{"username": "al\u0069ce", "password": "p"}"#, #"{"username": "zoë", "password": "p"}"#,
        #"{"username": "a\tb", "password": "p"}"#, #"{"username": "a\u007fb", "password": "p"}"#,
        // Read eight bytes at a time: what ends or spoils a string, raw, past the first eight.
        #"{"username": "abcdefghijklmnopqrstuvwxyz0123456789", "password": "abcdefghijklmnopq"}"#,
        #"{"username": "abcdefghijk\#("\u{7F}")lm", "password": "p"}"#, #"{"username": "abcdefghijk\#("\t")lm", "password": "p"}"#,
        #"{"username": "abcdefghijk\#("\u{1F}")lm", "password": "p"}"#, #"{"username": "abcdefghijkélm", "password": "p"}"#,
        #"{"username": "abcdefghijk\"lm", "password": "p"}"#, #"{"username": "abcdefghijk\\lm", "password": "p"}"#,
        #"{"username": "a", "password": "abcdefghijklmno\#("\u{7F}")"}"#, #"{"username": "a", "password": "abcdefghijklmno\#("\u{80}")"}"#,
        #"{"username": "a", "password": ""}"#, #"{"username": "a", "password": "\#(ScenarioFile.secretPlaceholder)"}"#,
        #"{"username": "a", "password": "\#(String(repeating: "p", count: 256))"}"#,
        #"{"username": "a", "password": "\#(String(repeating: "p", count: 257))"}"#,
        #"{"username": "a", "password": "p", "activationCode": "1", "activationCodeValidDays": 3650}"#,
        #"{"username": "a", "password": "p", "activationCode": "1", "activationCodeValidDays": -3650}"#,
        #"{"username": "a", "password": "p", "activationCode": "1", "activationCodeValidDays": 3651}"#,
        #"{"username": "a", "password": "p", "activationCode": "1", "activationCodeValidDays": 1.5}"#,
        #"{"username": "a", "password": "p", "activationCode": "1", "activationCodeValidDays": 1e2}"#,
        #"{"username": "a", "password": "p", "activationCode": "1", "activationCodeValidDays": 01}"#,
        #"{"username": "a", "password": "p", "activationCode": "1", "activationCodeValidDays": -0}"#,
        #"{"username": "a", "password": "p", "activationCode": "1", "activationCodeValidDays": -}"#,
        #"{"username": "a", "password": "p", "activationCodeValidDays": 3}"#,
        #"{"username": "a", "password": "p", "pin": "1"}"#, #"{"username": "a", "password": "p", "password": "q"}"#,
        #"{"username": "a"}"#, #"{"password": "p"}"#, #"{}"#, #"{"username": 7, "password": "p"}"#, #"["a"]"#, "",
        #"{"username": "a", "password": "p"} {"username": "b", "password": "p"}"#,
        #"{"username": "a", "password": "p"},"#, #"{"username": "a", "password": "p""#,
        manyUsers, manyUsers + #", {"username": "last", "password": "p"}"#,
        // Keys and names are read eight bytes at a time: keys that share their first eight bytes with one, or stop
        // short of one; names of spaces around eight bytes long; a name listed twice that is longer than eight.
        #"{"usernameX": "a", "password": "p"}"#, #"{"username": "a", "passwordX": "p"}"#, #"{"usernam": "a", "password": "p"}"#,
        #"{"username": "a", "password": "p", "activati": "1"}"#, #"{"username": "a", "password": "p", "activationCod": "1"}"#,
        #"{"username": "a", "password": "p", "activationCodeX": "1"}"#, #"{"username": "a", "password": "p", "activationCodeV": 1}"#,
        #"{"username": "a", "password": "p", "activationCode": "1", "activationCodeValidDay": 1}"#,
        #"{"username": "a", "password": "p", "activationCode": "1", "activationCodeValidDaysX": 1}"#,
        // The same, the key's closing quote replaced: not JSON.
        #"{"usernameX: "a", "password": "p"}"#, #"{"username": "a", "passwordX: "p"}"#,
        #"{"username": "a", "password": "p", "activationCodeX: "1"}"#,
        #"{"username": "a", "password": "p", "activationCode": "1", "activationCodeValidDaysX: 1}"#,
        #"{"username": "        ", "password": "p"}"#, #"{"username": "         ", "password": "p"}"#,
        #"{"username": "                ", "password": "p"}"#,
        #"{"username": "abcdefghijk", "password": "p"}, {"username": "abcdefghijk", "password": "q"}"#,
        "\n  {\r\n \"username\": \"a\",\n\t\"password\": \"p\"\n  }\n",
    ]

    @Test(arguments: lists.indices)
    func aUsersListReadsTheSameEitherWay(_ index: Int) {
        for bytes in [Self.file(Self.lists[index]), Self.file(Self.valid, first: Self.lists[index])].map({ Array($0.utf8) }) {
            #expect(Self.outcome(bytes, deferring: true) == Self.outcome(bytes, deferring: false))
        }
    }

    /// Files whose users lists are fine but whose other parts are not, or whose lists sit where no users list is read.
    static let files: [String] = [
        file(valid, after: #", "cards": 7"#),
        file(valid, after: #", "cards": 7, "identityProvider": {}"#),
        file(valid) + "x",
        "\u{FEFF}" + file(valid, after: #", "faults": {"nope": true}"#),
        file(valid).replacingOccurrences(of: ", ", with: ",\r\n  ") + "\n",
        file(valid).replacingOccurrences(of: #""users""#, with: #""\u0075sers""#),
        file(valid).replacingOccurrences(of: #""id": "other""#, with: #""id": "zoë""#),
        file(valid).replacingOccurrences(of: #"{"id": "other""#, with: #"{"users": [], "id": "other""#),
        file(valid).replacingOccurrences(of: #""tenants""#, with: #""tenants": [], "more""#),
        #"{"scenario": 1, "identityProvider": {"tenants": [7, {"id": "t", "users": [\#(valid)]}]}}"#,
        #"{"scenario": 1, "x": {"identityProvider": {"tenants": [{"id": "t", "users": [\#(valid)]}]}}}"#,
        #"{"scenario": 1, "identityProvider": {"tenants": [{"id": "t", "users": [\#(valid)]}]}, "appTenant": "zoë"}"#,
        #"[{"scenario": 1, "identityProvider": {"tenants": [{"id": "t", "users": [\#(valid)]}]}}]"#,
    ]

    @Test(arguments: files.indices)
    func aFileReadsTheSameEitherWay(_ index: Int) {
        let bytes = Array(Self.files[index].utf8)
        #expect(Self.outcome(bytes, deferring: true) == Self.outcome(bytes, deferring: false))
    }

    /// The lists' bytes are known to be ASCII once checked, and the rest of the file's are checked as UTF-8: a byte
    /// that is not, before the lists, between them or after them, is found either way, at the same place.
    @Test(arguments: [#""scenario""#, #""demo""#, #""other""#, #""y""#])
    func aByteThatIsNotUTF8OutsideTheListsIsFoundEitherWay(_ before: String) throws {
        var bytes = Array(Self.file(Self.valid, after: #", "x": "y""#).utf8)
        let text = String(decoding: bytes, as: UTF8.self)
        let offset = try #require(text.range(of: before, options: .backwards)).lowerBound.utf16Offset(in: text) + 1
        bytes.insert(0xFF, at: offset)
        let outcome = Self.outcome(bytes, deferring: true)
        #expect(outcome.contains("not UTF-8"))
        #expect(outcome == Self.outcome(bytes, deferring: false))
    }

    @Test func theUsersAreMadeAtTheirTenantsFirstUse() throws {
        let scenario = try ScenarioFile.read(Array(Self.file(Self.manyUsers).utf8)).get()
        let tenants = scenario.identityProvider.tenants
        #expect(tenants.map(\.userCount) == [2, 1000])
        #expect(tenants.allSatisfy { !$0.usersAreLoaded })
        #expect(tenants[1].users.count == 1000 && tenants[1].users[999].username == "u999")
        #expect(tenants[1].usersAreLoaded && !tenants[0].usersAreLoaded)
    }

    /// Names are unique within a tenant, not across tenants: the same two users in two tenants take the quick way
    /// in both.
    @Test func theSameNamesInTwoTenantsTakeTheQuickWayInBoth() throws {
        let scenario = try ScenarioFile.read(Array(Self.file(Self.valid).utf8)).get()
        #expect(scenario.identityProvider.tenants.map(\.userCount) == [2, 2])
        #expect(scenario.identityProvider.tenants.allSatisfy { !$0.usersAreLoaded })
    }

    /// Names that differ only past their first eight bytes, or by a space, are different names, and keys in any
    /// order are keys: such lists take the quick way, not the reader's.
    @Test func namesThatDifferPastTheirFirstEightBytesTakeTheQuickWay() throws {
        let names = ["abcdefgh1", "abcdefgh2", "abcdefghijklmnop", "abcdefghijklmnoq", "a", " a", "a ", "        a", String(repeating: "x", count: 64)]
        let list = names.map { #"{"password": "p", "activationCodeValidDays": 1, "activationCode": "1", "username": "\#($0)"}"# }
        let scenario = try ScenarioFile.read(Array(Self.file(list.joined(separator: ",")).utf8)).get()
        #expect(scenario.identityProvider.tenants.map(\.userCount) == [2, names.count])
        #expect(scenario.identityProvider.tenants.allSatisfy { !$0.usersAreLoaded })
        #expect(scenario.identityProvider.tenants[1].users.map(\.username) == names)
    }

    /// The demo scenario written out and read back takes the quick way too (what `run` reads most often).
    @Test func theDefaultScenarioTakesTheQuickWay() throws {
        let text = ScenarioFile.json(.embeddedDefault).text().replacingOccurrences(of: "\"\(ScenarioFile.secretPlaceholder)\"", with: "\"x\"")
        let scenario = try ScenarioFile.read(Array(text.utf8)).get()
        #expect(scenario.identityProvider.tenants.allSatisfy { !$0.usersAreLoaded && $0.userCount > 0 })
    }
}
