/// The status of a master controller's result event, as iOS spells it: `.KSMOK`, `.KSMINTERNAL_ERROR` …
///
/// The MC-SDK's Objective-C enum keeps its `KSM` prefix in Swift. Android's spelling (`StatusType.OK`) works too:
/// ``StatusType`` names this type and every case has a static twin without the prefix, so the migration guide's
/// `result.status == .KSMOK` and `result.status == StatusType.OK` both compile. The names are the vendor's
/// (docs/sdk-names.md, with the two the documentation misspells: `KSMGLOBALPINSET`, `…AUTHORIZATIN_CODE`); the
/// integer values are idp-tui's, as the real ones are not public.
public enum KSMEventStatusType: Int, Sendable, CaseIterable {
    case KSMOK
    case KSMUPDATE_AVAILABLE
    case KSMUPDATE_NECESSARY
    case KSMUSER_CANCEL
    case KSMUSER_CONFIRMATION_TIMEOUT
    case KSMINVALID_PIN
    case KSMUNKNOWN_VERSION
    case KSMUNKNOWN_CLIENT_TYPE
    case KSMWRONG_CREDENTIALS
    case KSMUNKNOWN_CERTIFICATE
    case KSMINTERNAL_ERROR
    case KSMACTIVATION_CODE_EXPIRED
    case KSMLOCKED_CERTIFICATE
    case KSMLOCKED_USER
    case KSMINVALID_STATE
    case KSMINVALID_PARAMETER
    case KSMINVALID_USER_ID
    case KSMUSER_ID_ALREADY_EXISTS
    case KSMREGISTER_APP
    case KSMMISMATCHED_USER
    case KSMTEMPORARY_LOCKED
    case KSMINVALID_PASSWORD
    case KSMPASSWORD_BLOCKED
    case KSMNOT_REACHABLE
    case KSMPIN_BLOCKED
    case KSMACCESS_DENIED
    case KSMTENANT_ID_ALREADY_SET
    case KSMUNINITIALIZED
    case KSMFAILED
    case KSMLOGIN_REQUIRED
    case KSMINVALID_TOKEN
    case KSMNOT_SUPPORTED
    case KSMCONNECTION_LOST
    case KSMSERVER_CANCEL
    case KSMAPP_REGISTERED
    case KSMPROPERTY_NOT_EXISTS
    case KSMINVALID_KEY_LENGTH
    case KSMNOT_UNIQUE
    case KSMTEXT_TOO_LONG
    case KSMNEGATIVE
    case KSMREAD_ONLY
    case KSMNOT_SUSPENDED
    case KSMATC_EXPIRES_SOON
    case KSMATC_EXPIRED
    case KSMPROPERTY_EXISTS
    case KSMALREADY_INITIALIZED
    case KSMGLOBALPINSET
    case KSMUPDATE_AVAILABLE_GLOBAL_PIN_SET
    case KSMOFFLINE_NOT_ACTIVATED
    case KSMNO_TOKEN_DATA_AVAILABLE
    case KSMTOKEN_DATA_IS_OUTDATED
    case KSMCANNOT_ACQUIRE_TOKEN_DATA
    case KSMCANNOT_ACQUIRE_AUTHORIZATION_CODE
    case KSMCANNOT_ACQUIRE_ACCESS_TOKEN_FOR_AUTHORIZATIN_CODE

    /// The name without the iOS prefix, as Android spells it and as idp-tui's results print it: `OK`.
    public var name: String { Self.names[rawValue] }

    private static let names = allCases.map { String(String(describing: $0).dropFirst(3)) }
}

/// Android's name for the status type (the migration guide writes `StatusType.OK`).
public typealias StatusType = KSMEventStatusType

