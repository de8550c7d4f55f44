import Foundation
import Testing

/// App code compiled against the SDK modules this test run built (`swiftc -typecheck`): the SDKs call
/// `provideCredentials` and the MC-SDK consumer's `receive` on their own threads, so a `@MainActor` conformance,
/// which Swift 6.2 would otherwise accept and the SDK then call off the main actor unchecked, is refused when it
/// is compiled; the `nonisolated` form docs/sdk-usage.md shows compiles.
@Suite struct IsolatedConformanceTests {
    struct Typecheck {
        let status: Int32
        let errors: String
    }

    /// `arguments`: more of swiftc's (`-enable-upcoming-feature MemberImportVisibility`).
    static func typecheck(_ source: String, arguments: [String] = []) throws -> Typecheck {
        let build = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let scratch = try ToolScratch("typecheck")
        let file = scratch.path("App.swift")
        try Data(source.utf8).write(to: file)
        // Every C module's map (the SDK modules import libcrypto's and SQLite's), and a module cache of its own.
        let sources = root.appendingPathComponent("Sources")
        let maps = try FileManager.default.contentsOfDirectory(atPath: sources.path).sorted()
            .map { sources.appendingPathComponent("\($0)/module.modulemap").path }
            .filter { FileManager.default.fileExists(atPath: $0) }
            .map { "-fmodule-map-file=" + $0 }
        let process = try scratch.process(["swiftc", "-swift-version", "6", "-typecheck",
                                           "-module-cache-path", scratch.path("module-cache").path,
                                           "-I", build.appendingPathComponent("Modules").path]
            + maps.flatMap { ["-Xcc", $0] } + arguments + [file.path])
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return Typecheck(status: process.terminationStatus, errors: text)
    }

    static let interaction = """
        import IdpSdk
        @MainActor final class LoginModel: ISOLATION IdpSdkInteractionInterface {
            var asked = 0
            METHOD provideCredentials(_ interactionData: IdpSdkInteractionData) -> IdpSdkProvideCredentialsResult {
                IdpSdkProvideCredentialsResult(credentials: [:])
            }
        }
        """

    static let consumer = """
        import KSMasterController
        @MainActor final class AppConsumer: ISOLATION KSAsyncEventReceiver {
            var heard: [String] = []
            METHOD receive(_ event: any KsEvent, withCompletionHandler completionBlock: (((any KsEvent)?) -> Void)?) {}
        }
        """

    #if compiler(>=6.2)
    @Test(arguments: [("IdpSdkInteractionInterface", interaction), ("KSAsyncEventReceiver", consumer)])
    func aMainActorConformanceIsRefusedWhenCompiled(_ name: String, _ source: String) throws {
        let isolated = try Self.typecheck(source.replacingOccurrences(of: "ISOLATION", with: "@MainActor")
            .replacingOccurrences(of: "METHOD", with: "func"))
        #expect(isolated.status != 0)
        #expect(isolated.errors.contains("isolated conformance"), "\(isolated.errors)")
        #expect(isolated.errors.contains("'\(name)'"), "\(isolated.errors)")

        let nonisolated = try Self.typecheck(source.replacingOccurrences(of: "ISOLATION", with: "")
            .replacingOccurrences(of: "METHOD", with: "nonisolated func"))
        #expect(nonisolated.status == 0, "\(nonisolated.errors)")
    }
    #endif
}
