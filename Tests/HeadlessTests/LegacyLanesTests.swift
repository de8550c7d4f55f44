import Foundation
import Testing

/// KSSIDP did the IdP's HTTP itself (REFERENCE.md): its requests go from KSSIDP, on its queue, and no IdpSdk takes
/// part (a migrator read the IdpSdk's lane and thread in a KSSIDP flow as "KSSIDP already uses the IdpSdk").
@Suite struct LegacyLanesTests {
    @Test func theWrappersRequestsAreItsOwn() throws {
        let state = freshStatePath()
        let run = try BinaryRun.run(["run", "legacy-activate", "--state", state], stdin: Answers.aliceActivation)
        #expect(run.status == 0, "\(run.stderr)")
        let requests = run.events.filter { $0["to"] as? String == "IdP" && ($0["step"] as? String)?.hasSuffix("/authorize") == true }
        #expect(requests.count == 3 && requests.allSatisfy { $0["from"] as? String == "KSSIDP" && $0["thread"] as? String == "KSSIDP" },
                "\(requests)")
        #expect(!run.events.contains { $0["from"] as? String == "IdpSdk" || $0["to"] as? String == "IdpSdk" }, "\(run.stdout)")
        let mermaid = try BinaryRun.run(["history", "export", "1", "--format", "mermaid", "--state", state])
        #expect(mermaid.stdout.contains("participant KSSIDP") && !mermaid.stdout.contains("IdpSdk"), "\(mermaid.stdout)")
    }
}
