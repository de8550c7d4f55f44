import FlowRecords
import Foundation
import JSONText
import Scenario

/// `idp-tui scenario check FILE` and `idp-tui scenario show [FILE]`.
public enum ScenarioCommand {
    /// Returns the exit status; `write` gets standard output (the problems, one a line, as compilers print
    /// them: `FILE:LINE:COLUMN: PATH: message`), `fail` standard error (the count).
    public static func main(_ command: ParsedCommandLine, write: (String) -> Void, fail: (String) -> Void) throws(UsageError) -> Int32 {
        var words = command.words[...]
        guard let verb = words.popFirst() else { throw UsageError("scenario: name check or show; see idp-tui scenario --help") }
        var path = command.options.scenarioPath
        for word in words {
            guard let named = path else {
                path = word
                continue
            }
            // The file --scenario named counts as one (the error named only the second, given once).
            let first = named == command.options.scenarioPath ? "--scenario \"\(named)\"" : "\"\(named)\""
            throw UsageError("scenario \(verb): one file at a time, not \(first) and also \"\(word)\"")
        }
        switch verb {
        case "check":
            guard let path else { throw UsageError("scenario check: name the file to check") }
            // An empty word (an unset shell variable) named no file, and the error said ": $: the file cannot be read".
            guard !path.isEmpty else { throw UsageError("scenario check: needs a file name, not an empty one") }
            switch ScenarioFile.read(path: path) {
            case .success(let scenario):
                let users = scenario.identityProvider.tenants.reduce(0) { $0 + $1.userCount }
                let tenants = scenario.identityProvider.tenants.count
                // The file's name and the scenario's with control characters escaped: one line that cannot clear,
                // colour or retitle the terminal.
                write(VisibleText.escaped("\(path): ok — scenario \"\(scenario.name)\": \(tenants) \(tenants == 1 ? "tenant" : "tenants"), \(users) \(users == 1 ? "user" : "users"), \(scenario.cards.count) cards"))
                return 0
            case .failure(let failure):
                for problem in failure.inFileOrder {
                    let place = problem.position.map { "\(path):\($0.line):\($0.column): " } ?? "\(path): "
                    write(VisibleText.escaped(place + problem.placed))
                }
                // A syntax error ends the check: "1 problem" read as the whole count.
                let rest = failure.complete ? "" : " (the check stops there: nothing after it was checked)"
                fail("scenario check: \(path): \(failure.problems.count) \(failure.problems.count == 1 ? "problem" : "problems")\(rest)")
                return UsageError.exitStatus
            }
        case "show":
            var options = command.options
            options.scenarioPath = path
            // Its errors begin with the verb, as every verb's do (they read "scenario FILE: …").
            let scenario = try options.loadScenario(for: .terminal, said: "scenario show: ")
            write(ScenarioFile.json(scenario).text())
            return 0
        default:
            throw UsageError("scenario: unknown command \"\(verb)\"\(KeySuggestion.hint(for: verb, among: ["check", "show"])); use check or show")
        }
    }
}
