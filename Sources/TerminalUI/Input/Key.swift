/// A key press, as the app sees it, whichever backend read it.
public enum Key: Equatable, Sendable {
    case character(Character)
    case enter
    case tab
    case backTab
    case up
    case down
    case left
    case right
    case home
    case end
    case backspace
    case delete
    case escape
    case pageUp
    case pageDown
    case f1
    /// Opens the faults panel.
    case f2
    /// Opens the history.
    case f3
    /// Test data: fills a demo user, or opens the test cards.
    case f4
    /// Into the event log from any screen (a form's, a challenge's), and back.
    case f6
    /// Ctrl and a letter, lower case: `.control("a")` is Ctrl-A.
    case control(Character)
    /// Alt (Option) and a character, sent as Esc and the character: `.alt("b")` is Alt-B.
    case alt(Character)
    case altBackspace
    case altEnter
    /// Ctrl-← and Ctrl-→ (Alt-← and Alt-→ too): a word at a time.
    case wordLeft
    case wordRight
}
