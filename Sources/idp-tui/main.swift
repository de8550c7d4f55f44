import Foundation
import Headless

#if canImport(Glibc)
    import Glibc
#endif

let version = "0.1.0"

let help = """
    idp-tui \(version) — simulate IdpSdk / MC-SDK login flows in a terminal and headless

    usage:
      idp-tui                      the terminal UI on the embedded default scenario
      idp-tui run FLOW [FLOW…]     run flows headless; answers as JSON on stdin; JSON Lines out
      idp-tui --help | --version

    \(RunOptions.usage)

    exit status: 0 every flow succeeded · 1 a flow failed · 3 a flow was cancelled · 2 bad input
    demo users (tenant demo): alice / wonderland, activation code 123456; bob / builder, 654321
    """

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("idp-tui: \(message)\n".utf8))
    exit(UsageError.exitStatus)
}

var arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "--help", "-h", "help":
    print(help)
case "--version", "-V":
    print("idp-tui \(version)")
case "run":
    do {
        exit(try RunCommand.main(Array(arguments.dropFirst())))
    } catch {
        fail(error.message)
    }
case nil:
    print("""
        idp-tui \(version): the terminal UI is not built yet.
        Run the flows headless instead, for example:
          echo '[{"username":"alice","password":"wonderland","activation-code":"123456"},{"username":"alice","password":"wonderland"}]' | swift run idp-tui run activate login
        See idp-tui --help.
        """)
case let other?:
    fail("unknown command or option \"\(other)\"; see idp-tui --help")
}
