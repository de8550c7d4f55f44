import FlowCatalog
import FlowEngine
import FlowRecords
import Foundation
import IdpSdk
import LegacyFlows
import PaymentFlows
import Secrets

// A bracketed paste, into whatever has the keys.
extension TerminalApp {
    /// Bracketed paste: the text goes into the focused field as text. It never submits; in a form a line break
    /// or a tab goes on to the next field (``FieldForm/paste(_:)``), elsewhere line breaks are dropped.
    /// Bytes that are not UTF-8 came from the terminal and were dropped (a Latin-1 terminal's é): said on the status
    /// line, as a key not kept is, rather than a field that silently lacks a letter ("Jos" was sent for "José").
    public func noteInputNotUTF8() {
        state.notice = Self.inputNotUTF8
    }

    static let inputNotUTF8 = "dropped input that is not UTF-8: set the terminal to UTF-8"

    public func handlePaste(_ text: String) {
        state.notice = nil
        guard !state.isTooSmall else { return }
        guard serviceIfReady != nil else {
            waitUntilReady(.paste(text))
            return
        }
        // Into the filter being typed, when one is open over the screen (the test cards', the log's), without its
        // control characters (line breaks among them).
        // A filter takes at most its limit: one character more says it is full. Fed one by one, 100 KB pasted
        // into the test cards' filter matched the cards 100,000 times, and Ctrl-C waited 90 s behind it.
        let typed = text.lazy.filter { $0.unicodeScalars.allSatisfy { $0.properties.generalCategory != .control } }
            .prefix(LogFocusState.filterLimit + 1)
        if var picker = state.cardPicker {
            picker.editingFilter = true
            for character in typed { handleCardPicker(.character(character), &picker) }
            return
        }
        if var focus = state.logFocus, focus.editingFilter {
            for character in typed { handleLogFocus(.character(character), &focus) }
            return
        }
        if case .transcript(var transcript, let history) = state.screen, transcript.editingFilter {
            for character in typed {
                handleTranscript(.character(character), &transcript, returnTo: history)
                if case .transcript(let now, _) = state.screen { transcript = now }
            }
            return
        }
        if case .history(var history) = state.screen, history.editingFilter {
            for character in typed {
                handleHistory(.character(character), &history)
                if case .history(let now) = state.screen { history = now }
            }
            return
        }
        // The log has the keys (F6 from a form): the form behind, drawn without its focus, takes no paste either.
        if state.logFocus != nil {
            state.notice = LogFocusState.pasteIgnored
            return
        }
        // A paste edits the field as typing does, and so clears the form's last complaint (it stayed until a key).
        switch state.screen {
        case .form(var form) where form.focusedField != nil:
            form.error = nil
            state.notice = form.paste(text).notice
            state.screen = .form(form)
        case .payment(var form) where form.focusedField != nil:
            form.clearError()
            // A paste replaces the last card as typing does (``handlePayment(_:_:)``).
            if form.focusHoldsLastCard { form.inputs[form.focus].clear() }
            let before = form.inputs.map(\.text)
            state.notice = form.paste(text).notice
            form.formatAsTyped()
            form.forgetRefusals(changedFrom: before)
            form.sayStrayCharacters()
            state.screen = .payment(form)
        case .challenge(var challenge) where challenge.focusedStop == .code:
            challenge.error = nil
            var outcome = FormPaste()
            outcome.typeAlone(text, into: &challenge.code)
            state.notice = outcome.notice
            state.screen = .challenge(challenge)
        case .form(var form):
            form.sayUnderTheButtons(notPastedOnAButton)
            state.screen = .form(form)
        case .payment(var form):
            form.sayUnderTheButtons(notPastedOnAButton)
            state.screen = .payment(form)
        default:
            state.notice = "paste ignored: no text field has focus"
        }
    }
}
