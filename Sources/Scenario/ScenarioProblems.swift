import JSONText

/// One thing wrong with a scenario file: where (JSON path, and line and column when known) and what.
public struct ScenarioProblem: Sendable, Equatable, CustomStringConvertible {
    /// e.g. `$.identityProvider.tenants[0].users[1].password`; empty for the file itself (it cannot be read, it is
    /// a folder, it is too large), which no JSON path names (`$: the file is a folder` read as a JSON problem).
    public let path: String
    public let position: TextPosition?
    public let message: String

    package init(path: String, position: TextPosition?, message: String) {
        self.path = path
        self.position = position
        self.message = message
    }

    public var description: String {
        (position.map { "line \($0.line), column \($0.column): " } ?? "") + placed
    }

    /// The message after its JSON path, if it has one.
    public var placed: String { path.isEmpty ? message : "\(path): \(message)" }
}

/// Every problem of one file, in the order found.
public struct ScenarioProblems: Error, Sendable {
    public let problems: [ScenarioProblem]
    /// False when checking stopped at a problem (the file is not JSON): what follows it was not checked.
    public let complete: Bool

    public init(_ problems: [ScenarioProblem], complete: Bool = true) {
        self.problems = problems
        self.complete = complete
    }

    /// The problems in the file's order, as a compiler lists its errors (the reader finds them in the format's
    /// order: an object's unknown keys before its values); problems of the whole file, which have no place, first.
    /// The first of them is the one a command that cannot go on reports.
    public var inFileOrder: [ScenarioProblem] {
        problems.enumerated().sorted { a, b in
            let (x, y) = (a.element.position ?? .unplaced, b.element.position ?? .unplaced)
            return (x.line, x.column, a.offset) < (y.line, y.column, b.offset)
        }.map(\.element)
    }
}
