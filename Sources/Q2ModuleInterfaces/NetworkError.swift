// Only this name of IdentityProvider: in this file `IdentityProvider` names the module, not its class of that name.
import enum IdentityProvider.NetworkError

/// Why the simulated network did not deliver Core's logon: what ``MobileCoreLoginFailure/networkUnavailable(error:)``
/// carries as its `error` (`.offline`, `.timedOut(_:)`, `.unreachable(_:)`), so app code that imports
/// `Q2ModuleInterfaces` alone can match it by name (it needed idp-tui's `IdentityProvider` module, which is no
/// product). On a device the error would be the URL session's; the type is ours (docs/sdk-names.md).
public typealias NetworkError = IdentityProvider.NetworkError