// Android's spellings, without the prefix.
extension KSMEventStatusType {
    public static let OK = KSMEventStatusType.KSMOK
    public static let UPDATE_AVAILABLE = KSMEventStatusType.KSMUPDATE_AVAILABLE
    public static let UPDATE_NECESSARY = KSMEventStatusType.KSMUPDATE_NECESSARY
    public static let USER_CANCEL = KSMEventStatusType.KSMUSER_CANCEL
    public static let USER_CONFIRMATION_TIMEOUT = KSMEventStatusType.KSMUSER_CONFIRMATION_TIMEOUT
    public static let INVALID_PIN = KSMEventStatusType.KSMINVALID_PIN
    public static let UNKNOWN_VERSION = KSMEventStatusType.KSMUNKNOWN_VERSION
    public static let UNKNOWN_CLIENT_TYPE = KSMEventStatusType.KSMUNKNOWN_CLIENT_TYPE
    public static let WRONG_CREDENTIALS = KSMEventStatusType.KSMWRONG_CREDENTIALS
    public static let UNKNOWN_CERTIFICATE = KSMEventStatusType.KSMUNKNOWN_CERTIFICATE
    public static let INTERNAL_ERROR = KSMEventStatusType.KSMINTERNAL_ERROR
    public static let ACTIVATION_CODE_EXPIRED = KSMEventStatusType.KSMACTIVATION_CODE_EXPIRED
    public static let LOCKED_CERTIFICATE = KSMEventStatusType.KSMLOCKED_CERTIFICATE
    public static let LOCKED_USER = KSMEventStatusType.KSMLOCKED_USER
    public static let INVALID_STATE = KSMEventStatusType.KSMINVALID_STATE
    public static let INVALID_PARAMETER = KSMEventStatusType.KSMINVALID_PARAMETER
    public static let INVALID_USER_ID = KSMEventStatusType.KSMINVALID_USER_ID
    public static let USER_ID_ALREADY_EXISTS = KSMEventStatusType.KSMUSER_ID_ALREADY_EXISTS
    public static let REGISTER_APP = KSMEventStatusType.KSMREGISTER_APP
    public static let MISMATCHED_USER = KSMEventStatusType.KSMMISMATCHED_USER
    public static let TEMPORARY_LOCKED = KSMEventStatusType.KSMTEMPORARY_LOCKED
    public static let INVALID_PASSWORD = KSMEventStatusType.KSMINVALID_PASSWORD
    public static let PASSWORD_BLOCKED = KSMEventStatusType.KSMPASSWORD_BLOCKED
    public static let NOT_REACHABLE = KSMEventStatusType.KSMNOT_REACHABLE
    public static let PIN_BLOCKED = KSMEventStatusType.KSMPIN_BLOCKED
    public static let ACCESS_DENIED = KSMEventStatusType.KSMACCESS_DENIED
    public static let TENANT_ID_ALREADY_SET = KSMEventStatusType.KSMTENANT_ID_ALREADY_SET
    public static let UNINITIALIZED = KSMEventStatusType.KSMUNINITIALIZED
    public static let FAILED = KSMEventStatusType.KSMFAILED
    public static let LOGIN_REQUIRED = KSMEventStatusType.KSMLOGIN_REQUIRED
    public static let INVALID_TOKEN = KSMEventStatusType.KSMINVALID_TOKEN
    public static let NOT_SUPPORTED = KSMEventStatusType.KSMNOT_SUPPORTED
    public static let CONNECTION_LOST = KSMEventStatusType.KSMCONNECTION_LOST
    public static let SERVER_CANCEL = KSMEventStatusType.KSMSERVER_CANCEL
    public static let APP_REGISTERED = KSMEventStatusType.KSMAPP_REGISTERED
    public static let PROPERTY_NOT_EXISTS = KSMEventStatusType.KSMPROPERTY_NOT_EXISTS
    public static let INVALID_KEY_LENGTH = KSMEventStatusType.KSMINVALID_KEY_LENGTH
    public static let NOT_UNIQUE = KSMEventStatusType.KSMNOT_UNIQUE
    public static let TEXT_TOO_LONG = KSMEventStatusType.KSMTEXT_TOO_LONG
    public static let NEGATIVE = KSMEventStatusType.KSMNEGATIVE
    public static let READ_ONLY = KSMEventStatusType.KSMREAD_ONLY
    public static let NOT_SUSPENDED = KSMEventStatusType.KSMNOT_SUSPENDED
    public static let ATC_EXPIRES_SOON = KSMEventStatusType.KSMATC_EXPIRES_SOON
    public static let ATC_EXPIRED = KSMEventStatusType.KSMATC_EXPIRED
    public static let PROPERTY_EXISTS = KSMEventStatusType.KSMPROPERTY_EXISTS
    public static let ALREADY_INITIALIZED = KSMEventStatusType.KSMALREADY_INITIALIZED
    public static let GLOBALPINSET = KSMEventStatusType.KSMGLOBALPINSET
    public static let UPDATE_AVAILABLE_GLOBAL_PIN_SET = KSMEventStatusType.KSMUPDATE_AVAILABLE_GLOBAL_PIN_SET
    public static let OFFLINE_NOT_ACTIVATED = KSMEventStatusType.KSMOFFLINE_NOT_ACTIVATED
    public static let NO_TOKEN_DATA_AVAILABLE = KSMEventStatusType.KSMNO_TOKEN_DATA_AVAILABLE
    public static let TOKEN_DATA_IS_OUTDATED = KSMEventStatusType.KSMTOKEN_DATA_IS_OUTDATED
    public static let CANNOT_ACQUIRE_TOKEN_DATA = KSMEventStatusType.KSMCANNOT_ACQUIRE_TOKEN_DATA
    public static let CANNOT_ACQUIRE_AUTHORIZATION_CODE = KSMEventStatusType.KSMCANNOT_ACQUIRE_AUTHORIZATION_CODE
    public static let CANNOT_ACQUIRE_ACCESS_TOKEN_FOR_AUTHORIZATIN_CODE = KSMEventStatusType.KSMCANNOT_ACQUIRE_ACCESS_TOKEN_FOR_AUTHORIZATIN_CODE
}
