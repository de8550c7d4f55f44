
/// The parity report as text: one block per case, the two sides in columns, ✓ or ✗ per step.
public enum ParityText {
    /// The messages joined with arrows, in lines of at most `width` characters, each piece as `spelled` spells it.
    static func wrap(_ messages: [String], width: Int, spelled: (String) -> String = { $0 }) -> [String] {
        var lines: [String] = []
        var line = ""
        for (index, message) in messages.enumerated() {
            let piece = spelled(index == 0 ? message : " → " + message)
            if !line.isEmpty && line.count + piece.count > width {
                lines.append(line)
                line = spelled("→ " + message)
            } else {
                line += piece
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }

    /// `text` in lines of at most `width` characters, broken at spaces where it can be and inside a word where
    /// a word is longer than a line: nothing is cut. Inside a word, the break comes after the last `.` `/` `_` `=`
    /// `:` `,` that fits (`IdpSdkResult.` / `authorizationCode`), else before the last capital that follows a small
    /// letter (`onPayer` / `Authentication`), else at the line's end.
    public static func wrapText(_ text: String, width: Int) -> [String] {
        let width = max(1, width)
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: false) {
            var word = Substring(word)
            if !line.isEmpty && line.count + 1 + word.count <= width {
                line += " " + word
                continue
            }
            if !line.isEmpty { lines.append(line) }
            while word.count > width {
                let cut = breakPoint(in: word.prefix(width + 1), width: width)
                lines.append(String(word.prefix(cut)))
                word = word.dropFirst(cut)
            }
            line = String(word)
        }
        lines.append(line)
        return lines
    }

    /// Where to break a word longer than `width`: `head` is its first `width + 1` characters.
    private static func breakPoint(in head: Substring, width: Int) -> Int {
        let characters = Array(head)
        let cuts = stride(from: width, to: 0, by: -1)
        return cuts.first { "./_=:,".contains(characters[$0 - 1]) }
            ?? cuts.first { characters[$0].isUppercase && characters[$0 - 1].isLowercase } ?? width
    }

    /// The report in lines of at most `width` columns. `spelled` turns each piece of text into what is printed
    /// (``PlainASCII`` under a locale that is not UTF-8: `✓` is `ok`, `→` is `->`) before the columns are laid out,
    /// so that they stay aligned in either spelling.
    public static func lines(_ report: ParityReport, width: Int, spelled: (String) -> String = { $0 }) -> [String] {
        markedLines(report, width: width, spelled: spelled).map(\.text)
    }

    /// A line of the report, and the verdict it carries, if any: a case's heading (`✓ 1. …`, `✗ 2. …`) and a
    /// difference (`✗ differs: …`), every row of each when it is wrapped.
    public struct Line: Sendable, Equatable {
        public let text: String
        /// True for a case that agrees, false for one that differs and for a difference; nil for the rest.
        public let agrees: Bool?

        public init(text: String, agrees: Bool?) {
            self.text = text
            self.agrees = agrees
        }
    }

    /// ``lines(_:width:spelled:)``, each with its verdict, for a screen that colours them.
    public static func markedLines(_ report: ParityReport, width: Int, spelled: (String) -> String = { $0 }) -> [Line] {
        let column = max(12, (width - 4) / 2)
        func wrapText(_ text: String, width: Int) -> [String] { Self.wrapText(spelled(text), width: width) }
        // Two columns side by side, each wrapped: a value longer than its column takes more rows, never a cut. The
        // left one ends two columns before the right one starts (a full left column read as one phrase with the
        // right: "error the authorisation code is empty error 513/4011"), and no line ends in spaces.
        func row(_ left: String, _ right: String, lead: String = "    ") -> [String] {
            let leftLines = wrapText(left, width: column - 2)
            let rightLines = wrapText(right, width: column - 1)
            return (0..<max(leftLines.count, rightLines.count)).map { index in
                let text = index < leftLines.count ? leftLines[index] : ""
                let padded = text.padding(toLength: column, withPad: " ", startingAt: 0)
                let line = (index == 0 ? lead : "    ") + padded + (index < rightLines.count ? rightLines[index] : "")
                return String(line.reversed().drop { $0 == " " }.reversed())
            }
        }
        var lines: [Line] = []
        func add(_ texts: [String], agrees: Bool? = nil) { lines += texts.map { Line(text: $0, agrees: agrees) } }
        add(wrapText(heading(report), width: width) + [""])
        for (index, parityCase) in report.cases.enumerated() {
            // The verdict in a word too, as plain mode's: a screen reader says nothing for ✗ (`compare` in a CI log).
            add(wrapText("\(parityCase.agrees ? "✓" : "✗") \(index + 1). \(parityCase.name): \(parityCase.agrees ? "agrees" : "differs")", width: width),
                agrees: parityCase.agrees)
            add(row("IdpSdk", "KSSIDP"))
            for step in parityCase.steps {
                // The mark in the lead's four columns, whichever its spelling (`✓`, `ok`).
                let mark = spelled(step.differences.isEmpty ? "✓" : "✗")
                add(row("\(step.new.flow): \(step.new.outcome) \(step.new.status)",
                        "\(step.legacy.flow): \(step.legacy.outcome) \(step.legacy.status)",
                        lead: String(repeating: " ", count: max(0, 3 - mark.count)) + mark + " "))
                add(row("SetAuthorisationCode \(step.new.setAuthorisationCode)", "SetAuthorisationCode \(step.legacy.setAuthorisationCode)"))
                // The error is judged, so it is shown: the IdpSdkError (KSSIDP's errorModel) as subsystem/code.
                if step.new.error != nil || step.legacy.error != nil {
                    add(row("error \(step.new.error ?? "none")", "error \(step.legacy.error ?? "none")"))
                }
                add(row(step.new.deviceAfter, step.legacy.deviceAfter))
                add(row(step.new.appReceived, step.legacy.appReceived))
                let left = wrap(step.new.sequence, width: column - 1, spelled: spelled)
                let right = wrap(step.legacy.sequence, width: column - 1, spelled: spelled)
                for index in 0..<max(left.count, right.count) {
                    add(row(index < left.count ? left[index] : "", index < right.count ? right[index] : ""))
                }
                for difference in step.differences {
                    add(wrapText("✗ differs: \(difference)", width: width - 4).map { "    " + $0 }, agrees: false)
                }
            }
            add([""])
        }
        add(footer(report).flatMap { wrapText($0, width: width) })
        return lines
    }

    /// The report with one side under the other, for plain mode: a screen reader reads a line at a time, and two
    /// columns side by side were read mixed (and wrapped mid-word on an 80-column terminal).
    public static func stackedLines(_ report: ParityReport, width: Int, spelled: (String) -> String = { $0 }) -> [String] {
        // The rest of a wrapped line two more in than its start, as plain mode wraps every line (it went on flush
        // with the next item, and read as one).
        func wrapped(_ text: String, indent: Int) -> [String] {
            let whole = spelled(text)
            let lines = Self.wrapText(whole, width: width - indent)
            // The rest is what follows the first line in the text (wrapText trims where it breaks).
            let start = whole.drop { $0 == " " }
            guard lines.count > 1, start.hasPrefix(lines[0]) else { return lines.map { String(repeating: " ", count: indent) + $0 } }
            let rest = Self.wrapText(String(start.dropFirst(lines[0].count).drop { $0 == " " }), width: width - indent - 2)
            return [String(repeating: " ", count: indent) + lines[0]] + rest.map { String(repeating: " ", count: indent + 2) + $0 }
        }
        var lines = wrapped(heading(report), indent: 0) + [""]
        for (index, parityCase) in report.cases.enumerated() {
            // The verdict in a word too: a screen reader says "check" for ✓ and nothing for ✗ (NVDA's symbols), so a
            // case that differs read as one that agrees.
            lines += wrapped("\(parityCase.agrees ? "✓" : "✗") \(index + 1). \(parityCase.name): \(parityCase.agrees ? "agrees" : "differs")", indent: 0)
            for step in parityCase.steps {
                let same = step.differences.isEmpty
                lines += wrapped("\(same ? "✓" : "✗") \(step.new.flow) against \(step.legacy.flow): \(same ? "agrees" : "differs")", indent: 2)
                let errors = step.new.error != nil || step.legacy.error != nil
                for (side, result) in [("IdpSdk", step.new), ("KSSIDP", step.legacy)] {
                    let facts = ["\(result.outcome) \(result.status)", "SetAuthorisationCode \(result.setAuthorisationCode)"]
                        + (errors ? ["error \(result.error ?? "none")"] : []) + [result.deviceAfter, result.appReceived]
                    lines += wrapped("\(side): " + facts.joined(separator: "; "), indent: 4)
                    // Labelled, so that they do not read as the facts' wrapped rest, which is indented as far.
                    // Broken between messages, never inside one ("→ POST" / "/authorize").
                    // "steps", not "sent": the app's own credential form is among them.
                    let sent = wrap(result.sequence, width: width - 13, spelled: spelled)
                    lines += sent.enumerated().map { index, line in index == 0 ? "      " + spelled("steps: ") + line : "        " + line }
                }
                for difference in step.differences { lines += wrapped("✗ differs: \(difference)", indent: 4) }
            }
            lines.append("")
        }
        return lines + footer(report).flatMap { wrapped($0, indent: 0) }
    }

    private static func heading(_ report: ParityReport) -> String {
        let variant = ParityCheck.Variant(rawValue: report.variant).map { "\($0.rawValue): \($0.summary)" } ?? report.variant
        return "Migration parity: IdpSdk orchestration (\(variant)) against the KSSIDP wrapper"
    }

    private static func footer(_ report: ParityReport) -> [String] {
        if let notRun = report.notRun { return ["No case ran: \(notRun)."] }
        let count = report.differenceCount
        return ["(The sequences are shown, not judged: the IdpSdk asks the app for each page of the IdP's form as it comes, "
                    + "provideCredentials; a KSSIDP app collects every credential in its own form after Start, then calls the "
                    + "wrapper, which sends the rest.)",
                count == 0 ? "The two orchestrations agree in every case (outcome, status, error, SetAuthorisationCode, device)."
                    : "\(count) \(count == 1 ? "difference" : "differences") found."]
    }
}
