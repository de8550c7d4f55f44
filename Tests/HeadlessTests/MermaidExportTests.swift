import Foundation
import Testing

/// `history export ID --format mermaid`: every message whole, a long one in lines Mermaid breaks (`<br/>`).
@Suite struct MermaidExportTests {
    /// The MC-SDK's runtime error was cut to "…" while longer labels stayed whole: a detail was cut by its own length,
    /// not by the label's. Every message is whole now, a long one in even lines.
    @Test func aRuntimeErrorsMessageIsWhole() throws {
        let state = freshStatePath()
        let run = try BinaryRun.run(["run", "activate", "--state", state],
                                    stdin: #"{"username":"alice","password":"wonderland","activation-code":"123456","faults":{"runtimeError":true}}"#)
        #expect(run.events.contains {
            $0["step"] as? String == "ErrorRuntime" && $0["detail"] as? String == "ErrorRuntimeEvent: errorType=runtimeError, errorCode=1, "
                + #"errorDescription="internal error while storing the token data; the MC-SDK restarted itself"; send StartEvent before anything else"#
        }, "\(run.stdout)")
        let export = try BinaryRun.run(["history", "export", "1", "--format", "mermaid", "--state", state])
        let lines = export.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains("    MCSDK->>App: ErrorRuntime · runtimeError · ErrorRuntimeEvent: errorType=runtimeError,<br/>errorCode=1, "
            + ##"errorDescription="internal error while storing the token data#59; the<br/>MC-SDK restarted itself"#59; send StartEvent before anything else"##),
                "\(export.stdout)")
        #expect(!export.stdout.contains("…"), "\(export.stdout)")
    }

    /// A long detail is whole, broken at spaces: a Q2 sign-in's credential, cut, read `password: …`, as if a password
    /// had been cut off.
    @Test func aLongDetailIsWholeInLinesBrokenAtSpaces() throws {
        let state = freshStatePath()
        let run = try BinaryRun.run(["run", "q2-login", "--state", state], stdin: #"{"username":"alice","password":"wonderland"}"#)
        #expect(run.status == 0, "\(run.stderr)")
        let export = try BinaryRun.run(["history", "export", "1", "--format", "mermaid", "--state", state])
        #expect(export.stdout.contains(
            "    App->>Q2SDK: authenticate(using:) · passwordAuthentication.authenticate(using:<br/>PasswordCredential(username: alice, password: #60;redacted#62;))"),
                "\(export.stdout)")
        #expect(!export.stdout.contains("…"), "\(export.stdout)")
    }

    /// A fault is a note over the party whose call it hit, and the faults on a note over the simulator: they were
    /// arrows to the App (`simulator->>App`), which never hears of a fault. The run's line names the party hit too.
    @Test func faultsAreNotesOverThePartyTheyHit() throws {
        let state = freshStatePath()
        let run = try BinaryRun.run(["run", "activate", "--state", state],
                                    stdin: #"{"username":"alice","password":"wonderland","activation-code":"123456","faults":{"insecureDevice":true}}"#)
        let injected = try #require(run.events.first { $0["step"] as? String == "fault injected" }, "\(run.stdout)")
        #expect(injected["from"] as? String == "simulator" && injected["to"] as? String == "MC-SDK", "\(injected)")
        let export = try BinaryRun.run(["history", "export", "1", "--format", "mermaid", "--state", state])
        let lines = export.stdout.split(separator: "\n").map(String.init)
        #expect(Array(lines.suffix(4)) == [
            "    Note over simulator: faults on · insecure device",
            "    App->>MCSDK: Start · StartEvent",
            "    Note over MCSDK: fault injected · FAULT · insecure device: the MC-SDK's integrity check finds it rooted or jailbroken",
            "    MCSDK-->>App: Start · FAILED · the device is rooted or jailbroken#59; the MC-SDK does not run on an insecure device",
        ], "\(export.stdout)")
        #expect(!export.stdout.contains("simulator->>"), "\(export.stdout)")
    }
}
