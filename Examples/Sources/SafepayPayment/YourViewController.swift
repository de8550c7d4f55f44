// The swift-drops-sdk README, "Usage": the view, its configuration, the delegate and the controller, as
// printed, in the README's `YourViewController`.
import SafepayDropsSDK

// Platform edit: on iOS `YourViewController` is a UIKit `UIViewController`, which is @MainActor and adds the
// view to its layout. There is no UIKit here: it is a plain class on the main actor, and there is no layout.
@MainActor
final class YourViewController {
    // Added: kept so that the view lives as long as the payment (a layout would keep it on iOS).
    var payerAuthView: SafepayPayerAuthenticationView?
    var controller: SafepayPayerAuthenticationController?

    /// "Add the view to your layout, then configure it".
    func showPayerAuthentication() {
        let payerAuthView = SafepayPayerAuthenticationView()

        payerAuthView.delegate = self

        payerAuthView.configure(SafepayPayerAuthenticationConfiguration(
            environment: .sandbox,
            authToken: "your-auth-token",
            tracker: "track_xxx",
            deviceDataCollectionJWT: "jwt",
            deviceDataCollectionURL: "https://centinelapistag.cardinalcommerce.com/V1/Cruise/Collect",
            billing: BillingAddress(
                street1: "123 Main Street",
                city: "Berlin",
                country: "DE"
            ),
            authorizationOptions: AuthorizationOptions(
                doCapture: true,
                doCardOnFile: false
            )
        ))
        self.payerAuthView = payerAuthView  // Added: see above.
    }

    /// "Alternatively, use SafepayPayerAuthenticationController as a thin wrapper that proxies the view".
    func showWithController() {
        let payerAuthView = SafepayPayerAuthenticationView()
        // Added: the README's `configuration`, built as above.
        let configuration = SafepayPayerAuthenticationConfiguration(
            environment: .sandbox, authToken: "your-auth-token", tracker: "track_xxx", deviceDataCollectionJWT: "jwt",
            deviceDataCollectionURL: "https://centinelapistag.cardinalcommerce.com/V1/Cruise/Collect",
            billing: BillingAddress(street1: "123 Main Street", city: "Berlin", country: "DE"),
            authorizationOptions: AuthorizationOptions(doCapture: true, doCardOnFile: false))

        let controller = SafepayPayerAuthenticationController(view: payerAuthView)
        controller.delegate = self
        controller.configure(configuration)
        self.controller = controller  // Added: kept until `destroyController()`.
    }

    func destroyController() {
        // later:
        controller?.destroy()
    }
}

extension YourViewController: SafepayPayerAuthenticationDelegate {
    func onPayerAuthenticationSuccess(data: PayerAuthenticationSuccessData) {
        print("success: \(data)")
    }

    func onPayerAuthenticationFailure(data: PayerAuthenticationErrorData) {
        print("failure: \(data)")
    }

    func onPayerAuthenticationRequired(data: PayerAuthenticationData) {
        print("required: \(data)")
    }

    func onPayerAuthenticationFrictionless(data: PayerAuthenticationData) {
        print("frictionless: \(data)")
    }

    func onPayerAuthenticationUnavailable(data: PayerAuthenticationData) {
        print("unavailable: \(data)")
    }

    func onSafepayError(error: SafepayErrorData) {
        print("error: \(error)")
    }
}
