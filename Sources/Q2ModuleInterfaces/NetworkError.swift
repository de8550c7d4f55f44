/// Why the simulated network did not deliver Core's logon, re-exported whole: what
/// ``MobileCoreLoginFailure/networkUnavailable(error:)`` carries as its `error` (`.offline`, `.timedOut(_:)`,
/// `.unreachable(_:)`), so an app that imports only this module matches it by name and by its cases (it needed
/// idp-tui's `IdentityProvider` module, which is no product), also under Swift's `MemberImportVisibility`. On a
/// device the error would be the URL session's; the type is ours (docs/sdk-names.md).
@_exported import enum IdentityProvider.NetworkError
