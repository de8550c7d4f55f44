import FlowRecords
import Q2ModuleInterfaces
import Crypto
import FlowService
import Foundation
import KSMasterController
import DropsWeb
import SafepayDropsSDK
import Scenario
import StateStore

/// The command line of `idp-tui run FLOW [FLOW…] [options]`, and of `idp-tui [options]` (the terminal UI),
/// which shares the engine options.
public struct RunOptions: Sendable {
    public enum Mode: Sendable {
        case headless
        case terminal
    }

    public var flows: [FlowKind] = []
    /// `--theme NAME|FILE`, terminal only.
    public var theme: String?
    /// `-` for standard input.
    public var answersPath = "-"
    public var seed: UInt64 = 1
    public var promptTimeout: Duration = .seconds(300)
    public var authenticationMode: KSMAuthenticationMode = .no
    public var shouldHashPin = false
    public var certificateChainPath: String?
    /// `--bridge-fault`, repeatable: faults the simulated Drops page shows in every payment.
    public var bridgeFaults = BridgeFaults.none
    /// `--bridge-timing swift|web`.
    public var bridgeTiming = BridgeTiming.swiftHost
    /// `--scenario FILE`; nil runs the embedded default.
    public var scenarioPath: String?
    /// `--state FILE`; nil is the default file.
    public var statePath: String?
    /// `--ephemeral`: keep state in memory only.
    public var ephemeral = false
    /// `--launch normal|deep-link|push`: how the app was opened (the Q2 module).
    public var launch = Q2Launch.normal
    /// `--insecure-device REASON`: the security module denies Q2 logins.
    public var insecureDeviceReason: String?

    public init() {}

    static let bridgeFaultNames = ["lose-acks:N", "lose-every-ack", "ready-never-comes", "malformed-message", "unknown-event", "wrong-origin"]

    public static let usage = """
        usage: idp-tui run FLOW [FLOW…] [--answers FILE|-] [--seed N] [--prompt-timeout SECONDS]
                           [--auth-mode no|biometric|password|pin] [--hash-pin] [--certificate-chain FILE]
                           [--bridge-fault FAULT]… [--bridge-timing swift|web] [--scenario FILE]
                           [--state FILE | --ephemeral] [--launch normal|deep-link|push] [--insecure-device REASON]
        flows: \(FlowKind.allCases.map(\.rawValue).joined(separator: ", "))
        bridge faults (payer-auth): \(bridgeFaultNames.joined(separator: ", "))
        """

    public static let terminalUsage = """
        usage: idp-tui [--theme NAME|FILE] [--seed N] [--prompt-timeout SECONDS]
                       [--auth-mode no|biometric|password|pin] [--hash-pin] [--certificate-chain FILE]
                       [--bridge-fault FAULT]… [--bridge-timing swift|web] [--scenario FILE]
                       [--state FILE | --ephemeral] [--launch normal|deep-link|push] [--insecure-device REASON]
        themes: default, high-contrast, monochrome, or a theme file (NO_COLOR selects monochrome)
        bridge faults (Pay with card): \(bridgeFaultNames.joined(separator: ", "))
        """

