import FlowCatalog
import FlowEngine
import FlowRecords
import Foundation
import LocaleText

/// A transcript's export command, where the title cannot hold it.
extension AppView {
    /// The export command on a line of its own where the title cannot hold it (at 80 columns with a `--state` of
    /// some length the title was "Flow 12" alone, and the command was seen only at 120).
    static func exportLine(_ transcript: TranscriptState, width: Int) -> [String] {
        let id = transcript.record.summary.id
        guard let command = exportCommand(id, stateOption: transcript.stateOption),
              transcriptTitle(id, width: width + 4, stateOption: transcript.stateOption) == "Flow \(id)" else { return [] }
        // The command whole on a row of its own when the label leaves it no room: wrapped after "--format mermaid",
        // a copy of the row lost its --state (a terminal newcomer).
        let labelled = "export: " + command
        if CharacterWidth.of(labelled) <= width { return [labelled] }
        if CharacterWidth.of(command) <= width { return ["export:", command] }
        // Longer than a row (a long --state): cut between its words, each row but the last ended by a shell's line
        // continuation, so that the rows pasted into a shell are one command (wrapped mid-command at 60 columns, the
        // first row ran on its own, against the default state file).
        var rows: [String] = []
        for word in Self.shellWords(command) {
            if let row = rows.last, CharacterWidth.of(row + " " + word) + 2 <= width { rows[rows.count - 1] += " " + word; continue }
            if !rows.isEmpty { rows[rows.count - 1] += " \\" }
            // A word longer than a row (a long --state at 60 columns) is cut too, the shell joining it back: it was
            // wrapped with no continuation, and its last characters ran as a command of their own.
            rows += CharacterWidth.of(word) + 2 <= width ? [word] : Self.cutWord(word, width: width)
        }
        return ["export:"] + rows
    }

    /// `word` in rows of at most `width` columns, each but the last ended by a line continuation that a POSIX shell
    /// removes, joining the rows back into the word: a backslash outside quotes; inside single quotes, the quote
    /// closed first and opened again on the next row (a backslash there is taken as written). An escaped character
    /// (`\'`) is never cut from its backslash.
    static func cutWord(_ word: String, width: Int) -> [String] {
        var units: [String] = []
        var escaping = false
        for character in word {
            if escaping { units[units.count - 1].append(character) } else { units.append(String(character)) }
            escaping = !escaping && character == "\\"
        }
        var rows: [String] = []
        var row = ""
        var quoted = false
        for unit in units {
            let end = quoted ? "'\\" : "\\"
            if !row.isEmpty, row != "'", CharacterWidth.of(row + unit + end) > width {
                rows.append(row + end)
                row = quoted ? "'" : ""
            }
            if unit == "'" { quoted.toggle() }
            row += unit
        }
        return rows + [row]
    }

    /// `command` cut at its spaces outside single quotes (a `--state='/tmp/my dir/x'` is one word: cut inside its
    /// quotes, the continuation's backslash and line break would become part of the path).
    /// A quote escaped outside quotes (`'\''`, a path holding a quote) neither opens nor closes one: taken as either, the
    /// rest of the path was cut at its spaces.
    static func shellWords(_ command: String) -> [String] {
        var words: [String] = [""]
        var quoted = false
        var escaped = false
        for character in command {
            if character == "'" && !escaped { quoted.toggle() }
            escaped = !quoted && !escaped && character == "\\"
            if character == " " && !quoted && !escaped { words.append("") } else { words[words.count - 1].append(character) }
        }
        return words.filter { !$0.isEmpty }
    }
}
