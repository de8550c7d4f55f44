import Foundation
import JSONText
import Scenario
import Testing

/// A key given twice in a scenario file is one of its problems, reported with the others (it stopped the check:
/// "1 problem", at `$`, naming neither the key nor where it first was, the file's other mistakes unsaid).
@Suite struct ScenarioDuplicateKeyTests {
    @Test func aDuplicateKeyIsReportedWithTheFilesOtherProblems() {
        let text = """
            {
              "scenario": 1,
              "name": "a",
              "name": "b",
              "identityProvider": {"tenants": [{"id": "demo", "users": [{"username": "alice", "password": "pw"}]}]},
              "network": { "latencyMs": "x", "latencyMs": 5 },
              "faults": { "serverError": "yes" }
            }
            """
        let found = problems(text)
        #expect(found.contains("line 4, column 11: $.name: is given twice in one object (its first value is at line 3, column 11, and is the one read); give each key once"), "\(found)")
        #expect(found.contains { $0.hasPrefix("line 6, column 47: $.network.latencyMs: is given twice in one object (its first value is at line 6, column 29") }, "\(found)")
        #expect(found.contains("line 6, column 29: $.network.latencyMs: must be a whole number, not a string"), "\(found)")
        #expect(found.contains { $0.contains("$.faults.serverError: must be true or false") }, "\(found)")
        #expect(found.count == 4, "\(found)")
    }

    /// Every object of the format is read through the one function that reports a key given twice: a duplicate
    /// anywhere in the demo scenario (written out in full, secrets filled in) is refused, as the strict parser
    /// refused it before the check went on past it.
    @Test func aDuplicateKeyInAnyObjectIsRefused() throws {
        let shown = ScenarioFile.json(Scenario.embeddedDefault).text().replacingOccurrences(of: "\"\(ScenarioFile.secretPlaceholder)\"", with: "\"s3cret\"")
        let root = try JSONParser.parse(shown)
        guard case .success = ScenarioFile.read(Array(shown.utf8)) else {
            Issue.record("the filled-in demo is refused: \(problems(shown))")
            return
        }
        var objects = 0
        for (path, object) in Self.objects(in: root, at: "$") {
            guard let first = object.members?.first else { continue }
            objects += 1
            // The object's first member again, as its last: `{"a": 1, …, "a": 1}`.
            let doubled = Self.doubling(root, path, key: first.key, value: first.value).text()
            #expect(problems(doubled).contains { $0.contains("\(path).\(first.key): is given twice") },
                    "a duplicate \(first.key) in \(path) was taken: \(problems(doubled))")
        }
        #expect(objects >= 14, "the demo's objects were not walked")
    }

    /// A line ended by CR alone (classic Mac OS) is a line, as editors show it; CR LF is one line end.
    @Test(arguments: [("\r", 3), ("\r\n", 3), ("\n", 3)])
    func aProblemsLineCountsEveryKindOfLineEnd(end: String, line: Int) {
        let text = ["{", "\"scenario\": 1,", "\"name\": 5", "}"].joined(separator: end)
        #expect(problems(text).first == "line \(line), column 9: $.name: must be a string, not a number", "\(problems(text))")
    }

    // MARK: Helpers

    /// Every object in the tree with its JSON path (`$.a.b[0]`).
    static func objects(in node: JSONNode, at path: String) -> [(String, JSONNode)] {
        switch node.value {
        case .object(let members):
            return [(path, node)] + members.flatMap { objects(in: $0.value, at: "\(path).\($0.key)") }
        case .array(let items):
            return items.enumerated().flatMap { objects(in: $0.element, at: "\(path)[\($0.offset)]") }
        default: return []
        }
    }

    /// The tree with the object at `target` given `key: value` again at its end.
    static func doubling(_ node: JSONNode, _ target: String, key: String, value: JSONNode, at path: String = "$") -> JSONNode {
        switch node.value {
        case .object(let members):
            let inner = members.map { ($0.key, doubling($0.value, target, key: key, value: value, at: "\(path).\($0.key)")) }
            return JSONNode.object(inner + (path == target ? [(key, value)] : []))
        case .array(let items):
            return JSONNode.array(items.enumerated().map { doubling($0.element, target, key: key, value: value, at: "\(path)[\($0.offset)]") })
        default:
            return node
        }
    }
}
