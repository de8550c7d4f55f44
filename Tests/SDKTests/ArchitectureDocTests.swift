import Foundation
import Testing

/// docs/architecture.md's module table says what Package.swift says: every module, and no import it does not
/// have.
@Suite struct ArchitectureDocTests {
    /// Each row's module, the modules its "imports" column names (prose and `…` left out), and whether the column
    /// says it names only some (a `…`, or prose such as "the families").
    static func table() throws -> [String: (named: Set<String>, partial: Bool)] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let text = try String(contentsOf: root.appendingPathComponent("docs/architecture.md"), encoding: .utf8)
        let start = try #require(text.range(of: "## Modules and which way they import"))
        let section = text[start.upperBound...].prefix { _ in true }
        let end = section.range(of: "\n## ")?.lowerBound ?? section.endIndex
        var rows: [String: (named: Set<String>, partial: Bool)] = [:]
        for line in section[..<end].split(separator: "\n") where line.hasPrefix("| `") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 4, cells[1].hasPrefix("`") else { continue }
            let name = cells[1].trimmingCharacters(in: CharacterSet(charactersIn: "`"))
            let imports = cells[3].split(whereSeparator: { ", ()".contains($0) }).map(String.init)
            rows[name] = (Set(imports.filter { $0.first?.isUppercase == true || $0 == "kssidp" }),
                          cells[3].contains("…") || imports.contains("the"))
        }
        return rows
    }

    @Test func theModuleTableListsEveryModuleAndOnlyImportsTheyHave() throws {
        let graph = try PackageGraph.describe()
        let table = try Self.table()
        let modules = Set(graph.dependencies.keys.filter { !$0.hasSuffix("Tests") })
        #expect(Set(table.keys) == modules, "missing from the table: \(modules.subtracting(table.keys).sorted()); not modules: \(Set(table.keys).subtracting(modules).sorted())")
        // Words in the column that are module names must be real dependencies ("the SDK surfaces" and the like
        // are prose and name no module).
        for (module, row) in table {
            let real = Set(graph.dependencies[module] ?? [])
            let claimed = row.named.intersection(modules)
            #expect(claimed.isSubset(of: real), "\(module) does not import \(claimed.subtracting(real).sorted())")
            // A column that does not say it names only some names them all: a row that left one out read as a
            // module that does not import it.
            if !row.partial {
                #expect(real.isSubset(of: claimed), "\(module)'s row leaves out \(real.subtracting(claimed).sorted()) (or say … )")
            }
        }
    }

    /// The graph at the top names every module (C shims included): a module added to Package.swift and the table but
    /// not the graph (CSQLite, CSignalFD, CTextWidth, LocaleText were) drew a graph of fewer modules than there are.
    @Test func theGraphNamesEveryModule() throws {
        let graph = try PackageGraph.describe()
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let text = try String(contentsOf: root.appendingPathComponent("docs/architecture.md"), encoding: .utf8)
        let section = try #require(text.range(of: "## Modules and which way they import")).upperBound
        let opening = try #require(text.range(of: "```", range: section..<text.endIndex))
        let closing = try #require(text.range(of: "```", range: opening.upperBound..<text.endIndex))
        let words = Set(text[opening.upperBound..<closing.lowerBound].split { !($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }.map(String.init))
        let modules = Set(graph.dependencies.keys.filter { !$0.hasSuffix("Tests") })
        #expect(modules.subtracting(words).isEmpty, "the graph leaves out \(modules.subtracting(words).sorted())")
    }

    /// Package.swift declares what each module imports, and nothing it does not: the table above is checked against
    /// the declarations, so a declared dependency no file imports (IdpFlows declared IdpTuiWorld) or an import
    /// reached only through another module (idp-tui's FlowEngine) made the table and the graph wrong unseen.
    @Test func everyModuleDeclaresExactlyWhatItImports() throws {
        let graph = try PackageGraph.describe()
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let toolchain: Set<String> = ["Foundation", "FoundationEssentials", "Dispatch", "CDispatch", "Synchronization", "Glibc", "Testing", "XCTest"]
        let importLine = try Regex(#"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:public\s+|package\s+|internal\s+)?import\s+(?:(?:struct|class|enum|func|protocol|typealias)\s+)?(\w+)"#)
        var checked = 0
        var testsChecked = 0
        for (module, declared) in graph.dependencies {
            // A test target imports only what it declares too (two imported a module reached through another); it
            // may declare more: an executable it runs (idp-tui), built first.
            let isTest = module.hasSuffix("Tests")
            let folder = root.appendingPathComponent("\(isTest ? "Tests" : "Sources")/\(module)")
            guard let files = FileManager.default.enumerator(atPath: folder.path)?.compactMap({ $0 as? String }).filter({ $0.hasSuffix(".swift") }),
                  !files.isEmpty else { continue }
            var imported: Set<String> = []
            for file in files {
                let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
                for line in text.split(separator: "\n") {
                    if let match = try importLine.firstMatch(in: String(line)), let name = match.output[1].substring { imported.insert(String(name)) }
                }
            }
            imported.subtract(toolchain)
            // A test's embedded Python (`import json` in a string) is no Swift import.
            if isTest { imported.formIntersection(graph.dependencies.keys) }
            #expect(imported.subtracting(declared).isEmpty, "\(module) imports \(imported.subtracting(declared).sorted()) without declaring it")
            if !isTest {
                #expect(Set(declared).subtracting(imported).isEmpty, "\(module) declares \(Set(declared).subtracting(imported).sorted()) and imports none of it")
            }
            checked += isTest ? 0 : 1
            testsChecked += isTest ? 1 : 0
        }
        #expect(checked > 20 && testsChecked >= 13, "\(checked) modules, \(testsChecked) test targets")
    }

    /// No source file is over 400 lines (issue 13), the tests' included: a file that grows past it is split by what
    /// its parts do. Two had grown past it unnoticed (ParityCheck.swift 411, StateFile.swift 408), and four test files.
    @Test(arguments: ["Sources", "Tests"])
    func noSourceFileIsOver400Lines(_ folder: String) throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let sources = root.appendingPathComponent(folder)
        let files = try #require(FileManager.default.enumerator(atPath: sources.path)).compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }
        #expect(files.count > 100)
        for file in files {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).count - (text.hasSuffix("\n") ? 1 : 0)
            #expect(lines <= 400, "\(folder)/\(file): \(lines) lines")
        }
    }
}
