import Testing
import ThreeDSecure

@Suite struct CardNumberTests {
    @Test func everyWayOfPrintingACardNumberShowsOnlyTheLastFour() throws {
        let card = try CardNumber("4000 0000 0000 2503")
        var dumped = ""
        dump(card, to: &dumped)
        for shown in ["\(card)", String(describing: card), String(reflecting: card), dumped, "\([card])", "\(Optional(card) as Any)"] {
            #expect(!shown.contains("4000000000002503") && !shown.contains("400000"), "\(shown)")
            #expect(shown.contains("2503"), "\(shown)")
        }
    }

    @Test(arguments: [
        ("4000 0000 0000 2701", CardBrand.visa), ("5200-0000-0000-2235", .mastercard), ("340000000002708", .amex),
        ("2221000000000009", .mastercard),
    ])
    func brandsAreDetected(_ text: String, _ brand: CardBrand) throws {
        #expect(try CardNumber(text).brand == brand)
    }

    @Test(arguments: [
        ("4000000000002702", CardNumber.Problem.failsLuhnCheck),
        ("400000000000270", .wrongLength(brand: .visa, expected: [13, 16, 19])),
        ("3530111333300000", .brandNotSimulated("JCB")),
        ("3600000000000008", .unknownBrand),
        // Cardinal's Elo and JCB test cards (case 1): Elo's 6505… read as Discover, JCB's 3338… as unknown.
        ("6505290000002000", .brandNotSimulated("Elo")),
        ("3338000000000296", .brandNotSimulated("JCB")),
        ("4389350000000002", .brandNotSimulated("Elo")),
        ("4000x00000002701", .notDigits),
        ("", .empty),
        (" - ", .empty),
    ])
    func badNumbersSayWhy(_ text: String, _ problem: CardNumber.Problem) {
        #expect(throws: problem) { try CardNumber(text) }
    }

    /// The message says what the number may hold, as the card form and `run` take it: dashes too.
    @Test func notDigitsSaysWhatMaySeparateThem() throws {
        #expect(CardNumber.Problem.notDigits.description == "the card number must be digits (spaces or dashes may separate them)")
        #expect(try CardNumber("4000-0000-0000-2701").digits == "4000000000002701")
    }

    /// Every length a brand issues is taken (ISO/IEC 7812): a 13- or 19-digit Visa, a 17-digit Discover; a Visa of
    /// 17 digits is not.
    @Test(arguments: [("4222222222222", true), ("4000000000000000006", true), ("40000000000000000", false),
                      ("60110000000000001", true), ("5555555555554444", true), ("55555555555544440", false)])
    func everyLengthTheBrandIssuesIsTaken(_ text: String, _ taken: Bool) {
        if taken { #expect((try? CardNumber(text))?.digits == text, "\(text)") } else { #expect(throws: CardNumber.Problem.self) { try CardNumber(text) } }
    }

    /// "an American Express card number", not "a American Express".
    @Test func aWrongLengthSaysTheBrandWithItsArticle() {
        #expect(CardNumber.Problem.wrongLength(brand: .amex, expected: [15]).description == "an American Express card number has 15 digits")
        #expect(CardNumber.Problem.wrongLength(brand: .visa, expected: [13, 16, 19]).description == "a Visa card number has 13, 16 or 19 digits")
        #expect(CardNumber.Problem.wrongLength(brand: .discover, expected: [16, 17, 18, 19]).description == "a Discover card number has 16 to 19 digits")
    }

    @Test func aNetworkNotSimulatedIsNamed() throws {
        #expect(CardNumber.Problem.brandNotSimulated("Elo").description
            == "an Elo card: idp-tui's issuer runs Visa, Mastercard, American Express and Discover cards only")
        #expect(try CardNumber("6011000000000004").brand == .discover, "Discover's own 6011 stays Discover")
    }

    /// The message for an unknown network names every brand the simulation accepts (Discover included).
    @Test func anUnknownBrandNamesEveryAcceptedBrand() {
        let message = CardNumber.Problem.unknownBrand.description
        for brand in CardBrand.allCases { #expect(message.contains(brand.rawValue), "\(brand) missing from \(message)") }
        #expect(message == "the card number is not a Visa, Mastercard, American Express or Discover number")
    }

    @Test func aCardNumberPrintsMasked() throws {
        let card = try CardNumber("4000000000002701")
        #expect("\(card)" == "•••• 2701")
        #expect(!String(describing: card).contains("400000000000"))
    }

    @Test func everyDefaultCardIsAValidNumberOfItsBrand() throws {
        for card in CardCatalog.defaults {
            let number = try CardNumber(card.number)
            #expect(number.brand == card.brand, "\(card.number)")
        }
        #expect(Set(CardCatalog.defaults.map(\.number)).count == CardCatalog.defaults.count)
    }
}
