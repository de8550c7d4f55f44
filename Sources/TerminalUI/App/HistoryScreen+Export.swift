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
            rows.append(word)
        }
        return ["export:"] + rows
    }

    /// `command` cut at its spaces outside single quotes (a `--state='/tmp/my dir/x'` is one word: cut inside its
    /// quotes, the continuation's backslash and line break would become part of the path).
    static func shellWords(_ command: String) -> [String] {
        var words: [String] = [""]
        var quoted = false
        for character in command {
            if character == "'" { quoted.toggle() }
            if character == " " && !quoted { words.append("") } else { words[words.count - 1].append(character) }
        }
        return words.filter { !$0.isEmpty }
    }
}
