/// What a cell is for. Themes map roles to colours and attributes; snapshots record roles, not colours.
public enum Role: String, Sendable, CaseIterable, Hashable {
    case text
    case title
    case hint
    case label
    case fieldFocused = "field.focused"
    case fieldBlurred = "field.blurred"
    case mask
    case error
    case success
    case buttonFocused = "button.focused"
    case buttonBlurred = "button.blurred"
    case menuFocused = "menu.focused"
    case menuDisabled = "menu.disabled"
    case helpKey = "help.key"
    case helpDescription = "help.description"
    case border
    case logInfo = "log.info"
    case logWarn = "log.warn"
    case logError = "log.error"
    case status

    /// One letter per role, for the role layer of snapshots.
    public var code: Character {
        switch self {
        case .text: "."
        case .title: "T"
        case .hint: "h"
        case .label: "l"
        case .fieldFocused: "F"
        case .fieldBlurred: "f"
        case .mask: "m"
        case .error: "E"
        case .success: "S"
        case .buttonFocused: "B"
        case .buttonBlurred: "b"
        case .menuFocused: "M"
        case .menuDisabled: "d"
        case .helpKey: "K"
        case .helpDescription: "k"
        case .border: "#"
        case .logInfo: "i"
        case .logWarn: "w"
        case .logError: "x"
        case .status: "s"
        }
    }
}
