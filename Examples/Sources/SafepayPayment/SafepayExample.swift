// Not from the README: runs the README's code against the simulated world, as an app would.
import IdpTuiWorld
import SafepayDropsSDK

@MainActor
public enum SafepayExample {
    /// The view, configured as the README shows, with the world's cardholder at the Drops page: by default a
    /// frictionless test card. The returned object keeps the payment alive.
    public static func pay() -> any Sendable {
        let screen = YourViewController()
        screen.showPayerAuthentication()
        return screen
    }

    /// Cardinal's step-up test card and the one-time code the cardholder types.
    public static func payWithChallenge() throws -> any Sendable {
        SimulatedWorld.current.cardholder = try ScriptedCardholder(cardNumber: "4000000000002503", oneTimeCode: "1234")
        defer { SimulatedWorld.current.cardholder = ScriptedCardholder() }
        return pay()
    }

    /// The controller: configured, then destroyed at once; no callback may follow.
    public static func payAndDestroy() -> any Sendable {
        let screen = YourViewController()
        screen.showWithController()
        screen.destroyController()
        return screen
    }
}
