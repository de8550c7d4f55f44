import TerminalUI

/// What a theme file named on the command line starts from (`Theme.resolve`).
let defaultTheme = Theme.builtIn("default")

/// The theme parser (`--theme FILE`): any UTF-8 text is a theme or an error on one of its lines; a theme that
/// parses, written back one role a line, parses to the same styles; on the default theme, the file's roles
/// replace the default's and the rest stay; and the same file with CRLF line ends reads the same.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    // `Theme.resolve` refuses what is not UTF-8, or longer than 64 KiB, before parsing.
    guard size <= 65_536, let text = String(validating: UnsafeBufferPointer(start: data, count: size), as: UTF8.self) else {
        return 0
    }
    // Lines end at LF, CR LF or a CR alone, as the parser splits them.
    let lines = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }.count
    let result = parse(text, base: nil)
    check(same(result, parse(crlf(text), base: nil)), "CRLF line ends read otherwise")
    let onDefault = parse(text, base: defaultTheme)
    switch result {
    case .failure(let error):
        check(error.line.map { (1...lines).contains($0) } ?? false, "an error on line \(String(describing: error.line)) of \(lines)")
        check(same(onDefault, result), "the default theme changes an error")
    case .success(let theme):
        check(theme.styles.values.allSatisfy(inRange), "a colour outside 0–255")
        let written = Role.allCases.compactMap { role in theme.styles[role].map { "\(role.rawValue) = \(line($0))" } }
            .joined(separator: "\n")
        guard case .success(let again) = parse(written, base: nil) else { fatalError("a theme written back does not parse: \(written)") }
        check(again.styles == theme.styles, "a theme written back parses to other styles: \(written)")
        let expected = (defaultTheme?.styles ?? [:]).merging(theme.styles) { $1 }
        check((try? onDefault.get().styles) == expected, "on the default theme, the file's roles do not replace the default's")
    }
    return 0
}

func parse(_ text: String, base: Theme?) -> Result<Theme, ThemeError> {
    Result { () throws(ThemeError) in try Theme.parse(text, source: "fuzz.theme", base: base) }
}

func same(_ a: Result<Theme, ThemeError>, _ b: Result<Theme, ThemeError>) -> Bool {
    switch (a, b) {
    case (.success(let x), .success(let y)): x.styles == y.styles
    case (.failure(let x), .failure(let y)): x.line == y.line && x.key == y.key && x.message == y.message
    default: false
    }
}

/// Every line feed not already after a carriage return gets one.
func crlf(_ text: String) -> String {
    var out = String.UnicodeScalarView()
    var previous: Unicode.Scalar?
    for scalar in text.unicodeScalars {
        if scalar == "\n" && previous != "\r" { out.append("\r") }
        out.append(scalar)
        previous = scalar
    }
    return String(out)
}

/// A style as a theme file writes it.
func line(_ style: Style) -> String {
    var words = TextAttribute.allCases.filter { style.attributes.contains(TextAttributes($0)) }.map(\.rawValue)
    if let foreground = style.foreground { words.append(name(foreground)) }
    if let background = style.background { words += ["on", name(background)] }
    return words.isEmpty ? "none" : words.joined(separator: " ")
}

func name(_ color: ThemeColor) -> String {
    switch color {
    case .terminalDefault: "default"
    case .index(let index): String(index)
    }
}

func inRange(_ style: Style) -> Bool {
    [style.foreground, style.background].allSatisfy { color in
        if case .index(let index)? = color { return (0...255).contains(index) }
        return true
    }
}

func check(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError(message()) }
}