    /// Parses the arguments after `run` (headless), or all arguments (terminal).
    public static func parse(_ arguments: [String], mode: Mode = .headless) throws(UsageError) -> RunOptions {
        let command = mode == .headless ? "run: " : ""
        var options = RunOptions()
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            let (flag, inline) = split(argument)
            func value() throws(UsageError) -> String {
                if let inline { return inline }
                guard let next = rest.popFirst() else { throw UsageError("\(command)\(flag) needs a value") }
                return next
            }
            switch flag {
            case "--answers" where mode == .headless: options.answersPath = try value()
            case "--theme" where mode == .terminal: options.theme = try value()
            case "--seed":
                let text = try value()
                guard let seed = UInt64(text) else { throw UsageError("\(command)--seed takes a whole number from 0 to \(UInt64.max), not \"\(text)\"") }
                options.seed = seed
            case "--prompt-timeout":
                let text = try value()
                guard let seconds = Double(text), seconds > 0, seconds <= 86_400 else {
                    throw UsageError("\(command)--prompt-timeout takes a number of seconds above 0 and at most 86400, not \"\(text)\"")
                }
                options.promptTimeout = .milliseconds(Int64(seconds * 1000))
            case "--auth-mode":
                let text = try value()
                guard let mode = KSMAuthenticationMode(rawValue: text) else {
                    throw UsageError("\(command)--auth-mode takes no, biometric, password or pin, not \"\(text)\"")
                }
                options.authenticationMode = mode
            case "--hash-pin":
                if inline != nil { throw UsageError("\(command)--hash-pin takes no value") }
                options.shouldHashPin = true
            case "--certificate-chain": options.certificateChainPath = try value()
            case "--scenario": options.scenarioPath = try value()
            case "--state": options.statePath = try value()
            case "--launch":
                let text = try value()
                guard let launch = Q2Launch(rawValue: text) else {
                    throw UsageError("\(command)--launch takes normal, deep-link or push, not \"\(text)\"")
                }
                options.launch = launch
            case "--insecure-device":
                let text = try value()
                guard !text.trimmingCharacters(in: .whitespaces).isEmpty, text.count <= 200,
                    !text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7f })
                else { throw UsageError("\(command)--insecure-device takes a reason of 1 to 200 characters, without control characters") }
                options.insecureDeviceReason = text
            case "--ephemeral":
                if inline != nil { throw UsageError("\(command)--ephemeral takes no value") }
                options.ephemeral = true
            case "--bridge-fault":
                let text = try value()
                switch text {
                case "lose-every-ack": options.bridgeFaults.loseEveryAck = true
                case "ready-never-comes": options.bridgeFaults.readyNeverComes = true
                case "malformed-message": options.bridgeFaults.malformedMessage = true
                case "unknown-event": options.bridgeFaults.unknownEvent = true
                case "wrong-origin": options.bridgeFaults.wrongOrigin = true
                default:
                    guard text.hasPrefix("lose-acks:"), let count = Int(text.dropFirst("lose-acks:".count)), (1...100).contains(count) else {
                        throw UsageError("\(command)--bridge-fault takes \(bridgeFaultNames.joined(separator: ", ")) (N from 1 to 100), not \"\(text)\"")
                    }
                    options.bridgeFaults.lostAcks = count
                }
            case "--bridge-timing":
                let text = try value()
                switch text {
                case "swift": options.bridgeTiming = .swiftHost
                case "web": options.bridgeTiming = .webHosts
                default: throw UsageError("\(command)--bridge-timing takes swift (1.5 s, 3 retries) or web (1 s, 2 retries), not \"\(text)\"")
                }
            default:
                if argument.hasPrefix("-") && argument != "-" {
                    throw UsageError("\(command)unknown option \(flag); see idp-tui \(mode == .headless ? "run " : "")--help")
                }
                guard mode == .headless else {
                    throw UsageError("unknown command or option \"\(argument)\"; see idp-tui --help")
                }
                guard let flow = FlowKind(rawValue: argument) else {
                    throw UsageError("run: unknown flow \"\(argument)\"; flows: \(FlowKind.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                options.flows.append(flow)
            }
        }
        if options.ephemeral && options.statePath != nil {
            throw UsageError("\(command)--state and --ephemeral exclude each other: keep state in FILE, or in memory only")
        }
        guard mode == .terminal || !options.flows.isEmpty else {
            throw UsageError("run: name at least one flow (\(FlowKind.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        return options
    }

    private static func split(_ argument: String) -> (String, String?) {
        guard argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
        return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
    }
}

extension RunOptions {
    /// The flow service these options describe, on the embedded default scenario.
    public func makeService(mode: Mode = .headless) throws(UsageError) -> FlowService {
        let scenario = try loadScenario(mode: mode)
        return makeService(scenario: scenario, configuration: try flowConfiguration(mode: mode, scenario: scenario),
                           state: try openState(mode: mode))
    }

    /// The flow service on a scenario and configuration already read, keeping what outlives the process in
    /// `state` (nil: in memory). The one place a service is built, for the terminal UI and the headless runner.
    public func makeService(scenario: Scenario, configuration: FlowConfiguration, state: StateFile?) -> FlowService {
        let stores = state.map { SimulationStores(identityProvider: $0.identityProviderStore, device: $0.deviceStore) } ?? .memory()
        return FlowService(
            environment: SimulationEnvironment(scenario: scenario, seed: seed, stores: stores), configuration: configuration,
            history: state?.history ?? MemoryFlowHistory())
    }

    /// The state file these options name (nil with `--ephemeral`), opened and migrated.
    public func openState(mode: Mode = .headless) throws(UsageError) -> StateFile? {
        guard !ephemeral else { return nil }
        do {
            return try StateFile(path: statePath ?? StateFile.defaultPath())
        } catch {
            throw UsageError((mode == .headless ? "run: " : "") + error.description)
        }
    }

    /// The scenario named by `--scenario`, or the embedded default. A file with problems is a usage error that
    /// gives the first problem and the command that lists them all.
    public func loadScenario(mode: Mode = .headless) throws(UsageError) -> Scenario {
        guard let path = scenarioPath else { return .embeddedDefault }
        switch ScenarioFile.read(path: path) {
        case .success(let scenario): return scenario
        case .failure(let failure):
            let command = mode == .headless ? "run: " : ""
            let count = failure.problems.count
            let more = count > 1 ? " (and \(count - 1) more: idp-tui scenario check \(path))" : ""
            throw UsageError("\(command)scenario \(path): \(failure.problems.first?.description ?? "unreadable")\(more)")
        }
    }

    /// The app side's configuration; reads and checks the certificate chain file if one is named.
    public func flowConfiguration(mode: Mode = .headless, scenario: Scenario? = nil) throws(UsageError) -> FlowConfiguration {
        let command = mode == .headless ? "run: " : ""
        let faults = (scenario?.bridgeFaults ?? .none).merged(with: bridgeFaults)
        var configuration = FlowConfiguration(
            shouldHashPin: shouldHashPin, authenticationMode: authenticationMode, promptTimeout: promptTimeout,
            bridgeTiming: bridgeTiming, bridgeFaults: faults)
        configuration.q2Launch = launch
        configuration.insecureDeviceReason = insecureDeviceReason
        if let path = certificateChainPath {
            let pem = try RunCommand.readText(path, what: "certificate chain", command: command)
            do {
                _ = try CertificateChain(pem: pem)
            } catch {
                throw UsageError("\(command)the certificate chain file \(path) is unusable: \(error.description)")
            }
            configuration.certificateChainPEM = pem
        }
        return configuration
    }
}
