import Foundation

/// What the plain front end asks, one line at a time: the text before the answer, and whether the answer is a
/// secret (read with echo off).
public struct PlainQuestion: Equatable, Sendable {
    public let text: String
    public let secret: Bool
    /// The answer is a card number: shown masked (`•••• 2503`) wherever it is shown again.
    public var cardNumber = false
    /// What the question takes, when not free text.
    public var takes: Takes = .text
    /// What makes it the same question asked again, for what was typed at it to stay: its text, but for a question
    /// whose text changes while it waits (the menu's names the faults on, which a fault that bites changes).
    public var identity: String { stableIdentity ?? text }
    var stableIdentity: String?

    public enum Takes: Equatable, Sendable {
        case text
        /// One of these words.
        case choice(Set<String>)
        /// Option numbers from 1 to the count, separated by commas or spaces.
        case options(count: Int)
        /// A number from 1 to the count, one of `names`, Enter, or a listing asked for (`?`, `? ` and text).
        case numberOrListing(count: Int, names: Set<String> = [])
        /// A flow's ID in the history, up to the newest's, or one of these words.
        case flowID(newest: Int, words: Set<String>)
    }

    public init(text: String, secret: Bool, cardNumber: Bool = false, takes: Takes = .text) {
        self.text = text
        self.secret = secret
        self.cardNumber = cardNumber
        self.takes = takes
    }

    /// The answer as the plain output may show it again (a log of piped answers): nothing of a secret, a card
    /// number masked, and for a question that takes a choice only an answer it takes — a line meant for another
    /// question (a secret, when a flow ended before the answers it was given) is not printed under this one.
    public func shown(_ answer: String) -> String {
        if secret { return "" }
        if cardNumber {
            let trimmed = answer.trimmingCharacters(in: .whitespaces)
            // `?` or `? TEXT`: a listing asked for, not a card; a filter with a number's digits in it (five or more)
            // masked as a number is.
            if trimmed.hasPrefix("?") {
                let digits = trimmed.filter(\.isNumber)
                return digits.count >= 5 ? "? •••• \(digits.suffix(4))" : trimmed
            }
            let digits = answer.filter(\.isNumber)
            return digits.count >= 4 ? "•••• \(digits.suffix(4))" : digits.isEmpty ? "" : "••••"
        }
        let word = answer.trimmingCharacters(in: .whitespaces)
        switch takes {
        // A line no field takes (a control character, more than a credential's 256 bytes) is refused: it may be
        // anything pasted (a user name with its password after a tab), so it is not shown either.
        case .text:
            if answer.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) { return "(not shown: it has control characters)" }
            // Nor its length: a secret's hint says none.
            return answer.utf8.count > 256 ? "(not shown: too long)" : answer
        // A number is taken as its value (`01`, `+1`: the menu takes them as 1), and shown so.
        case .choice(let words):
            if words.contains(word) { return word }
            return Int(word).map(String.init).flatMap { words.contains($0) ? $0 : nil } ?? "(not an answer here)"
        case .numberOrListing(let count, let names):
            return word.isEmpty || word == "?" || word.hasPrefix("? ") || names.contains(word) || Int(word).map({ (1...count).contains($0) }) == true
                ? word : "(not an answer here)"
        // A number beyond the history's newest (a code meant for a flow that ended) is not shown.
        case .flowID(let newest, let words):
            if words.contains(word) { return word }
            // Digits only, as the answer takes them (`+1` was shown as 1, then refused).
            guard word.allSatisfy({ $0.isASCII && $0.isNumber }) else { return "(not an answer here)" }
            return Int(word).flatMap { (1...max(1, newest)).contains($0) ? String($0) : nil } ?? "(not an answer here)"
        case .options(let count):
            let numbers = word.split(whereSeparator: { $0 == "," || $0 == " " })
            return !numbers.isEmpty && numbers.allSatisfy({ Int($0).map { (1...count).contains($0) } ?? false })
                ? word : "(not an answer here)"
        }
    }
}
