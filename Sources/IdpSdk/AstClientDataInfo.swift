import KSMasterController

/// The master controller's `GetAstClientDataResultEvent`, as the IdpSdk takes it.
public struct AstClientDataInfo: Sendable {
    public let clientData: String
    public let astClientId: String
    public let codeChallange: String
    public let codeChallangeMethod: String

    public init(astClientData: KSMGetAstClientDataResultEvent) {
        clientData = astClientData.clientData
        astClientId = astClientData.astClientId
        codeChallange = astClientData.codeChallange
        codeChallangeMethod = astClientData.codeChallangeMethod
    }
}
