import FlowRecords
import Foundation
import Scenario

/// `idp-tui scenario check FILE` and `idp-tui scenario show [FILE]`.
public enum ScenarioCommand {
    public static let usage = """
        usage: idp-tui scenario check FILE     report every problem of a scenario file (exit 2 if any)
               idp-tui scenario show [FILE]    print the effective scenario (the embedded default without FILE);
                                               secrets print as "\(ScenarioFile.secretPlaceholder)"
        """

    /// Returns the exit status; `write` gets standard output (the problems, one a line, as compilers print
    /// them: `FILE:LINE:COLUMN: PATH: message`), `fail` standard error (the count).
    public static func main(_ arguments: [String], write: (String) -> Void, fail: (String) -> Void) throws(UsageError) -> Int32 {
        var rest = arguments[...]
        guard let verb = rest.popFirst() else { throw UsageError("scenario: name check or show; see idp-tui scenario --help") }
        if verb == "--help" || verb == "-h" {
            write(usage)
            return 0
        }
        var path: String?
        while let argument = rest.popFirst() {
            if argument == "--scenario" || argument.hasPrefix("--scenario=") {
                if argument.hasPrefix("--scenario=") {
                    path = String(argument.dropFirst("--scenario=".count))
                } else {
                    guard let value = rest.popFirst() else { throw UsageError("scenario: --scenario needs a value") }
                    path = value
                }
            } else if argument.hasPrefix("-") {
                throw UsageError("scenario: unknown option \(argument); see idp-tui scenario --help")
            } else if path == nil {
                path = argument
            } else {
                throw UsageError("scenario \(verb): one file at a time, not also \"\(argument)\"")
            }
        }
        switch verb {
        case "check":
            guard let path else { throw UsageError("scenario check: name the file to check") }
            switch ScenarioFile.read(path: path) {
            case .success(let scenario):
                let users = scenario.identityProvider.tenants.reduce(0) { $0 + $1.users.count }
                let tenants = scenario.identityProvider.tenants.count
                write("\(path): ok — scenario \"\(scenario.name)\": \(tenants) \(tenants == 1 ? "tenant" : "tenants"), \(users) \(users == 1 ? "user" : "users"), \(scenario.cards.count) cards")
                return 0
            case .failure(let failure):
                for problem in failure.problems {
                    let place = problem.position.map { "\(path):\($0.line):\($0.column): " } ?? "\(path): "
                    write(place + "\(problem.path): \(problem.message)")
                }
                fail("\(path): \(failure.problems.count) \(failure.problems.count == 1 ? "problem" : "problems")")
                return UsageError.exitStatus
            }
        case "show":
            var options = RunOptions()
            options.scenarioPath = path
            let scenario = try options.loadScenario(mode: .terminal)
            write(ScenarioFile.json(scenario).text())
            return 0
        default:
            throw UsageError("scenario: unknown command \"\(verb)\"; use check or show")
        }
    }
}
