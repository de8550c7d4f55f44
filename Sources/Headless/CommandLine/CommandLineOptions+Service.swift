import Crypto
import Determinism
import FlowCatalog
import FlowEngine
import FlowRecords
import IdentityProvider
import JSONText
import Scenario
import Simulation
import StateStore

// What the options build for a command that runs flows: the scenario, the app's configuration, the state file,
// and the service on them (the World's environment, every family registered).
extension CommandLineOptions {
    /// The scenario and configuration these options name, read and checked, and the state file's path checked
    /// without opening it: all a service needs but the state file.
    public func readInputs(for command: Command = .run) throws(UsageError) -> (scenario: Scenario, configuration: FlowConfiguration) {
        // The world's parts that no scenario changes load on another thread while the scenario is read.
        IdentityProviderCertificates.prepareInBackground()
        let inputs = (try loadScenario(for: command), try flowConfiguration(for: command))
        if !ephemeral, let path = statePath {
            do {
                try StateFile.checkBeforeOpening(path)
            } catch {
                throw UsageError(command.prefix + error.description)
            }
        }
        return inputs
    }

    /// The service on inputs ``readInputs(for:)`` read, the state file opened now, and a note of the scenario in use
    /// to record in the state file once the flows start (``StateFile/useScenario(named:)``: a run stopped for bad
    /// input records no scenario, only the generation of randomness it took; a file another process keeps locked
    /// stops the run there).
    public func makeService(_ inputs: (scenario: Scenario, configuration: FlowConfiguration), for command: Command = .run)
        throws(UsageError) -> (service: FlowService, noteScenario: () throws(UsageError) -> Void)
    {
        let state = try openState(for: command)
        let note = { () throws(UsageError) in
            if let note = try Self.useScenario(inputs.scenario, in: state) { writeErrorLine("idp-tui: \(note)") }
        }
        return (try makeService(scenario: inputs.scenario, configuration: inputs.configuration, state: state, for: command), note)
    }

    /// ``StateFile/useScenario(named:)``, its failure a usage error (the caller names its command).
    public static func useScenario(_ scenario: Scenario, in state: StateFile?) throws(UsageError) -> String? {
        do {
            return try state?.useScenario(named: scenario.name)
        } catch {
            throw UsageError(error.description)
        }
    }

    /// The flow service on a scenario and configuration already read, keeping what outlives the process in
    /// `state` (nil: in memory). The one place a service is built, for the terminal UI and the headless runner.
    ///
    /// Its randomness starts from `--seed` and a generation `state` reserves for this run: a fresh file (or none)
    /// draws from the seed itself, each later run, parallel ones too, from the seed mixed with its own generation.
    /// So the runs of a pipeline on one file do not repeat each other's 3-D Secure transaction ids and tokens, while
    /// the same seed on a copy of the file still replays them (docs/decisions.md).
    public func makeService(scenario: Scenario, configuration: FlowConfiguration, state: StateFile?, for command: Command = .run)
        throws(UsageError) -> FlowService
    {
        let stores = state.map {
            SimulationStores(identityProvider: $0.identityProviderStore, device: $0.deviceStore, startOver: resetCommand, stateOption: stateOption)
        } ?? .memory()
        let generation: UInt64
        do { generation = try state?.reserveGeneration() ?? 0 } catch { throw UsageError(command.prefix + error.description) }
        let seed = RandomSource.seed(seed, generation: generation)
        return FlowService(
            environment: SimulationEnvironment(scenario: scenario, seed: seed, stores: stores), configuration: configuration,
            history: state?.history ?? MemoryFlowHistory())
    }

    /// The `idp-tui reset` that forgets the state file these options name, as advice gives it: with `--state=FILE`
    /// when one was given (one word, so that a path starting with `--` is still the option's value), the path
    /// single-quoted for a POSIX shell unless it is only letters, digits and `/._-` (a `~` or `=` could expand).
    var resetCommand: String { "idp-tui reset" + stateOption }

