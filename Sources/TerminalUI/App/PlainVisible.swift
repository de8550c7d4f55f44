import FlowRecords

extension TerminalApp {
    /// Plain mode's text as it goes to the terminal: every control character but the line end written as `\x1B`
    /// (``VisibleText``), so that what a crafted state file holds (the device's user, an event's detail) cannot
    /// retitle, colour or clear the terminal, as the drawn UI never draws it.
    public static func plainVisible(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { VisibleText.escaped(String($0)) }.joined(separator: "\n")
    }
}
