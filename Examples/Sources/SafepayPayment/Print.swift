import ExampleSupport

// Not from the documents: the documents' code calls `print`; here it prints and keeps the line, so that the
// examples' tests can read what that code printed (ExampleOutput).
func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
    ExampleOutput.write(items.map { "\($0)" }.joined(separator: separator))
}
