import Foundation
import Testing

/// Every Cardinal test case in docs/payer-authentication.md's table, run headless through the built binary in
/// one `run`: each card's result must carry the values and the callback the table gives, so the table and the
/// product cannot drift apart.
@Suite struct CardinalRunTests {
    struct Row {
        let testCase: String
        let numbers: [String]
        let enrolled: String
        let ares: String?
        let final: String?
        let eci: (visa: String, mastercard: String)
        let errorCode: String?
        let callback: String
        let nextAction: String
    }

    /// The rows of the "default cards" table: `| case | scenario | Visa | MC | Amex | Discover | Enrolled | ARes |
    /// final | ECI | error | callback | nextAction |`.
    static func tableRows() throws -> [Row] {
        let text = try String(contentsOf: docsFolder.appendingPathComponent("payer-authentication.md"), encoding: .utf8)
        func first(_ cell: String) -> String? {
            let token = cell.split(separator: " ").first.map(String.init)
            return token == "—" ? nil : token
        }
        return text.split(separator: "\n").compactMap { line -> Row? in
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count == 15, let number = cells[1].split(separator: " ").first, Int(number) != nil else { return nil }
            let eci = cells[10].components(separatedBy: " · ")
            let error = cells[11].hasPrefix("Erro ") ? cells[11].split(separator: " ")[1] : nil
            return Row(
                testCase: cells[1], numbers: cells[3...6].filter { $0 != "—" }, enrolled: cells[7], ares: first(cells[8]),
                final: first(cells[9]), eci: (eci[0], eci[1]), errorCode: error.map(String.init),
                callback: "onPayerAuthentication" + cells[12], nextAction: cells[13])
        }
    }

    @Test func theTableListsEveryCase() throws {
        let rows = try Self.tableRows()
        #expect(rows.map { Int($0.testCase.split(separator: " ")[0]) } == Array(1...13))
        #expect(rows.flatMap(\.numbers).count == 51)
    }

    @Test func everyCaseGivesItsPublishedValuesHeadless() throws {
        let rows = try Self.tableRows()
        let cards = rows.flatMap { row in row.numbers.map { (row, $0) } }
        // The QA scenario's short timers, shorter still: the lookup-timeout cards wait one second each.
        var scenario = try String(contentsOfFile: scenarioPath("payments-qa"), encoding: .utf8)
        scenario = scenario.replacingOccurrences(of: "\"lookupSeconds\": 2", with: "\"lookupSeconds\": 1")
        let path = try temporaryFile(scenario)
        let answers = cards.map { #"{"card":"\#($0.1)","expiry":"01/31","otp":"1234"}"# }.joined(separator: ",")
        let run = try BinaryRun.run(["run", "--ephemeral", "--scenario", path] + cards.map { _ in "payer-auth" }, stdin: "[\(answers)]")
        #expect(run.status == 1, "\(run.stderr)")
        try #require(run.results.count == cards.count)
        for ((row, number), result) in zip(cards, run.results) {
            let payment = result["payment"] as? [String: Any] ?? [:]
            let label = "case \(row.testCase), \(number)"
            #expect(payment["card"] as? String == "•••• \(number.suffix(4))", "\(label)")
            #expect(payment["enrolled"] as? String == row.enrolled, "\(label)")
            #expect(payment["transStatus"] as? String == (row.final ?? row.ares), "\(label)")
            #expect(payment["eci"] as? String == (number.hasPrefix("5") ? row.eci.mastercard : row.eci.visa), "\(label)")
            #expect(payment["errorCode"] as? String == row.errorCode, "\(label)")
            #expect(payment["callback"] as? String == row.callback, "\(label)")
            #expect(payment["nextAction"] as? String == row.nextAction, "\(label)")
            #expect(payment["signatureVerification"] as? String == (row.enrolled == "Y" ? "Y" : nil), "\(label)")
            #expect(payment["messageVersion"] as? String == "2.2.0", "\(label)")
        }
        #expect(!run.stdout.contains("1234\""), "the one-time code never appears")
    }
}
