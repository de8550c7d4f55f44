import FlowEngine
import Headless
import IdpFlows
import JSONText
import PaymentFlows
import Q2Flows

/// A character no error message of the answers reader writes: when a document that is JSON holds it only inside
/// its keys and strings, an error that shows it has printed a value, or a key the reader does not know (which may
/// be a password typed in the wrong place).
let marker: Unicode.Scalar = "§"

/// C0, DEL and C1 controls.
func isControl(_ scalar: Unicode.Scalar) -> Bool { scalar.value < 0x20 || (0x7f...0x9f).contains(scalar.value) }

/// The answers decoder (`idp-tui run`'s stdin or `--answers`): any bytes are read for one flow of each family,
/// and, when they are an array, for as many flows as it has elements; what is accepted keeps within its limits,
/// a payment's card form is read as the run reads it, and what is refused is one line, without control characters,
/// that shows no value.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let document = try? JSONParser.parse(bytes)
    var lists: [[FlowKind]] = [[.login], [.payerAuth], [.q2Login]]
    if case .array(let items)? = document?.value, items.count > 1 {
        lists.append(Array(repeating: .activate, count: items.count))
        lists.append(Array(repeating: .payerAuth, count: items.count))
        lists.append(items.indices.map { $0.isMultiple(of: 2) ? .payerAuth : .legacyLogin })
    }
    for flows in lists {
        do {
            let answers = try FlowAnswers.parse(bytes, flows: flows)
            check(answers.count == flows.count, "\(answers.count) answers for \(flows.count) flows")
            for (answer, flow) in zip(answers, flows) {
                if flow == .payerAuth { checkPayment(answer.payment) } else { checkCredentials(answer, of: flow) }
            }
        } catch {
            // One line on stderr, and nothing in it a terminal acts on.
            check(!error.message.isEmpty && !error.message.unicodeScalars.contains(where: isControl), "not one plain line: \(error.message)")
            if document != nil {
                check(!error.message.unicodeScalars.contains(marker), "an error shows what the answers hold: \(error.message)")
            }
        }
    }
    return 0
}

func checkCredentials(_ answers: FlowAnswers, of flow: FlowKind) {
    for (key, value) in answers.values {
        check(FlowAnswers.keys(for: flow).contains(key), "a key \(flow) does not take kept: \(key)")
        check(value.byteCount <= FlowAnswers.maximumLength, "\(key) is longer than the limit")
        check(!value.reveal().unicodeScalars.contains(where: \.isControlCharacter), "\(key) holds a control character (C0, DEL or C1)")
    }
}

func checkPayment(_ payment: PaymentAnswers) {
    check(payment.otp.allSatisfy { !$0.isEmpty && $0.byteCount <= 16 }, "a one-time code outside 1 to 16 bytes")
    check(!payment.otp.contains { $0.reveal().unicodeScalars.contains(where: \.isControlCharacter) }, "a one-time code holds a control character")
    check(payment.otp.count <= 16 && (!payment.otpRepeats || payment.otp.count == 1), "\(payment.otp.count) one-time codes")
    check((0...10).contains(payment.resend), "resend \(payment.resend)")
    check(payment.choices.count <= 16, "\(payment.choices.count) choices")
    check(payment.delay >= .zero && payment.delay <= .seconds(60), "delay \(payment.delay)")
    check(payment.challengeDelay >= .zero && payment.challengeDelay <= .seconds(3700), "challenge delay \(payment.challengeDelay)")
    guard let card = payment.card, let expiry = payment.expiry else { return }
    // The card form, as `run` reads it before anything runs.
    let defaults = PaymentDefaults()
    guard let details = try? PaymentForm.details(
        card: card, expiry: expiry, amount: payment.amount ?? defaults.amount, currency: payment.currency ?? defaults.currency,
        merchant: payment.merchant ?? defaults.merchant)
    else { return }
    check((1...12).contains(details.expiryMonth), "expiry month \(details.expiryMonth)")
    check((1...PaymentForm.maximumAmount).contains(details.amountMinorUnits), "amount \(details.amountMinorUnits)")
    check(details.currency.count == 3, "currency \(details.currency)")
    check(!details.merchantName.isEmpty && details.merchantName.count <= PaymentForm.maximumMerchantLength, "merchant name")
}

func check(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError(message()) }
}
