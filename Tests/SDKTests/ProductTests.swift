import Foundation
import Testing

/// The package as SwiftPM describes it (`swift package describe`), read from a scratch directory of its own so
/// that it does not wait for the build the tests run in.
struct PackageGraph {
    let libraries: [String: [String]]
    let dependencies: [String: [String]]

    static func describe() throws -> PackageGraph {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("idp-tui-describe-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swift", "package", "--package-path", root.path, "--scratch-path", scratch.path, "describe", "--type", "json"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let targets = try #require(json["targets"] as? [[String: Any]])
        let products = try #require(json["products"] as? [[String: Any]])
        var dependencies: [String: [String]] = [:]
        for target in targets {
            guard let name = target["name"] as? String else { continue }
            dependencies[name] = target["target_dependencies"] as? [String] ?? []
        }
        var libraries: [String: [String]] = [:]
        for product in products where (product["type"] as? [String: Any])?["library"] != nil {
            guard let name = product["name"] as? String else { continue }
            libraries[name] = product["targets"] as? [String] ?? []
        }
        return PackageGraph(libraries: libraries, dependencies: dependencies)
    }

    /// Every target `target` needs, itself included.
    func closure(of target: String) -> Set<String> {
        var seen: Set<String> = [target]
        var waiting = [target]
        while let next = waiting.popLast() {
            for dependency in dependencies[next] ?? [] where seen.insert(dependency).inserted { waiting.append(dependency) }
        }
        return seen
    }
}

@Suite struct ProductTests {
    @Test func eachVendorModuleIsALibraryThatNeedsNoTerminalCode() throws {
        let graph = try PackageGraph.describe()
        #expect(Set(graph.libraries.keys) == ["KSMasterController", "IdpSdk", "kssidp", "SafepayDropsSDK", "Q2ModuleInterfaces", "IdpTuiWorld"])
        let terminal: Set = ["CNcurses", "CursesBackend", "TerminalUI", "CTextWidth", "CWakeup", "FlowService", "Headless", "StateStore", "CSQLite"]
        for (product, targets) in graph.libraries {
            let needs = targets.reduce(into: Set<String>()) { $0.formUnion(graph.closure(of: $1)) }
            #expect(needs.isDisjoint(with: terminal), "\(product) needs \(needs.intersection(terminal).sorted())")
        }
    }
}
