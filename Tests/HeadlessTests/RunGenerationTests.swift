import Foundation
import StateStore
import Testing

/// Runs on one state file draw their ids after the flows it has recorded: a pipeline's payments never share a
/// 3-D Secure transaction id, and the same seed on the same file still replays them.
@Suite struct RunGenerationTests {
    static let card = #"{"card":"4000000000002701","expiry":"01/30"}"#

    func transactionID(_ arguments: [String]) throws -> String? {
        let run = try BinaryRun.run(["run", "payer-auth"] + arguments, stdin: Self.card)
        #expect(run.status == 0, "\(run.stderr)")
        return (run.results.first?["payment"] as? [String: Any])?["threeDSServerTransID"] as? String
    }

    @Test func paymentsOnOneStateFileHaveTheirOwnTransactionIds() throws {
        let state = scratchPath("idp-tui-generation", "/state.sqlite")
        let ephemeral = try #require(try transactionID(["--ephemeral"]))
        let first = try #require(try transactionID(["--state", state]))
        #expect(first == ephemeral, "a fresh file draws from the seed itself, as --ephemeral does")
        // The file as it is after one flow, to replay the second run on.
        let copy = scratchPath("idp-tui-generation-copy", ".sqlite")
        try FileManager.default.copyItem(atPath: state, toPath: copy)
        let second = try #require(try transactionID(["--state", state]))
        #expect(second != first)
        let third = try #require(try transactionID(["--state", state]))
        #expect(third != first && third != second)
        #expect(try transactionID(["--state", copy]) == second, "the same seed on the same file replays the run")
        #expect(try transactionID(["--ephemeral"]) == ephemeral)
    }

    /// Runs started on one file together, each with its world built and no flow recorded yet, draw apart: eight
    /// parallel payments on one file had seven the same transaction ids (each drew after the flows the file held).
    /// A copy of the file replays the generation that follows it.
    @Test func runsStartedTogetherOnOneFileDrawApart() throws {
        let path = freshStatePath()
        let first = try StateFile(path: path)
        let second = try StateFile(path: path)
        #expect(try first.reserveGeneration() == 0, "a fresh file draws from the seed itself")
        #expect(try second.reserveGeneration() == 1)
        first.close()
        second.close()
        let copy = scratchPath("idp-tui-generation-copy", ".sqlite")
        try FileManager.default.copyItem(atPath: path, toPath: copy)
        for file in [path, copy] {
            let state = try StateFile(path: file)
            defer { state.close() }
            #expect(try state.reserveGeneration() == 2, "a copy replays the generation that follows")
        }
    }

    /// A file another process keeps locked when the generation is reserved (taken between the run's two first writes)
    /// ends the run with that error: falling back to the flows recorded drew the ids another run on the file draws.
    /// The refused reservation takes no generation.
    @Test func aLockHeldAtTheReservationIsThrownAndTakesNone() throws {
        let path = freshStatePath()
        let holder = try StateFile(path: path)
        let run = try StateFile(path: path)
        defer { run.close() }
        try holder.executeForTesting("BEGIN IMMEDIATE")
        var refused: StateError?
        do throws(StateError) { _ = try run.reserveGeneration() } catch { refused = error }
        try holder.executeForTesting("ROLLBACK")
        holder.close()
        #expect(refused?.description == "the state file \(path) stayed locked by another process for 10 s")
        #expect(try run.reserveGeneration() == 0, "the refused reservation took no generation")
    }
}
