import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The folder under which these tests put every file and state folder they make, one per test process, removed
/// when the process exits. Each `swift test` used to leave some 190 folders in /tmp. A process killed before it
/// could remove its folder has it removed by the next run (the folder is named for the process id).
let scratchRoot: String = {
    let base = NSTemporaryDirectory() + "idp-tui-tests-\(getuid())"
    let files = FileManager.default
    try? files.createDirectory(atPath: base, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    for entry in (try? files.contentsOfDirectory(atPath: base)) ?? [] {
        if let pid = pid_t(entry), kill(pid, 0) != 0, errno == ESRCH { try? files.removeItem(atPath: base + "/" + entry) }
    }
    let root = base + "/\(getpid())"
    try? files.createDirectory(atPath: root, withIntermediateDirectories: true)
    atexit { try? FileManager.default.removeItem(atPath: scratchRoot) }
    return root
}()

/// A path under `scratchRoot`: `prefix`, a UUID, then `suffix`.
func scratchPath(_ prefix: String, _ suffix: String = "") -> String {
    scratchRoot + "/\(prefix)-\(UUID().uuidString)\(suffix)"
}
