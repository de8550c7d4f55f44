// Only these two names of ThreeDSecure: in this file `ThreeDSecure` names the module and nothing else.
import enum ThreeDSecure.CardBrand
import struct ThreeDSecure.CardNumber

/// The card number ``ScriptedCardholder`` checks: its initializers throw `CardNumber.Problem` for a number that is
/// not a card, so app code that imports `IdpTuiWorld` alone can catch it by name (it needed idp-tui's
/// `ThreeDSecure` module, which is no product). The same type as the simulated issuer's. Ours (docs/sdk-names.md).
public typealias CardNumber = ThreeDSecure.CardNumber

/// A card's network, as ``CardNumber`` and `CardNumber.Problem.wrongLength(brand:expected:)` carry it.
public typealias CardBrand = ThreeDSecure.CardBrand
