import FlowRecords
import CursesBackend
import FlowService
import Foundation
import Headless
import StateStore
import IdentityProvider
import TerminalUI

#if canImport(Glibc)
    import Glibc
#endif

let version = "0.2.0"

/// Built only when asked for: start-up should not pay for it.
func help() -> String {
    """
    idp-tui \(version) — simulate IdpSdk / MC-SDK login flows in a terminal and headless

    usage:
      idp-tui [options]            the terminal UI on the embedded default scenario
      idp-tui run FLOW [FLOW…]     run flows headless; answers as JSON on stdin; JSON Lines out
      idp-tui scenario check FILE  report every problem of a scenario file
      idp-tui scenario show [FILE] print the effective scenario
      idp-tui history [--json]     past flows; history show ID; history export ID --format mermaid|json
      idp-tui reset                forget the device, the IdP's counters and locks, and the history
      idp-tui compare              the same flows through the IdpSdk orchestration and the KSSIDP wrapper
      idp-tui --help | --version

    \(RunOptions.terminalUsage)

    \(RunOptions.usage)

    exit status: 0 every flow succeeded (or quit) · 1 a flow failed · 3 a flow was cancelled · 2 bad input
                 · 130 Ctrl-C in the terminal UI
    demo users (tenant demo): alice / wonderland, activation code 123456; bob / builder, 654321
    """
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("idp-tui: \(message)\n".utf8))
    exit(UsageError.exitStatus)
}

let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "--help", "-h", "help":
    print(help())
case "--version", "-V":
    print("idp-tui \(version)")
case "run":
    do {
        exit(try RunCommand.main(Array(arguments.dropFirst())))
    } catch {
        fail(error.message)
    }
case "compare":
    do {
        exit(try CompareCommand.main(Array(arguments.dropFirst()), write: { print($0) }))
    } catch {
        fail(error.message)
    }
case "history":
    do {
        exit(try StateCommands.history(Array(arguments.dropFirst()), write: { print($0) }))
    } catch {
        fail(error.message)
    }
case "reset":
    do {
        exit(try StateCommands.reset(Array(arguments.dropFirst()), write: { print($0) }))
    } catch {
        fail(error.message)
    }
case "scenario":
    do {
        exit(try ScenarioCommand.main(
            Array(arguments.dropFirst()), write: { print($0) },
            fail: { FileHandle.standardError.write(Data("idp-tui: \($0)\n".utf8)) }))
    } catch {
        fail(error.message)
    }
default:
    do {
        let options = try RunOptions.parse(arguments, mode: .terminal)
        let theme: Theme
        do {
            theme = try Theme.resolve(options.theme, environment: ProcessInfo.processInfo.environment)
        } catch {
            fail(error.description)
        }
        // The embedded scenario is built after the first frame, with the rest of the simulated world.
        let fromFile = options.scenarioPath == nil ? nil : try options.loadScenario(mode: .terminal)
        let configuration = try options.flowConfiguration(mode: .terminal, scenario: fromFile)
        let status = try TerminalSession.run(
            theme: theme, tenant: fromFile?.appTenant ?? "demo",
            idpUrl: fromFile?.identityProvider.baseURL ?? IdentityProviderConfiguration.defaultBaseURL
        ) {
            // The state file is opened after the first frame too; one it cannot use ends the UI with its error.
            let state: StateFile?
            do throws(UsageError) {
                state = try options.openState(mode: .terminal)
            } catch {
                return .failure(TerminalSession.StartError(description: error.message))
            }
            return .success(options.makeService(scenario: fromFile ?? .embeddedDefault, configuration: configuration, state: state))
        }
        exit(status)
    } catch let error as UsageError {
        fail(error.message)
    } catch let error as TerminalSession.StartError {
        fail(error.description)
    } catch {
        fail("\(error)")
    }
}
