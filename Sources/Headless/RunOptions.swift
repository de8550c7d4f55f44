import FlowService
import Foundation
import MCSDK

/// The command line of `idp-tui run FLOW [FLOW…] [options]`.
public struct RunOptions: Sendable {
    public var flows: [FlowKind] = []
    /// `-` for standard input.
    public var answersPath = "-"
    public var seed: UInt64 = 1
    public var promptTimeout: Duration = .seconds(300)
    public var authenticationMode: KSMAuthenticationMode = .no
    public var shouldHashPin = false
    public var certificateChainPath: String?

    public init() {}

    public static let usage = """
        usage: idp-tui run FLOW [FLOW…] [--answers FILE|-] [--seed N] [--prompt-timeout SECONDS]
                           [--auth-mode no|biometric|password|pin] [--hash-pin] [--certificate-chain FILE]
        flows: \(FlowKind.allCases.map(\.rawValue).joined(separator: ", "))
        """

    /// Parses the arguments after `run`.
    public static func parse(_ arguments: [String]) throws(UsageError) -> RunOptions {
        var options = RunOptions()
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            let (flag, inline) = split(argument)
            func value() throws(UsageError) -> String {
                if let inline { return inline }
                guard let next = rest.popFirst() else { throw UsageError("run: \(flag) needs a value") }
                return next
            }
            switch flag {
            case "--answers": options.answersPath = try value()
            case "--seed":
                let text = try value()
                guard let seed = UInt64(text) else { throw UsageError("run: --seed takes a whole number from 0 to \(UInt64.max), not \"\(text)\"") }
                options.seed = seed
            case "--prompt-timeout":
                let text = try value()
                guard let seconds = Double(text), seconds > 0, seconds <= 86_400 else {
                    throw UsageError("run: --prompt-timeout takes a number of seconds above 0 and at most 86400, not \"\(text)\"")
                }
                options.promptTimeout = .milliseconds(Int64(seconds * 1000))
            case "--auth-mode":
                let text = try value()
                guard let mode = KSMAuthenticationMode(rawValue: text) else {
                    throw UsageError("run: --auth-mode takes no, biometric, password or pin, not \"\(text)\"")
                }
                options.authenticationMode = mode
            case "--hash-pin":
                if inline != nil { throw UsageError("run: --hash-pin takes no value") }
                options.shouldHashPin = true
            case "--certificate-chain": options.certificateChainPath = try value()
            default:
                if argument.hasPrefix("-") && argument != "-" {
                    throw UsageError("run: unknown option \(flag); see idp-tui run --help")
                }
                guard let flow = FlowKind(rawValue: argument) else {
                    throw UsageError("run: unknown flow \"\(argument)\"; flows: \(FlowKind.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                options.flows.append(flow)
            }
        }
        guard !options.flows.isEmpty else {
            throw UsageError("run: name at least one flow (\(FlowKind.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        return options
    }

    private static func split(_ argument: String) -> (String, String?) {
        guard argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
        return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
    }
}
