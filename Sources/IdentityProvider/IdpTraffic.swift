/// One request the IdP answered, and its answer, for logs: never a value of a form field or a token. (The
/// request's own line is logged as it leaves the device: ``SimulatedNetwork/onSending(_:)``.)
public struct IdpTraffic: Sendable, Equatable {
    public let request: NetworkRequest
    public let response: String
    /// The HTTP status.
    public let status: String
    /// The device whose request it was, when the request says (its client data).
    public var deviceID: String?

    public init(request: NetworkRequest, response: String, status: String) {
        self.request = request
        self.response = response
        self.status = status
    }

    init(_ request: NetworkRequest, response page: AuthorizationPage) {
        let (response, status): (String, String) = switch page {
        case .form(let form): ("login form page \(form.page) of \(form.pageCount): \(form.fields.map(\.rawValue).joined(separator: ", "))", "200")
        case .redirect: ("redirect to the app with an authorization code", "302")
        case .error(let failure): ("\(IdpFailure.subsystem)/\(failure.code): \(failure.message)", String(failure.httpStatus))
        case .malformed(let what): (what, "200")
        }
        self.init(request: request, response: response, status: status)
    }
}
