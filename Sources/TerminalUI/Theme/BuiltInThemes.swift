// The built-in themes. Themes/*.theme hold the same text for users to copy; a test keeps them equal.
public enum BuiltInThemes {
    public static let names = ["default", "high-contrast", "monochrome"]

    /// A built-in theme's text by name. A switch, not a dictionary: a `[String: String]` built at start-up costs
    /// the first frame its hashing and the runtime's generic lookups.
    static func text(_ name: String) -> String? {
        switch name {
        case "default": defaultText
        case "high-contrast": highContrastText
        case "monochrome": monochromeText
        default: nil
        }
    }

    private static let defaultText = """
            # idp-tui theme: default
            # role = [attributes…] [foreground] [on background]
            # attributes: bold dim underline reverse standout italic
            # colours: default black red green yellow blue magenta cyan white, bright-black … bright-white, 0–255
            text = default
            title = bold cyan
            hint = dim
            label = default
            # field.focused/blurred style the › marker and the [ ] brackets. The typed characters and the
            # mask are plain (mask = none) so that a keystroke costs only its own bytes.
            field.focused = bold cyan
            field.blurred = dim
            mask = none
            error = bold red
            success = bold green
            button.focused = bold black on cyan
            button.blurred = default
            menu.focused = bold black on cyan
            menu.disabled = dim
            help.key = bold cyan
            help.description = dim
            border = blue
            log.info = default
            log.warn = yellow
            log.error = red
            status = black on white
            """

    private static let highContrastText = """
            # idp-tui theme: high contrast — bright colours on black, bold focus
            text = bright-white on black
            title = bold bright-yellow on black
            hint = bright-white on black
            label = bold bright-white on black
            # field.focused/blurred style the › marker and the [ ] brackets. The typed characters and the
            # mask are plain (mask = none) so that a keystroke costs only its own bytes.
            field.focused = bold bright-yellow on black
            field.blurred = bright-white on black
            mask = none
            error = bold bright-white on red
            success = bold black on bright-green
            button.focused = bold black on bright-yellow
            button.blurred = bold bright-white on black
            menu.focused = bold black on bright-yellow
            menu.disabled = white on black
            help.key = bold bright-yellow on black
            help.description = bright-white on black
            border = bold bright-white on black
            log.info = bright-white on black
            log.warn = bold bright-yellow on black
            log.error = bold bright-red on black
            status = bold black on bright-white
            """

    private static let monochromeText = """
            # idp-tui theme: monochrome — attributes only, no colour (NO_COLOR selects it).
            # Focus stays visible without colour: the focused field, button and menu entry are in reverse video.
            text = none
            title = bold
            hint = dim
            label = none
            # field.focused/blurred style the › marker and the [ ] brackets. The typed characters and the
            # mask are plain (mask = none) so that a keystroke costs only its own bytes.
            field.focused = reverse bold
            field.blurred = none
            mask = none
            error = bold underline
            success = bold
            button.focused = reverse bold
            button.blurred = none
            menu.focused = reverse bold
            menu.disabled = dim
            help.key = bold
            help.description = none
            border = none
            log.info = none
            log.warn = bold
            log.error = bold underline
            status = reverse
            """
}
