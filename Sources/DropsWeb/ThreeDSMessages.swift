import Crypto
import Foundation
import JSONText
import ThreeDSecure

/// The EMV 3DS messages as the log shows them: one line with the fields a 3DS Server and a merchant read, and
/// the whole message (EMV field names) as JSON. Neither holds a secret: the card is masked, a one-time code is
/// never sent in words, and the authentication value is cut to ``shortened(_:)``.
enum ThreeDSMessage {
    struct Logged {
        /// The message type: AReq, ARes, CReq, CRes, RReq or Erro.
        let name: String
        let line: String
        let json: String
    }

    /// The ids of one transaction, which every message after the AReq carries (EMV 3DS 2.2: the 3DS Server's
    /// and the ACS's in the CReq, CRes and RReq; the directory server's in the RReq and wherever known in an Erro).
    struct TransactionIDs {
        let threeDSServer: String
        let directoryServer: String?
        let acs: String?

        init(_ response: AuthenticationResponse) {
            threeDSServer = response.threeDSServerTransID
            directoryServer = response.dsTransID
            acs = response.acsTransID
        }
    }

    /// `flags`: the fields that are JSON booleans (`oobContinue`).
    /// `statusShown`: the event's status column shows the transStatus, which the line then leaves out.
    /// `values`: the fields that are JSON arrays or objects (`challengeSelectInfo`), which the line leaves out.
    static func logged(_ fields: KeyValuePairs<String, String?>, flags: [String: Bool] = [:], values: [String: JSONValue] = [:],
                       line: String? = nil, statusShown: Bool = false) -> Logged {
        let present = fields.compactMap { key, value in value.map { (key, $0) } }
        // The line leaves out what every message repeats (type, version, category, transaction ids, reference
        // numbers, the screen's labels): the JSON has them.
        let line = line ?? present.filter { !repeated.contains($0.0) && !$0.0.hasSuffix("TransID") && !(statusShown && $0.0 == "transStatus") }
            .map { "\($0.0) \($0.1)" }.joined(separator: ", ")
        let json = JSONValue.object(Dictionary(present.map { ($0.0, JSONValue.string($0.1)) }, uniquingKeysWith: { $1 })
            .merging(flags.mapValues { JSONValue.bool($0) }) { $1 }.merging(values) { $1 })
        let name = present.first { $0.0 == "messageType" }?.1 ?? "message"
        return Logged(name: name, line: line, json: json.description)
    }

    private static let repeated: Set = [
        "messageType", "messageVersion", "messageCategory", "acsReferenceNumber", "dsReferenceNumber", "authenticationType",
        "submitAuthenticationLabel", "oobContinueLabel", "acsHTML", "challengeInfoHeader", "challengeInfoLabel",
        "challengeInfoText", "challengeInfoTextIndicator", "resendInformationLabel",
    ]

    /// `messageCategory` 01: a payment authentication.
    static let paymentCategory = "01"
    /// `authenticationType` 02: dynamic authentication (a code, a choice or an approval per challenge).
    static let dynamicAuthentication = "02"
    /// The reference numbers EMVCo assigns an approved ACS and directory server: the simulators' own.
    static let acsReferenceNumber = "IDPTUI-SIMULATED-ACS"
    static let dsReferenceNumber = "IDPTUI-SIMULATED-DS"

    /// An authentication value (CAVV, AAV) as results and logs show it: its first 8 characters and an ellipsis. It
    /// is a one-use cryptogram an app sends to its acquirer, not something to keep in a log.
    static func shortened(_ value: String?) -> String? {
        value.map { $0.count > 8 ? String($0.prefix(8)) + "…" : $0 }
    }

