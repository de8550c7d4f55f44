import Foundation
import Testing

/// What idp-tui's own modules add to the standard library's and Foundation's types is idp-tui's alone (`package`):
/// app code that imports the products sees the members of every module they load, whether it imports them or not
/// (without Swift's `MemberImportVisibility`), and a `Duration.milliseconds` it leaned on there would not compile
/// against the real SDKs. A tester's app used `d.milliseconds`, `d.secondsText` and
/// `DispatchQueue.async(counting:execute:)` with only the vendors' modules imported (session 51).
@Suite struct StandardTypeExtensionTests {
    static let products = ["Foundation", "IdpSdk", "KSMasterController", "kssidp", "SafepayDropsSDK", "Q2ModuleInterfaces", "IdpTuiWorld"]
        .map { "import \($0)" }.joined(separator: "\n")

    /// Each was public in a module that is no product (Determinism, IdentityProvider, JSONText, Threading).
    static let leaked: [(use: String, member: String)] = [
        ("let d: Duration = .milliseconds(2500); _ = d.milliseconds", "milliseconds"),
        ("let d: Duration = .milliseconds(2500); _ = d.nanoseconds", "nanoseconds"),
        ("let d: Duration = .milliseconds(2500); _ = d.microseconds", "microseconds"),
        ("let d: Duration = .milliseconds(2500); _ = d.secondsText", "secondsText"),
        ("_ = Unicode.Scalar(7).isControlCharacter", "isControlCharacter"),
        ("DispatchQueue.global().async(counting: nil) {}", "counting"),
    ]

    @Test func appCodeDoesNotSeeIdpTuisMembersOfStandardTypes() throws {
        // The products themselves are found: the same file without the members compiles.
        let plain = try IsolatedConformanceTests.typecheck(Self.products + "\nfunc f() { let d: Duration = .milliseconds(2500); _ = d.components }\n")
        #expect(plain.status == 0, "\(plain.errors)")
        for (use, member) in Self.leaked {
            let checked = try IsolatedConformanceTests.typecheck(Self.products + "\nfunc f() { \(use) }\n")
            #expect(checked.status != 0, "\(use) compiled against the products")
            #expect(checked.errors.contains(member), "\(use): \(checked.errors)")
        }
    }

    /// Every module a product loads, as its symbol graph says: no public member on another package's type (the
    /// standard library's, Foundation's, Dispatch's), so a new helper cannot leak the way those did.
    @Test func noModuleAProductLoadsExtendsAnotherPackagesTypesPublicly() throws {
        let graph = try PackageGraph.describe()
        let build = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let modules = build.appendingPathComponent("Modules")
        let loaded = graph.libraries.values.flatMap { $0 }.reduce(into: Set<String>()) { $0.formUnion(graph.closure(of: $1)) }
            .filter { FileManager.default.fileExists(atPath: modules.appendingPathComponent("\($0).swiftmodule").path) }
        #expect(loaded.isSuperset(of: ["IdpSdk", "Threading", "Determinism", "JSONText", "IdentityProvider"]), "\(loaded.sorted())")
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let sources = root.appendingPathComponent("Sources")
        let maps = try FileManager.default.contentsOfDirectory(atPath: sources.path).sorted()
            .map { sources.appendingPathComponent("\($0)/module.modulemap").path }
            .filter { FileManager.default.fileExists(atPath: $0) }
            .flatMap { ["-Xcc", "-fmodule-map-file=" + $0] }
        let scratch = try ToolScratch("symbols")
        var leaks: [String] = []
        for module in loaded.sorted() {
            let output = scratch.path(module)
            try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
            let process = try scratch.process(["swift-symbolgraph-extract", "-module-name", module, "-I", modules.path,
                                               "-minimum-access-level", "public", "-output-dir", output.path,
                                               "-module-cache-path", scratch.path("module-cache").path] + maps)
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            let files = try FileManager.default.contentsOfDirectory(atPath: output.path)
            #expect(files.contains("\(module).symbols.json"), "no symbol graph for \(module)")
            // `Module@Other.symbols.json`: what `Module` adds to `Other`'s types.
            for file in files where file.contains("@") {
                let other = String(file.split(separator: "@")[1].dropLast(".symbols.json".count))
                guard !graph.dependencies.keys.contains(other) else { continue }
                let data = try Data(contentsOf: output.appendingPathComponent(file))
                let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
                for symbol in json["symbols"] as? [[String: Any]] ?? [] {
                    leaks.append("\(module): \((symbol["pathComponents"] as? [String] ?? []).joined(separator: "."))")
                }
            }
        }
        #expect(leaks.isEmpty, "public members on other packages' types: \(leaks)")
    }
}
