import Testing

/// Every error type a product's API throws or carries is named through that product: app code catches it by its
/// type with the product's import alone. `ScriptedCardholder` threw `CardNumber.Problem` and Q2's
/// `.networkUnavailable(error:)` carried `NetworkError`, both from idp-tui modules that are no product, so a `catch`
/// naming them needed `import ThreeDSecure` or `import IdentityProvider` (session 51). Checked also under Swift's
/// `MemberImportVisibility`, where a type alias would name the type but leave its cases behind its module.
@Suite struct ProductErrorTypesTests {
    static let modes: [[String]] = [[], ["-enable-upcoming-feature", "MemberImportVisibility"]]

    @Test(arguments: modes) func theCardholdersProblemIsNamedThroughIdpTuiWorld(_ mode: [String]) throws {
        let checked = try IsolatedConformanceTests.typecheck("""
            import IdpTuiWorld
            func problem(_ number: String) -> String? {
                do {
                    _ = try ScriptedCardholder(cardNumber: number)
                    return nil
                } catch let problem as CardNumber.Problem {
                    if case .wrongLength(let brand, _) = problem { let named: CardBrand = brand; return named.rawValue }
                    return problem.description
                } catch let problem as ScriptedCardholder.InvalidOneTimeCode {
                    return problem.description
                } catch {
                    return "\\(error)"
                }
            }
            func world() throws(SimulatedWorldError) { try SimulatedWorld.use() }
            func luhn(_ problem: CardNumber.Problem) -> Bool { problem == .failsLuhnCheck }
            """, arguments: mode)
        #expect(checked.status == 0, "\(checked.errors)")
    }

    @Test(arguments: modes) func whatQ2sFailureCarriesIsNamedThroughQ2ModuleInterfaces(_ mode: [String]) throws {
        let checked = try IsolatedConformanceTests.typecheck("""
            import Q2ModuleInterfaces
            func said(_ failure: MobileCoreLoginFailure) -> String {
                switch failure {
                case .networkUnavailable(let error as NetworkError):
                    if case .offline = error { return "offline" }
                    return error.description
                case .invalidCredentials(let error as CoreError, _, _), .genericError(let error as CoreError, _, _):
                    return error.message
                default:
                    return failure.message
                }
            }
            func offline(_ error: NetworkError) -> Bool { error == .offline }
            """, arguments: mode)
        #expect(checked.status == 0, "\(checked.errors)")
    }
}
