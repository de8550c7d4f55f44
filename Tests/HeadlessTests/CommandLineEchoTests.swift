import Foundation
import Testing

/// A value pasted on the command line (the answers meant for standard input, a password) is never printed back:
/// an error names it by its place, `[argument N]`. A word that looks like a name or a path is still named.
@Suite struct CommandLineEchoTests {
    @Test(arguments: [
        (["run", "activate", #"{"username":"alice","password":"CliSecret99"}"#, "--ephemeral"],
         "idp-tui: run: argument 3 is not a flow name; answers go on standard input or in a file named by --answers, never on the command line"),
        (["run", "activate", "--answers", #"{"username":"alice","password":"CliSecret98"}"#],
         "idp-tui: run: --answers takes a file name, and this value looks like JSON: answers go on standard input or in the file --answers names"),
        (["run", "activate", #"--answers=["CliSecret97"]"#], "idp-tui: run: --answers takes a file name, and this value looks like JSON"),
        (["run", "activate", "pass CliSecret96", "--ephemeral"], "idp-tui: run: argument 3 is not a flow name; flows: activate, login"),
        (["run", "activate", "--seed", #"{"CliSecret95":1}"#], "idp-tui: run: --seed takes a whole number from 0 to 18446744073709551615, not [argument 4]"),
        (["run", "logout", "--ephemeral", "--theme", #"{"password":"CliSecret94"}"#], "idp-tui: run: theme [argument 5]: is neither a built-in theme"),
        (["run", "activate", "--answers", "my CliSecret93.json"], "idp-tui: run: the answers file [argument 4] cannot be read (No such file or directory)"),
        (["compare", "--ephemeral", "CliSecret92 x"], "idp-tui: compare: unknown argument [argument 3]; see idp-tui compare --help"),
        ([#"{"password":"CliSecret91"}"#], "idp-tui: unknown command or option [argument 1]; see idp-tui --help"),
        // A code or a password with digits where a flow belongs cannot be a mistyped flow: not printed.
        (["run", "activate", "CliSecret90123456"], "idp-tui: run: argument 3 is not a flow name; flows: activate, login"),
        // A message that names the word by its place keeps its own words: the list of flows keeps its "login".
        (["run", "CliSecret 89 login"], "idp-tui: run: argument 2 is not a flow name; flows: activate, login, logout"),
        (["run", " login"], "idp-tui: run: argument 2 is not a flow name; flows: activate, login, logout"),
        // Unquoted, its last occurrence: the message's own words before it are kept.
        (["run", "activate", "--answers", "answers file"], "idp-tui: run: the answers file [argument 4] cannot be read"),
    ] as [([String], String)])
    func aPastedValueIsNamedByItsPlace(_ arguments: [String], _ message: String) throws {
        let run = try BinaryRun.run(arguments)
        #expect(run.status == 2, "\(run.stderr)")
        #expect(run.stderr.hasPrefix(message), "\(run.stderr)")
        #expect(run.stderr.split(separator: "\n").count == 1)
        #expect(!run.stderr.contains("CliSecret"), "\(run.stderr)")
    }

    @Test(arguments: [
        (["run", "activte", "--ephemeral"], #"idp-tui: run: unknown flow "activte"; did you mean "activate"?; flows: activate, login"#),
        (["run", "frobnicate", "--ephemeral"], #"idp-tui: run: unknown flow "frobnicate"; flows: activate"#),
        (["run", "activate", "--answers", "/nonexistent/answers.json"], "the answers file /nonexistent/answers.json cannot be read"),
        (["run", "activate", "--seed", "minus-one"], #"--seed takes a whole number from 0 to 18446744073709551615, not "minus-one""#),
    ] as [([String], String)])
    func aNameOrAPathIsStillNamed(_ arguments: [String], _ message: String) throws {
        let run = try BinaryRun.run(arguments)
        #expect(run.status == 2, "\(run.stderr)")
        #expect(run.stderr.contains(message), "\(run.stderr)")
    }
}
