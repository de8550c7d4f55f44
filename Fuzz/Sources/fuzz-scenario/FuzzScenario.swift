import JSONText
import Scenario

/// The scenario loader: any bytes are a scenario or a list of problems, each at a JSON path; the users lists
/// checked without the reader (made at their tenant's first use) read as the reader reads them; and a scenario that
/// reads is written as `scenario show` writes it, and that text, its secrets filled in again, reads back as the
/// same scenario.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let quick = outcome(ScenarioFile.read(bytes, deferringUsers: true)), usual = outcome(ScenarioFile.read(bytes, deferringUsers: false))
    check(quick == usual, "the users checked without the reader read otherwise:\n\(quick)\n---\n\(usual)")
    let scenario: Scenario
    switch ScenarioFile.read(bytes) {
    case .failure(let failure):
        check(!failure.problems.isEmpty, "refused without a problem")
        for problem in failure.problems {
            check(problem.path.hasPrefix("$") && !problem.message.isEmpty, "a problem without a place or a message: \(problem)")
            if let position = problem.position { check(position.line >= 1 && position.column >= 1, "a problem at \(position)") }
        }
        return 0
    case .success(let read):
        scenario = read
    }
    let shown = ScenarioFile.json(scenario).text()
    let document: JSONNode
    do {
        document = try JSONParser.parse(shown)
    } catch {
        fatalError("`scenario show` writes text that does not parse (\(error)): \(shown)")
    }
    let again: Scenario
    switch ScenarioFile.read(Array(filled(document).text().utf8)) {
    case .failure(let failure):
        fatalError("`scenario show`'s text does not read back: \(failure.problems.map(\.description)); text: \(shown)")
    case .success(let read):
        again = read
    }
    let shownAgain = ScenarioFile.json(again).text()
    check(shownAgain == shown, "the scenario read back is another one:\n\(shown)\n---\n\(shownAgain)")
    return 0
}

/// A read's problems, or its scenario as `scenario show` writes it with every user's secrets.
func outcome(_ result: Result<Scenario, ScenarioProblems>) -> String {
    switch result {
    case .failure(let failure):
        return failure.problems.map(\.description).joined(separator: "\n")
    case .success(let scenario):
        let users = scenario.identityProvider.tenants.flatMap(\.users).map {
            "\($0.username) \($0.password.reveal()) \($0.activationCode.map { "\($0.code.reveal()) \($0.validFor)" } ?? "-")"
        }
        return ScenarioFile.json(scenario).text() + "\n" + users.joined(separator: "\n")
    }
}

/// The document with a value in place of each secret `scenario show` leaves out.
func filled(_ node: JSONNode) -> JSONNode {
    let secrets: Set<String> = ["password", "activationCode", "oneTimeCode"]
    switch node.value {
    case .array(let items):
        return JSONNode(.array(items.map(filled)), at: node.position)
    case .object(let members):
        return JSONNode(.object(members.map { member in
            if secrets.contains(member.key), member.value.string == ScenarioFile.secretPlaceholder {
                return (key: member.key, value: JSONNode.string("filled-in"))
            }
            return (key: member.key, value: filled(member.value))
        }), at: node.position)
    default:
        return node
    }
}

func check(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError(message()) }
}
