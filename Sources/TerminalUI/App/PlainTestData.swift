import LocaleText
import PaymentFlows
import ThreeDSecure

// Plain mode's test data, asked for with `?`: the lines of F4's card picker, in columns.
extension TerminalApp {
    /// Whether plain mode's listings are spelled in ASCII (a locale that is not UTF-8): their columns are then
    /// measured in the ASCII that is printed (`→` is `->`, two columns).
    public var plainASCII: Bool {
        get { state.plainASCII }
        set { state.plainASCII = newValue }
    }

    /// The test cards, one a line in columns: number, brand, Cardinal's case (or the scenario's own card), what
    /// the payment should end with, and the case's name.
    static func testCardLines(_ cards: [TestCard], ascii: Bool) -> [String] {
        let rows = cards.map { card in
            [PaymentForm.formatCardNumber(card.number), card.brand.rawValue, card.source ?? "own card", card.expectedOutcome, card.title]
        }
        return ["Test cards (type a number; the expiry can be any month to come):"]
            + plainColumns([["number", "brand", "case", "outcome", "name"]] + rows, ascii: ascii)
    }

    /// A listing's rows in aligned columns (``CharacterWidth/columns(_:gap:)``: by the width the terminal shows,
    /// not by the count of characters), indented by two. With `ascii` each cell is spelled in ASCII first, so
    /// that the columns are measured in what is printed.
    static func plainColumns(_ rows: [[String]], ascii: Bool) -> [String] {
        CharacterWidth.columns(rows.map { row in row.map { ascii ? PlainASCII.text($0) : $0 } }).map { "  " + $0 }
    }
}
