import Foundation

extension StateFile {
    /// The default file: `$XDG_STATE_HOME/idp-tui/state.sqlite`, else `~/.local/state/idp-tui/state.sqlite`; nil
    /// when there is no home (``noDefaultPath`` says what to do then). Either variable counts only as an absolute
    /// path; the home is then the user's line in `passwd`.
    ///
    /// Without `HOME`, the home is the user's line in `passwd`, read here: not through `getpwuid`, which in the
    /// static release binary loads the system's NSS modules (systemd's, sss …) into a program linked without
    /// them, and crashed.
    public static func defaultPath(
        environment: [String: String] = ProcessInfo.processInfo.environment, passwd: String = "/etc/passwd",
        user: UInt32 = getuid()
    ) -> String? {
        if variableNotUTF8() != nil { return nil }
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") { return state + "/idp-tui/state.sqlite" }
        // A relative HOME is ignored, as a relative XDG_STATE_HOME is: each folder run from would have its own state.
        guard let home = environment["HOME"].flatMap({ $0.hasPrefix("/") ? $0 : nil }) ?? home(of: user, in: passwd) else { return nil }
        return home + "/.local/state/idp-tui/state.sqlite"
    }

    /// Why there is no default state file, and what to do.
    public static var noDefaultPath: String {
        if let name = variableNotUTF8() {
            return "\(name) is not UTF-8, so the state file cannot be named from it; set it in UTF-8, or use --state FILE or --ephemeral"
        }
        return "there is nowhere to keep the state file: HOME is not set (or not an absolute path), and user \(getuid()) has no home in /etc/passwd; "
            + "set HOME or XDG_STATE_HOME, or use --state FILE or --ephemeral"
    }

    /// The first of `XDG_STATE_HOME` and `HOME` that the default path would be made from and that is not UTF-8, read
    /// from the process's environment as bytes: Foundation's environment has U+FFFD for a bad byte, and the state
    /// file was kept in a folder of another name (`h\u{FFFD}` for `h\xFF`), apart from the one the variable names.
    static func variableNotUTF8() -> String? {
        for name in ["XDG_STATE_HOME", "HOME"] {
            // A relative value is ignored, whatever its bytes.
            guard let value = getenv(name), value.pointee == UInt8(ascii: "/") else { continue }
            return String(validatingCString: value) == nil ? name : nil
        }
        return nil
    }

    /// The home directory of `user` in a passwd file (`name:x:uid:gid:gecos:home:shell`), if it names one.
    static func home(of user: UInt32, in passwd: String) -> String? {
        guard let data = FileManager.default.contents(atPath: passwd) else { return nil }
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            let fields = line.split(separator: ":", omittingEmptySubsequences: false)
            if fields.count >= 7, UInt32(fields[2]) == user, fields[5].hasPrefix("/") { return String(fields[5]) }
        }
        return nil
    }
}
