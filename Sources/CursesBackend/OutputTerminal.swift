import CNcurses

/// The terminal on standard output, for commands that print text laid out in columns (`compare`).
public enum OutputTerminal {
    /// Its columns; nil when standard output is not a terminal (a file, a pipe) or does not say.
    public static var columns: Int? {
        let columns = Int(idp_output_columns())
        return columns > 0 ? columns : nil
    }
}
