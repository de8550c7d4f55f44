import FlowService
import Foundation

/// `idp-tui compare`: the migration parity check, side by side.
public enum CompareCommand {
    public static let usage = """
        usage: idp-tui compare [--scenario FILE] [--variant guide|enrollment-client-for-login] [--json]
          runs activation then login, a wrong password, a wrong activation code, a cancel and a login before
          activation through the IdpSdk orchestration and through the legacy KSSIDP wrapper, and flags every
          difference. Exit 0: they agree; 1: they differ; 2: bad input.
        """

    public static func main(_ arguments: [String], write: (String) -> Void) throws(UsageError) -> Int32 {
        var options = RunOptions()
        var variant = ParityCheck.Variant.guide
        var json = false
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--help", "-h":
                write(usage)
                return 0
            case "--json": json = true
            case "--scenario":
                guard let path = rest.popFirst() else { throw UsageError("compare: --scenario needs a value") }
                options.scenarioPath = path
            case "--variant":
                guard let text = rest.popFirst(), let chosen = ParityCheck.Variant(rawValue: text) else {
                    throw UsageError("compare: --variant takes \(ParityCheck.Variant.allCases.map(\.rawValue).joined(separator: " or "))")
                }
                variant = chosen
            default: throw UsageError("compare: unknown argument \"\(argument)\"; see idp-tui compare --help")
            }
        }
        let report = ParityCheck.run(scenario: try options.loadScenario(mode: .terminal), variant: variant, seed: options.seed)
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            if let data = try? encoder.encode(report) { write(String(decoding: data, as: UTF8.self)) }
        } else {
            write(ParityText.lines(report, width: 100).joined(separator: "\n"))
        }
        return report.agrees ? 0 : 1
    }
}

