import Foundation

/// Runs the built `idp-tui` binary and captures what it prints.
struct BinaryRun {
    let status: Int32
    let stdout: String
    let stderr: String

    /// The executable sits beside the test bundle in the build directory.
    static let executable: URL = URL(fileURLWithPath: CommandLine.arguments[0])
        .deletingLastPathComponent().appendingPathComponent("idp-tui")

    /// Each run gets a state folder of its own (`XDG_STATE_HOME`) unless `environment` names one, so that runs
    /// build on each other only when a test says so (with `--state FILE`), and a UTF-8 locale (`LANG=C.UTF-8`,
    /// whatever the test runner's; an empty value in `environment` counts as unset, as it does for locales).
    /// `stdoutTo`, when given, takes the standard output instead of a pipe read here (a device, a closed pipe).
    /// `executable` runs something else (a shell around idp-tui) the same way.
    /// `stdinFirst`: `stdin` (a pipe's worth at most) is in the pipe before the program starts, not written after.
    static func run(_ arguments: [String], stdin: String = "", environment: [String: String] = [:],
                    stdoutTo: FileHandle? = nil, executable: URL = executable, stdinFirst: Bool = false) throws -> BinaryRun {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env["XDG_STATE_HOME"] = scratchPath("idp-tui-state")
        // Plain mode spells its symbols in ASCII under a locale that is not UTF-8.
        env["LC_ALL"] = nil
        env["LC_CTYPE"] = nil
        env["LANG"] = "C.UTF-8"
        env.merge(environment) { $1 }
        process.environment = env
        let input = Pipe()
        let output = Pipe()
        let errors = Pipe()
        process.standardInput = input
        process.standardOutput = stdoutTo ?? output
        process.standardError = errors
        if stdinFirst { try input.fileHandleForWriting.write(contentsOf: Data(stdin.utf8)) }
        try process.run()
        if !stdinFirst { try input.fileHandleForWriting.write(contentsOf: Data(stdin.utf8)) }
        try input.fileHandleForWriting.close()
        // Read both pipes to the end before waiting, so that a full pipe cannot block the child.
        let group = DispatchGroup()
        nonisolated(unsafe) var errorData = Data()
        group.enter()
        DispatchQueue.global().async {
            errorData = errors.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let outputData = stdoutTo == nil ? output.fileHandleForReading.readDataToEndOfFile() : Data()
        group.wait()
        process.waitUntilExit()
        return BinaryRun(
            status: process.terminationStatus, stdout: String(decoding: outputData, as: UTF8.self),
            stderr: String(decoding: errorData, as: UTF8.self))
    }

    /// Each stdout line as a JSON object.
    var lines: [[String: Any]] {
        stdout.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    var results: [[String: Any]] { lines.filter { $0["type"] as? String == "result" } }
    var events: [[String: Any]] { lines.filter { $0["type"] as? String == "event" } }
}

enum Answers {
    static let aliceActivation = #"{"username":"alice","password":"wonderland","activation-code":"123456"}"#
    static let alice = #"{"username":"alice","password":"wonderland"}"#
    static let secrets = ["wonderland", "123456", "builder", "654321", "s3cr3t-typo"]
}

/// A long `run` in the background: its result lines read as they come, so that a test can act (kill it, signal
/// it) at a known point of it.
final class BackgroundRun {
    let process = Process()
    private let output = Pipe()
    private let errors = Pipe()
    private(set) var seen = Data()
    /// Its standard error, once ``finish()`` has read it.
    private(set) var errorText = ""

    /// Starts `idp-tui run` with `flows`, `answers` written to its standard input at once.
    init(flows: [String], answers: String, state: String) throws {
        process.executableURL = BinaryRun.executable
        process.arguments = ["run"] + flows + ["--state", state]
        let input = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        try input.fileHandleForWriting.write(contentsOf: Data(answers.utf8))
        try input.fileHandleForWriting.close()
    }

    /// How many result lines it has printed so far.
    var results: Int { seen.split(separator: UInt8(ascii: "\n")).filter { $0.starts(with: Array(#"{"type":"result""#.utf8)) }.count }

    /// Reads until `count` result lines are out (or the output ends).
    func waitForResults(_ count: Int) {
        while results < count {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            seen.append(chunk)
        }
    }

    /// Reads until the output holds `text` (or ends).
    func waitForOutput(containing text: String) {
        while !seen.contains(Data(text.utf8)) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            seen.append(chunk)
        }
    }

    /// Reads the rest of the output and waits for the process to end.
    func finish() {
        seen.append(output.fileHandleForReading.readDataToEndOfFile())
        errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
    }
}

/// The plain menu as the binary asks for a choice: its items are the families' flows, then KSSIDP comparison and
/// Quit. Tests that only pass through the menu name it by these, so that a new family's item changes them here;
/// PlainMenuTests and the home screen's snapshot pin the menu itself.
enum PlainMenu {
    static let count = 9
    static let question = "Choose 1-\(count)"
    /// The KSSIDP comparison's number.
    static let comparison = "\(count - 1)"
}
