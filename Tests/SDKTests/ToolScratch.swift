import Foundation

/// A folder of its own for one run of a toolchain program (`swift package`, `swiftc`), removed afterwards with
/// everything in it. The program gets it as `TMPDIR` too: swift-driver leaves a `TemporaryDirectory.*` folder
/// and SwiftPM a `.lock` file in the temporary folder at every run, and a test must not leave them in /tmp.
struct ToolScratch: ~Copyable {
    let url: URL

    init(_ label: String) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("idp-tui-\(label)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    func path(_ name: String) -> URL { url.appendingPathComponent(name) }

    /// `/usr/bin/env arguments…` with `TMPDIR` pointing into the scratch folder.
    func process(_ arguments: [String]) throws -> Process {
        let tmp = path("tmp")
        try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["TMPDIR"] = tmp.path
        process.environment = environment
        return process
    }
}
