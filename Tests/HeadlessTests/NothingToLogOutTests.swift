import Foundation
import Testing

/// A logout that found nobody logged in succeeds as one that did (`success OK`): its record says which, as its
/// result screen ("Nothing to log out") and its result line (`wasLoggedIn: false`) do. The history showed the two
/// alike.
@Suite struct NothingToLogOutTests {
    @Test func theTranscriptOfALogoutWithNobodyLoggedInSaysSo() throws {
        let state = freshStatePath()
        let answers = #"[{"username":"alice","password":"wonderland","activation-code":"123456"},{},{}]"#
        let run = try BinaryRun.run(["run", "activate", "logout", "logout", "--state", state], stdin: answers)
        #expect(run.status == 0, "\(run.stderr)")
        let real = try BinaryRun.run(["history", "show", "2", "--state", state])
        let empty = try BinaryRun.run(["history", "show", "3", "--state", state])
        #expect(!real.stdout.contains("nothing to log out"), "\(real.stdout)")
        #expect(empty.stdout.split(separator: "\n").dropFirst().first == "nothing to log out: no user was logged in", "\(empty.stdout)")
        // The list names the user a logout logged out, and nobody for the one that had nothing to log out.
        let list = try BinaryRun.run(["history", "--json", "--state", state])
        let users = list.stdout.split(separator: "\n").map { $0.contains("\"user\":\"alice\"") }
        #expect(users == [false, true, true], "\(list.stdout)")
    }

    @Test func onADeviceNeverActivatedItSaysThat() throws {
        let state = freshStatePath()
        _ = try BinaryRun.run(["run", "logout", "--state", state], stdin: "")
        let show = try BinaryRun.run(["history", "show", "1", "--state", state])
        #expect(show.stdout.contains("nothing to log out: this device is not activated"), "\(show.stdout)")
    }
}