    /// The AReq sent at `date`: `purchaseDate` is when the cardholder paid (the form was sent), in UTC, and
    /// `cardExpiryDate` the expiry the issuer judges (YYMM).
    static func areq(_ request: AuthenticationRequest, at date: Date) -> Logged {
        let currency = Currency(code: request.currency)
        return logged([
            "messageType": "AReq", "messageVersion": AccessControlServer.messageVersion, "messageCategory": paymentCategory,
            "threeDSServerTransID": request.threeDSServerTransID, "acctNumber": request.card.description,
            "cardExpiryDate": String(format: "%02d%02d", request.expiryYear % 100, request.expiryMonth),
            "purchaseDate": purchaseDate(date), "purchaseAmount": String(request.amountMinorUnits),
            "purchaseCurrency": currency?.numeric ?? request.currency, "purchaseExponent": currency.map { String($0.exponent) },
            "merchantName": request.merchantName, "threeDSCompInd": request.methodCompletion,
        ], line: "card \(request.card), \(AccessControlServer.format(request.amountMinorUnits, request.currency)), \(request.merchantName), threeDSCompInd \(request.methodCompletion)")
    }

    /// EMV 3DS's date and time format, YYYYMMDDHHMMSS in UTC.
    static func purchaseDate(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? .current
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        return String(format: "%04d%02d%02d%02d%02d%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0,
                      parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0)
    }

    static func ares(_ response: AuthenticationResponse) -> Logged {
        logged([
            "messageType": "ARes", "messageVersion": response.messageVersion, "transStatus": response.transStatus?.rawValue,
            "transStatusReason": response.transStatusReason?.rawValue, "eci": response.eci,
            "authenticationValue": shortened(response.authenticationValue),
            "acsChallengeMandated": response.acsChallengeMandated, "threeDSServerTransID": response.threeDSServerTransID,
            "dsTransID": response.dsTransID, "acsTransID": response.acsTransID,
            "acsReferenceNumber": acsReferenceNumber, "dsReferenceNumber": dsReferenceNumber,
            "authenticationType": response.transStatus == .challengeRequired ? dynamicAuthentication : nil,
        ], statusShown: true)
    }

    /// A CReq carrying `answer` (nil: the SDK's first CReq, which fetches the first screen). On a screen that hides
    /// its choice (a scenario's own card), the options chosen are masked in the log as a code is.
    static func creq(_ ids: TransactionIDs, _ answer: ChallengeAnswer?, on screen: ChallengeScreen? = nil) -> Logged {
        var entry: String?, cancel: String?, resend: String?, oobContinue: Bool?
        switch answer {
        case nil: break
        case .code?: entry = "••••"
        case .select(let chosen)?:
            entry = screen?.hidesChoice == true ? "••" : chosen.sorted().map { String($0 + 1) }.joined(separator: ",")
        case .continueOutOfBand?: oobContinue = true
        case .resend?: resend = "Y"
        case .cancel?: cancel = ChallengeCancel.cardholderSelectedCancel.rawValue
        case .unsupportedInterface?: cancel = ChallengeCancel.transactionError.rawValue
        case .timedOutAtSDK?: cancel = ChallengeCancel.timedOutAtSDK.rawValue
        case .transactionError?: cancel = ChallengeCancel.transactionError.rawValue
        }
        return logged([
            "messageType": "CReq", "messageVersion": AccessControlServer.messageVersion,
            "threeDSServerTransID": ids.threeDSServer, "acsTransID": ids.acs,
            "challengeDataEntry": entry, "resendChallenge": resend, "challengeCancel": cancel,
        ], flags: oobContinue.map { ["oobContinue": $0] } ?? [:],
           line: oobContinue == true ? "oobContinue true" : answer == nil ? "fetches the first screen" : nil)
    }

