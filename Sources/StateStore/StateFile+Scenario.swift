import FlowRecords

extension StateFile {
    /// Records that this run uses the scenario named `name`, and says so when the file was last used with another:
    /// the device, the IdP's spent activation codes and its locks carry over by tenant and user name, so a new
    /// scenario's code for the same user was refused as already used, with nothing said about the file.
    /// `idp-tui reset` forgets the name with the rest.
    public func useScenario(named name: String) -> String? {
        guard !readOnly else { return nil }
        let last = try? database.write { transaction throws(StateError) -> String? in
            let last = try transaction.query("SELECT value FROM meta WHERE key = 'scenario'").first?.first?.text
            _ = try transaction.query("INSERT OR REPLACE INTO meta (key, value) VALUES ('scenario', ?)", [.text(name)])
            return last
        }
        guard let last = last ?? nil, last != name else { return nil }
        return "\(path) was last used with scenario \"\(VisibleText.escaped(last))\": its device, spent activation codes and locks "
            + "carry over to \"\(VisibleText.escaped(name))\" by tenant and user name (idp-tui reset starts it clean)"
    }
}
