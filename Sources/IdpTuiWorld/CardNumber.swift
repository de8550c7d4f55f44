/// The card number ``ScriptedCardholder`` checks, re-exported whole: its initializers throw `CardNumber.Problem` for a
/// number that is not a card, so an app that imports only this module catches it by name and matches its cases (it
/// needed idp-tui's `ThreeDSecure` module, which is no product), also under Swift's `MemberImportVisibility`, where a
/// type alias leaves the cases and the nested `Problem` behind the module that defines them. Ours
/// (docs/sdk-names.md).
@_exported import struct ThreeDSecure.CardNumber

/// A card's network, as ``CardNumber`` and `CardNumber.Problem.wrongLength(brand:expected:)` carry it.
@_exported import enum ThreeDSecure.CardBrand
