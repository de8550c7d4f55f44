import Foundation
import Testing

/// Every piece of work the simulation and the engine start is counted for a test's run until quiet
/// (`PendingWork`, docs/architecture.md "How the pieces wait"): work queued without being counted would let the
/// count fall to zero too soon, and a test that settles would pass before that work had run. This reads the
/// sources, so that new uncounted work fails here rather than in a test that passes early.
@Suite struct CountedWorkTests {
    /// The modules whose work runs in a simulation under a test's clock. Left out: the front ends and the
    /// executables (their own threads), the state file, the real clock's timer queue (Determinism), and Threading,
    /// which defines the counted forms.
    static let simulated = [
        "FlowEngine", "IdpFlows", "LegacyFlows", "PaymentFlows", "Q2Flows", "FlowCatalog", "Simulation", "IdpTuiWorld",
        "IdentityProvider", "ThreeDSecure", "DropsWeb", "SafepayDropsSDK", "Q2Core", "Q2ModuleInterfaces", "IdpSdk",
        "KSMasterController", "kssidp", "Scenario", "FlowRecords",
    ]

    /// Uncounted on purpose, each with why: the line's file and a fragment of it.
    static let allowed: [(file: String, fragment: String, why: String)] = [
        ("IdentityProviderCertificates.swift", "DispatchQueue.global(qos: .userInitiated).async {",
         "start-up: libcrypto and the certificate chains load before any simulation exists"),
        ("PaymentRun.swift", "asyncAfter(deadline: .now() + .seconds(1))",
         "a real-time bound on a wait for the main queue, which is counted; settle awaits it through the mailbox"),
        ("PaymentRun.swift", "asyncAfter(deadline: .now() + .seconds(2))",
         "a real-time bound on a wait for the main queue, which is counted; settle awaits it through the mailbox"),
    ]

    struct Finding: CustomStringConvertible {
        let file: String
        let line: Int
        let text: String
        var description: String { "\(file):\(line): \(text)" }
    }

    static func sourceLines() throws -> [(file: String, number: Int, text: String, before: [String])] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        var result: [(String, Int, String, [String])] = []
        for module in simulated {
            let folder = root.appendingPathComponent("Sources/\(module)")
            let files = try #require(FileManager.default.enumerator(atPath: folder.path)).compactMap { $0 as? String }
            #expect(!files.isEmpty, "no sources for \(module)")
            for file in files where file.hasSuffix(".swift") {
                let lines = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8).components(separatedBy: "\n")
                for (index, text) in lines.enumerated() where !text.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
                    result.append(((file as NSString).lastPathComponent, index + 1, text, Array(lines[max(0, index - 4)..<index])))
                }
            }
        }
        return result
    }

    static func isAllowed(_ file: String, _ text: String) -> Bool {
        allowed.contains { file == $0.file && text.contains($0.fragment) }
    }

    @Test func everyQueuedJobIsCounted() throws {
        let uncounted = try Self.sourceLines().filter { line in
            let queues = line.text.contains(".async {") || line.text.contains(".async(execute") || line.text.contains("asyncAfter(")
            return queues && !Self.isAllowed(line.file, line.text)
        }.map { Finding(file: $0.file, line: $0.number, text: $0.text.trimmingCharacters(in: .whitespaces)) }
        #expect(uncounted.isEmpty, "queue it with async(counting: clock.pendingWork): \(uncounted)")
    }

    @Test func everyTaskIsCountedFromBeforeItStarts() throws {
        let uncounted = try Self.sourceLines().filter { line in
            // `Task(`, `Task {`, `Task.detached`: not `startTask(counting:)`, which counts its task itself.
            let text = line.text.replacingOccurrences(of: "startTask(counting:", with: "")
            let starts = ["Task(", "Task {", "Task.detached"].contains { text.contains($0) }
            return starts && !line.before.contains { $0.contains(".begin()") }
        }.map { Finding(file: $0.file, line: $0.number, text: $0.text.trimmingCharacters(in: .whitespaces)) }
        #expect(uncounted.isEmpty, "start it with DispatchTaskExecutor.startTask(counting:), or begin the count before it and end it at its end: \(uncounted)")
    }

    /// A continuation suspends its task: the places that do count it as nothing while it waits and begin it again
    /// before resuming it. A new one must too, and is added here once it does.
    @Test func everyContinuationIsOneThatCounts() throws {
        let counted = ["FlowRun.swift", "MCSDK.swift"]
        let others = try Self.sourceLines().filter { line in
            (line.text.contains("withCheckedContinuation") || line.text.contains("withUnsafeContinuation")) && !counted.contains(line.file)
        }.map { Finding(file: $0.file, line: $0.number, text: $0.text.trimmingCharacters(in: .whitespaces)) }
        #expect(others.isEmpty, "a continuation that the count does not know: \(others)")
    }

    /// One way of waiting (issue 13, point 3): the simulation and the engine await what they wait for, except the two
    /// vendor APIs that are synchronous, `provideCredentials` and the KSSIDP wrapper, which block their own thread. A
    /// new blocking wait (a semaphore, `.wait()`, a sleep, `.sync`) fails here, by file and line.
    @Test func nothingBlocksButTheVendorsSynchronousCalls() throws {
        let blocking = [".wait()", ".wait(timeout", ".wait(until", "DispatchSemaphore", "Thread.sleep", "usleep(", "nanosleep(",
                        "pthread_cond_wait", ".sync {", ".sync(", "askBlocking("]
        let vendorSynchronous: [(file: String, why: String)] = [
            ("CredentialChannel.swift", "the channel's blocking ask, for provideCredentials alone"),
            ("FlowRun.swift", "askBlocking: a flow's blocking prompt, for provideCredentials alone (noasync)"),
            ("PromptingInteraction.swift", "provideCredentials: the IdpSdk calls it synchronously on its queue"),
            ("KssIdpWrapper.swift", "the legacy wrapper's calls are synchronous in the vendor's API"),
        ]
        let found = try Self.sourceLines().filter { line in
            blocking.contains { line.text.contains($0) } && !vendorSynchronous.contains { $0.file == line.file }
        }.map { Finding(file: $0.file, line: $0.number, text: $0.text.trimmingCharacters(in: .whitespaces)) }
        #expect(found.isEmpty, "await it instead (a OneShot's value(), the clock's async sleep, a SerialTaskLane job): \(found)")
    }
}