    /// A challenge screen. A native screen (acsUiType 01 to 04) carries what the 3DS SDK draws, as EMV 3DS 2.2
    /// requires of it: the header, the challenge text (after why the last answer failed, with
    /// challengeInfoTextIndicator Y; after a resend's notice, N), the entry's label, a select screen's options
    /// (`challengeSelectInfo`, named 1, 2, 3 … as the CReq's challengeDataEntry names them) and its buttons'
    /// labels; an HTML screen its page.
    static func cres(_ ids: TransactionIDs, _ screen: ChallengeScreen) -> Logged {
        let native = screen.uiType != .htmlOther
        let label = screen.infoLabel
        let select = [.singleSelect, .multiSelect].contains(screen.uiType)
            ? ["challengeSelectInfo": JSONValue.array(screen.options.enumerated().map { .object([String($0.offset + 1): .string($0.element)]) })]
            : [:]
        return logged([
            "messageType": "CRes", "messageVersion": AccessControlServer.messageVersion,
            "threeDSServerTransID": ids.threeDSServer, "acsTransID": ids.acs,
            "acsUiType": screen.uiType.rawValue, "challengeCompletionInd": "N",
            "challengeInfoHeader": screen.infoHeader, "challengeInfoLabel": label,
            "challengeInfoText": native ? screen.message.map { "\($0). \(screen.prompt)" } ?? screen.prompt : nil,
            "challengeInfoTextIndicator": native ? (screen.message != nil && screen.messageWarns ? "Y" : "N") : nil,
            "submitAuthenticationLabel": [.text, .singleSelect, .multiSelect].contains(screen.uiType) ? "Submit" : nil,
            "resendInformationLabel": screen.uiType == .text && screen.resendsLeft > 0 ? "Resend code" : nil,
            "oobContinueLabel": screen.uiType == .outOfBand ? "Continue" : nil,
            "acsHTML": screen.uiType == .htmlOther ? htmlScreen(screen) : nil,
        ], values: select, line: "acsUiType \(screen.uiType.rawValue), challengeCompletionInd N" + (screen.message.map { screen.messageWarns ? ", challengeInfoTextIndicator Y: \($0)" : ", \($0)" } ?? ""))
    }

    static func cresFinal(_ ids: TransactionIDs, _ result: AuthenticationResult) -> Logged {
        logged([
            "messageType": "CRes", "messageVersion": AccessControlServer.messageVersion,
            "threeDSServerTransID": ids.threeDSServer, "acsTransID": result.acsTransID,
            "transStatus": result.transStatus.rawValue, "challengeCompletionInd": "Y",
        ])
    }

    static func rreq(_ ids: TransactionIDs, _ result: AuthenticationResult) -> Logged {
        logged([
            "messageType": "RReq", "messageVersion": AccessControlServer.messageVersion, "messageCategory": paymentCategory,
            "authenticationType": [.authenticated, .notAuthenticated].contains(result.transStatus) ? dynamicAuthentication : nil, "transStatus": result.transStatus.rawValue,
            "transStatusReason": result.transStatusReason?.rawValue, "eci": result.eci,
            "authenticationValue": shortened(result.authenticationValue), "challengeCancel": result.challengeCancel?.rawValue,
            // Two digits, 00 to 99.
            "interactionCounter": result.interactionCounter < 10 ? "0\(result.interactionCounter)" : String(min(result.interactionCounter, 99)),
            "threeDSServerTransID": ids.threeDSServer, "dsTransID": ids.directoryServer, "acsTransID": result.acsTransID,
        ], statusShown: true)
    }

    /// The directory server's answer to the RReq: `resultsStatus` 01, the results received for further processing.
    static func rres(_ ids: TransactionIDs, _ result: AuthenticationResult) -> Logged {
        logged([
            "messageType": "RRes", "messageVersion": AccessControlServer.messageVersion, "resultsStatus": "01",
            "threeDSServerTransID": ids.threeDSServer, "dsTransID": ids.directoryServer, "acsTransID": result.acsTransID,
        ])
    }

    /// An HTML screen's `acsHTML`: the page the ACS would render, base64url-encoded as EMV 3DS sends it.
    static func htmlScreen(_ screen: ChallengeScreen) -> String {
        let page = "<html><body><h1>\(screen.issuerName)</h1><p>\(screen.prompt)</p><p>\(screen.merchantName) \(screen.amount) \(screen.maskedCard)</p></body></html>"
        return Base64URL.encode(Array(page.utf8))
    }

    /// An Erro about a message of type `messageType` (AReq, CReq, CRes), with the transaction's ids known so far.
    static func erro(_ error: ProtocolError, about messageType: String, of ids: TransactionIDs) -> Logged {
        logged([
            "messageType": "Erro", "messageVersion": AccessControlServer.messageVersion, "errorCode": error.errorCode,
            "errorComponent": error.errorComponent.rawValue, "errorDescription": error.errorDescription,
            "errorDetail": error.errorDetail, "errorMessageType": messageType, "threeDSServerTransID": ids.threeDSServer,
            "dsTransID": ids.directoryServer, "acsTransID": ids.acs,
        ])
    }
}
