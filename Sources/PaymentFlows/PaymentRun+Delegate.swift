import FlowEngine
import SafepayDropsSDK

/// The delegate's callbacks, on the main actor (where the view calls them).
extension PaymentRun: SafepayPayerAuthenticationDelegate {
    func onPayerAuthenticationRequired(data: PayerAuthenticationData) {
        report("onPayerAuthenticationRequired", data.threeDSecure, detail: "a challenge follows (request_id \(data.requestId ?? "?"))")
        required.fulfil(())
    }

    func onPayerAuthenticationFrictionless(data: PayerAuthenticationData) {
        report("onPayerAuthenticationFrictionless", data.threeDSecure, detail: "authenticated without a challenge")
        end(.frictionless(data))
    }

    func onPayerAuthenticationSuccess(data: PayerAuthenticationSuccessData) {
        report("onPayerAuthenticationSuccess", data.threeDSecure,
               detail: "payment_method \(data.paymentMethod ?? "none"), authorization \(data.authorization ?? "none")")
        end(.success(data))
    }

    func onPayerAuthenticationFailure(data: PayerAuthenticationErrorData) {
        report("onPayerAuthenticationFailure", data.threeDSecure, detail: data.error)
        end(.failure(data))
    }

    func onPayerAuthenticationUnavailable(data: PayerAuthenticationData) {
        report("onPayerAuthenticationUnavailable", data.threeDSecure, detail: data.errorMessage ?? "")
        end(.unavailable(data))
    }

    func onSafepayError(error: SafepayErrorData) {
        emit(FlowStep(Callback.safepayError), from: .safepayDrops, to: .app,
             status: error.error.status.map(String.init) ?? "error", detail: error.error.message)
        end(.safepayError(error))
    }
}