    /// `--state=FILE` after a space, as a command names the state file these options name; empty for the default.
    var stateOption: String {
        guard let path = statePath else { return "" }
        let plain = !path.isEmpty && path.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || "/._-".unicodeScalars.contains($0)
        }
        return " --state=" + (plain ? path : "'" + path.replacingOccurrences(of: "'", with: "'\\''") + "'")
    }

    /// The state file these options name (nil with `--ephemeral`), opened and migrated. Its warnings go to standard
    /// error at once, except in the terminal UI, which holds the screen: it shows them when it ends.
    public func openState(for command: Command = .run) throws(UsageError) -> StateFile? {
        guard !ephemeral else { return nil }
        guard let path = statePath ?? StateFile.defaultPath() else { throw UsageError(command.prefix + StateFile.noDefaultPath) }
        do {
            // Folders made for a file named with --state are said (a mistyped folder made a new tree and an empty
            // state, nothing said); the default file's are expected.
            let state = try StateFile(path: path, sayingFoldersMade: statePath != nil)
            if command != .terminal {
                for warning in state.warnings { writeErrorLine("idp-tui: \(warning)") }
            }
            return state
        } catch {
            throw UsageError(command.prefix + error.description)
        }
    }

    /// The scenario named by `--scenario`, or the embedded default. A file with problems is a usage error that
    /// gives the first problem and the command that lists them all.
    /// `said`: how its errors begin when not `command`'s way (`run: scenario FILE: …`): `scenario show: FILE: …`.
    public func loadScenario(for command: Command = .run, said: String? = nil) throws(UsageError) -> Scenario {
        var scenario = try readScenario(for: command, said: said)
        if let tenant {
            let tenants = scenario.identityProvider.tenants.map(\.id)
            guard tenants.contains(tenant) else {
                let listed = tenants.map { "\"\(VisibleText.escaped($0))\"" }.joined(separator: ", ")
                throw UsageError("\(said ?? command.prefix)--tenant \"\(VisibleText.escaped(tenant))\" is no tenant of scenario \"\(VisibleText.escaped(scenario.name))\"; its tenants: \(listed)")
            }
            scenario.appTenant = tenant
        }
        return scenario
    }

    private func readScenario(for command: Command, said: String?) throws(UsageError) -> Scenario {
        guard let path = scenarioPath else { return .embeddedDefault }
        switch ScenarioFile.read(path: path) {
        case .success(let scenario): return scenario
        case .failure(let failure):
            let count = failure.problems.count
            let more = count > 1 ? " (and \(count - 1) more: idp-tui scenario check \(path))" : ""
            // FILE:LINE:COLUMN, as `scenario check` and compilers place a problem.
            let first = failure.inFileOrder.first
            let place = first?.position.map { "\(path):\($0.line):\($0.column)" } ?? path
            throw UsageError("\(said ?? "\(command.prefix)scenario ")\(place): \(first?.placed ?? "unreadable")\(more)")
        }
    }

    /// The app side's configuration: the families' settings as their options set them, each family finishing its
    /// own (the IdpSdk's reads and checks the certificate chain file if one is named).
    /// `--bridge-fault`s join the scenario's, which the world starts with.
    public func flowConfiguration(for command: Command = .run) throws(UsageError) -> FlowConfiguration {
        var configuration = settings
        configuration.promptTimeout = promptTimeout
        for family in AnswerFamilies.all { try family.finish(&configuration, from: self, for: command) }
        return configuration
    }
}

extension CommandLineOptions {
    /// A text file an option names (the certificate chain), at most 1 MiB of UTF-8.
    static func readText(_ path: String, what: String, command: String) throws(UsageError) -> String {
        let bytes: [UInt8]
        switch TextFile.read(path, limit: 1 << 20) {
        case .success(let read): bytes = read
        case .failure(let failure): throw UsageError("\(command)the \(what) file \(path) \(failure)")
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw UsageError("\(command)the \(what) file \(path) is not UTF-8 text")
        }
        return text
    }
}
