import FlowCatalog
import IdentityProvider
import Foundation
import LocaleText

/// `idp-tui compare`: the migration parity check, side by side.
public enum CompareCommand {
    /// `width`: the text's columns (the terminal's, up to 100; 100 into a file or a pipe).
    public static func main(_ options: CommandLineOptions, width: Int = 100, write: (String) -> Void) throws(UsageError) -> Int32 {
        let variant = options.variant
        let json = options.json
        let scenario = try options.loadScenario(for: .compare)
        let report = ParityCheck.run(scenario: scenario, variant: variant, seed: options.seed)
        if let notRun = report.notRun { throw UsageError("compare: \(notRun)") }
        // Said, not refused: two failures that agree read as a ✓ (docs/migration.md asks for a scenario without faults).
        // In the text report itself, so that a report kept in a file says it; beside JSON, on stderr.
        let faults = scenario.identityFaults.activeNames
        let caveat = faults.isEmpty ? nil
            : "the scenario switches faults on (\(faults.joined(separator: ", "))): they reach the two orchestrations at different steps, so a case may agree or differ because of them, not the migration"
        if json {
            if let caveat { writeErrorLine("idp-tui: compare: \(caveat)") }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            if let data = try? encoder.encode(report) { write(String(decoding: data, as: UTF8.self)) }
        } else {
            let note = caveat.map { ParityText.wrapText("Note: " + $0 + ".", width: width) } ?? []
            write((ParityText.lines(report, width: width, spelled: PlainASCII.forUserLocale) + note).joined(separator: "\n"))
        }
        return report.agrees ? 0 : 1
    }
}

