import Foundation
import Testing

/// Plain mode's menu: what it takes, Esc, and the terminal UI's `h` and `f` (the faults as a question).
@Suite struct PlainMenuTests {
    @Test func aWrongChoiceSaysWhatItTakes() throws {
        let run = try BinaryRun.run(["--ephemeral"], stdin: "9\nq\n")
        #expect(run.stdout.contains("! choose a number from 1 to 7, f (faults) or q"))
        #expect(run.status == 0)
    }

    /// Esc at the menu says there is nothing to cancel (it asked again without a word); in the faults question it
    /// goes back to the menu.
    @Test func escAtTheMenuSaysWhatQuits() throws {
        let run = try BinaryRun.run(["--ephemeral"], stdin: "\u{1b}\nf\n\u{1b}\nq\n")
        #expect(run.stdout.contains("! Esc cancels a flow; there is none here: q quits"), "\(run.stdout)")
        #expect(run.stdout.components(separatedBy: "Choose 1-7").count == 4, "the menu asked again after the faults' Esc: \(run.stdout)")
        #expect(run.status == 0)
    }

    /// The terminal UI's `h` at the plain menu says where the history is.
    @Test func historyKeySaysWhereItIs() throws {
        // With --ephemeral there is no file for `idp-tui history` to print (it pointed there all the same).
        let run = try BinaryRun.run(["--ephemeral"], stdin: "h\nq\n")
        #expect(run.stdout.contains("! choose a number from 1 to 7, f (faults) or q; the history is the terminal UI's, and with --ephemeral this session's flows are kept in memory only, gone at exit"), "\(run.stdout)")
        let kept = try BinaryRun.run(["--state", freshStatePath()], stdin: "h\nq\n")
        #expect(kept.stdout.contains("! choose a number from 1 to 7, f (faults) or q; the history is the terminal UI's: `idp-tui history` prints it"), "\(kept.stdout)")
        #expect(run.status == 0)
    }

    /// `f` at the menu is the faults panel as a question: the switches listed, a number switches one and says what
    /// it did, and the next flow meets it (it pointed to a scenario file: a screen reader's user had to quit).
    @Test func faultsAreSwitchedFromTheMenu() throws {
        let run = try BinaryRun.run(["--ephemeral"], stdin: "f\n1\n\n1\nalice\nwonderland\n\nq\n")
        #expect(run.stdout.contains("\n  1   [ ]  network unavailable\n"), "\(run.stdout)")
        #expect(run.stdout.contains("\nswitched on: network unavailable\n"), "\(run.stdout)")
        #expect(run.stdout.contains("faults on") && run.stdout.contains("NOT_REACHABLE"), "\(run.stdout)")
        #expect(run.status == 1, "the activation failed: \(run.stderr)")
        let wrong = try BinaryRun.run(["--ephemeral"], stdin: "f\n99\n\nq\n")
        #expect(wrong.stdout.contains("! choose a fault from 1 to 19, f to list them, or Enter to go back"), "\(wrong.stdout)")
        #expect(wrong.status == 0)
    }

    /// Either case, as the terminal UI takes its keys: `F` opened the faults after "(not an answer here)", `Q` was
    /// refused; q in the faults question goes back, as in the panel; Enter at the menu is refused without that echo.
    @Test func theMenuTakesEitherCaseAndEnterIsNoStrayAnswer() throws {
        let run = try BinaryRun.run(["--ephemeral"], stdin: "F\nq\n\nQ\n")
        #expect(!run.stdout.contains("(not an answer here)"), "\(run.stdout)")
        #expect(run.stdout.contains("Faults (identity"), "\(run.stdout)")
        #expect(run.stdout.components(separatedBy: "Choose 1-7").count == 4, "q went back to the menu: \(run.stdout)")
        #expect(run.status == 0)
    }
}
