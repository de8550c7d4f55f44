/// Why a text is not JSON, and where.
public struct JSONSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String
    public let position: TextPosition
    /// The text is JSON, but a number in it is beyond what a double holds (`1e400`): the callers do not call it
    /// "not valid JSON", which it is.
    public var isNumberOutOfRange = false

    public init(message: String, position: TextPosition) {
        self.message = message
        self.position = position
    }

    /// What a caller says of the document: "not valid JSON: …", or only the number's problem.
    public var documentProblem: String { isNumberOutOfRange ? message : "not valid JSON: \(message)" }

    public var description: String { "\(message) at \(position)" }
}
