/// Bad input to the command line: a flag, a flow name, the answers. Reported as one line on stderr with exit
/// status 2.
public struct UsageError: Error, Equatable, CustomStringConvertible {
    public let message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }

    /// Exit status for bad input.
    public static let exitStatus: Int32 = 2
}
