import Foundation
import Testing

/// The package as SwiftPM describes it (`swift package describe`), read from a scratch directory of its own so
/// that it does not wait for the build the tests run in.
struct PackageGraph {
    let libraries: [String: [String]]
    let dependencies: [String: [String]]
    /// Targets that declare resources (SwiftPM bundles them beside the executable).
    let withResources: Set<String>

    static func describe() throws -> PackageGraph {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let scratch = try ToolScratch("describe")
        let process = try scratch.process(["swift", "package", "--package-path", root.path,
                                           "--scratch-path", scratch.path("build").path, "describe", "--type", "json"])
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
        var withResources: Set<String> = []
        for target in targets {
            guard let name = target["name"] as? String else { continue }
            dependencies[name] = target["target_dependencies"] as? [String] ?? []
            if let resources = target["resources"] as? [Any], !resources.isEmpty { withResources.insert(name) }
        }
        var libraries: [String: [String]] = [:]
        for product in products where (product["type"] as? [String: Any])?["library"] != nil {
            guard let name = product["name"] as? String else { continue }
            libraries[name] = product["targets"] as? [String] ?? []
        }
        return PackageGraph(libraries: libraries, dependencies: dependencies, withResources: withResources)
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

    /// A resource bundle is looked for beside the executable and then in the build directory it was built in: a
    /// copied or installed binary whose build directory is gone crashed at its first use (the IdP's certificate
    /// chains were one, and every flow needs the IdP). What the binary needs is compiled in.
    @Test func noModuleShipsAResourceBundleSoTheBinaryRunsWhereverItIsCopied() throws {
        let graph = try PackageGraph.describe()
        let shipped = graph.libraries.values.reduce(into: graph.closure(of: "idp-tui")) { $0.formUnion($1.flatMap(graph.closure)) }
        #expect(graph.withResources.intersection(shipped).isEmpty, "resources in \(graph.withResources.intersection(shipped).sorted())")
    }
}
