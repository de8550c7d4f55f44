import FlowRecords

extension StateFile {
    /// Records that this run uses the scenario named `name`, and says so when the file was last used with another:
    /// the device, the IdP's spent activation codes and its locks carry over by tenant and user name, so a new
    /// scenario's code for the same user was refused as already used, with nothing said about the file.
    /// `idp-tui reset` forgets the name with the rest.
    ///
    /// As strict as ``reserveGeneration()``, a run's other first write: a file that another process keeps locked (a
    /// `sqlite3` shell in a transaction) ends the run here with that error, before any flow (a flow's stores then each
    /// waited out the lock in turn, and the run ended 40 s later blaming a full disk). Another failure (a full disk)
    /// is left to the flows' own writes, which say it (exit 74).
    public func useScenario(named name: String) throws(StateError) -> String? {
        guard !readOnly else { return nil }
        let last: String?
        do {
            last = try database.write { transaction throws(StateError) -> String? in
                let last = try transaction.query("SELECT value FROM meta WHERE key = 'scenario'").first?.first?.text
                _ = try transaction.query("INSERT OR REPLACE INTO meta (key, value) VALUES ('scenario', ?)", [.text(name)])
                return last
            }
        } catch where error.reason == .busy {
            throw error
        } catch {
            return nil
        }
        guard let last, last != name else { return nil }
        return "\(path) was last used with scenario \"\(VisibleText.escaped(last))\": its device, spent activation codes and locks "
            + "carry over to \"\(VisibleText.escaped(name))\" by tenant and user name (idp-tui reset starts it clean)"
    }
}
