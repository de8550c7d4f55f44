import Foundation
import Testing

/// The plain front end, as a script or a screen reader's user meets it: standard output is not a terminal, so
/// `idp-tui` speaks line by line.
@Suite struct PlainModeTests {
    @Test func withoutATerminalTheUIIsPlainAndActivatesLogsInAndPays() throws {
        let run = try BinaryRun.run(["--ephemeral"], stdin: "1\nalice\nwonderland\n123456\n\n2\nalice\nwonderland\n\n4\n4000000000002503\n1230\n\n\n\n9876\n1234\n\nq\n")
        #expect(run.status == 0, "\(run.stderr)")
        for text in ["What would you like to do?", "Choose 1-7 (q quits): ", "Activate device — step 1 of 2", "Password (hidden): ",
                     "✓ Device activated and logged in", "✓ Logged in", "wrong code; 2 attempts left",
                     "✓ Payment authenticated after a challenge", "next step: Authorise with the CAVV"] {
            #expect(run.stdout.contains(text), "no \(text)")
        }
        // Events are printed as they happen, one line each, with no cursor addressing or box drawing.
        #expect(run.stdout.contains("→ MC-SDK  Start"))
        #expect(!run.stdout.contains("\u{1b}[") && !run.stdout.contains("┌"))
        // Long step names whole: a line has no width to keep to.
        #expect(run.stdout.contains(" safepay-inframe__messages-processed "))
        #expect(!run.stdout.contains("safepay-inframe__messages-p…"))
        for secret in ["wonderland", "123456", "9876"] { #expect(!run.stdout.contains(secret), "\(secret) was printed") }
    }

    @Test func q2EventsNameBothPartiesWhole() throws {
        let run = try BinaryRun.run(["--ephemeral"], stdin: "5\nalice\nwonderland\n\nq\n")
        #expect(run.stdout.contains("Q2 SDK→Q2 Core "), "\(run.stdout)")
        #expect(!run.stdout.contains("Q2 SDK→Q…"))
    }

    @Test func escOnALineCancelsTheFlowAndTheEndOfInputQuits() throws {
        let run = try BinaryRun.run(["--plain", "--ephemeral"], stdin: "1\nalice\n\u{1b}\n")
        #expect(run.status == 0)
        #expect(run.stdout.contains("⊘ Activate device cancelled"))
        #expect(run.stdout.contains("User cancelled"))
    }

    @Test func theEndOfInputAtAPromptCancels() throws {
        let run = try BinaryRun.run(["--ephemeral"], stdin: "4\n4000000000002503\n")
        #expect(run.stdout.contains("⊘ Pay with card (3-D Secure) cancelled"))
        #expect(run.status == 0)
    }

    @Test func aWrongChoiceSaysWhatItTakes() throws {
        let run = try BinaryRun.run(["--ephemeral"], stdin: "9\nq\n")
        #expect(run.stdout.contains("! choose a number from 1 to 7, or q"))
        #expect(run.status == 0)
    }

    @Test func eventsKeepComingAfterTheLogsLimitAndCardsAreMasked() throws {
        // 250 cancelled activations make about 2,500 events: more than the 2,000 the app keeps.
        let input = String(repeating: "1\nalice\n\u{1b}\n\n", count: 250) + "4\n4000000000002701\n12/30\n\n\n\n\nq\n"
        let run = try BinaryRun.run(["--ephemeral"], stdin: input)
        #expect(run.status == 0)
        #expect(run.stdout.components(separatedBy: "→ MC-SDK  Start").count - 1 == 250, "every flow's events are printed")
        #expect(run.stdout.contains("✓ Payment authenticated without a challenge"))
        #expect(run.stdout.contains("Card number: •••• 2701"))
        #expect(!run.stdout.contains("4000000000002701") && !run.stdout.contains("4000 0000 0000 2701"))
    }

    @Test func anEndlessLineIsCutAndTheSessionGoesOn() throws {
        // A 100,000-character line is read as its first 4 KB: an answer like any other.
        let run = try BinaryRun.run(["--ephemeral"], stdin: String(repeating: "x", count: 100_000) + "\nq\n")
        #expect(run.status == 0)
        #expect(run.stdout.contains("! choose a number from 1 to 7, or q"))
        #expect(!run.stdout.contains(String(repeating: "x", count: 4097)))
    }
}
