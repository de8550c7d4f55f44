import Scenario
import ThreeDSecure
import Testing

/// A scenario's cards end as EMV 3-D Secure has it, and ask what their challenge asks.
@Suite struct ScenarioCardTests {
    private func cards(_ list: String) -> String { minimal(#""payments": {"cards": [\#(list)]}"#) }

    /// A reason goes with N, U and R and with nothing else: such cards ran, and their payments ended in N without a
    /// reason or in Y with "exceeds ACS maximum challenges".
    @Test(arguments: [
        (#"{"number": "4111111111111111", "frictionless": "N"}"#, #"$.payments.cards[0]: a card that ends in N needs "reason""#),
        (#"{"number": "4111111111111111", "frictionless": "A", "reason": "11"}"#, "$.payments.cards[0].reason: a transStatusReason goes with N, U or R, not with A"),
        (#"{"number": "4111111111111111", "challenge": "text", "final": "Y", "reason": "19"}"#, "$.payments.cards[0].reason: a transStatusReason goes with N, U or R, not with Y"),
        (#"{"number": "4111111111111111", "challenge": "text", "final": "U"}"#, #"$.payments.cards[0]: a card that ends in U needs "reason""#),
        (#"{"number": "4111111111111111", "challenge": "html", "final": "U", "reason": "20"}"#, "$.payments.cards[0].final: does not apply to an html challenge"),
        (#"{"number": "4111111111111111", "challenge": "text", "final": "error", "reason": "01"}"#, "$.payments.cards[0].reason: does not apply to a card whose ACS fails"),
    ])
    func aCardEndsAsEMVThreeDSecureHasIt(card: String, problem: String) {
        let found = problems(cards(card))
        #expect(found.contains { $0.contains(problem) }, "\(found)")
    }

    /// Each problem of a select card's lists is reported once, and duplicates are problems.
    @Test(arguments: [
        (#""options": ["a", "b", "c", "d", "e", "f", "g", "h", "i"], "correct": [1]"#, ["$.payments.cards[0].options: has more than 8 entries"]),
        // Right answers within the most options a list may have are not judged by a list that was refused.
        (#""options": ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l"], "correct": [2, 5]"#, ["$.payments.cards[0].options: has more than 8 entries"]),
        (#""options": ["a", "b"], "correct": [0]"#, ["$.payments.cards[0].correct[0]: must be from 1 to 2"]),
        (#""options": ["a", "a"], "correct": [1]"#, ["$.payments.cards[0].options: each option must differ"]),
        (#""options": ["Paris", "paris", "Rome"], "correct": [2]"#, ["$.payments.cards[0].options: each option must differ, in more than case"]),
        (#""options": ["A", 5, "C"], "correct": [3]"#, ["$.payments.cards[0].options[1]: must be a string"]),
        (#""options": ["a", "b"], "correct": [1, 1]"#, ["$.payments.cards[0].correct[1]: option 1 is named twice"]),
    ])
    func aSelectCardsListProblemIsReportedOnce(lists: String, expected: [String]) {
        let found = problems(cards(#"{"number": "5555555555554444", "challenge": "multi-select", \#(lists)}"#))
        #expect(found.count == expected.count && zip(found, expected).allSatisfy { $0.contains($1) }, "\(found)")
    }

    @Test func cardsThatKeepTheRulesAreRead() {
        let list = #"{"number": "4111111111111111", "frictionless": "N", "reason": "01"}, {"number": "5555555555554444", "frictionless": "Y"}, "#
            + #"{"number": "4012888888881881", "challenge": "text", "final": "U", "reason": "22"}, {"number": "6011111111111117", "challenge": "text", "final": "error"}"#
        #expect(problems(cards(list)).isEmpty, "\(problems(cards(list)))")
    }

    /// A card that names no prompt asks what its challenge asks (a select or out-of-band card asked for the
    /// one-time code).
    @Test func aCardWithoutAPromptAsksWhatItsChallengeAsks() throws {
        let text = cards(#"{"number": "5555555555554444", "challenge": "multi-select", "options": ["a", "b"], "correct": [1]}, "#
            + #"{"number": "4111111111111111", "challenge": "out-of-band"}"#)
        guard case .success(let scenario) = read(text) else { Issue.record("\(problems(text))"); return }
        let prompts = scenario.cards.prefix(2).compactMap { card -> String? in
            if case .challenge(let design) = card.scenario { design.prompt } else { nil }
        }
        #expect(prompts == ["Select every right answer.", "Approve this payment in your banking app, then continue."])
    }
}

/// What `scenario show` writes is a scenario `scenario check` takes (its secrets put back): with the catalogue's
/// cards written out too, as a scenario that overrides one of them has them. The html card was written with a
/// `final` the check refuses.
@Suite struct ScenarioShowRoundTripTests {
    @Test func everyCardShowWritesIsReadBack() throws {
        let text = minimal(#""payments": {"cards": [{"number": "4000000000002701", "frictionless": "N", "reason": "01"}]}"#)
        guard case .success(let scenario) = read(text) else { Issue.record("\(problems(text))"); return }
        let shown = ScenarioFile.json(scenario).text().replacingOccurrences(of: "\"<secret>\"", with: "\"s3cret\"")
        #expect(shown.contains("\"includeDefaultCards\": false") || shown.contains("\"includeDefaultCards\":false"), "the catalogue's cards are written out")
        #expect(problems(shown).isEmpty, "\(problems(shown))")
    }
}
