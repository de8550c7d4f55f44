/// Which entry of a list is shown first: moved from where it was (`kept`) only as far as keeping `focus` in view
/// needs, as lazygit's and k9s's lists scroll. A window worked out from the focus alone kept the focus on the last
/// row after End, and ↑ then scrolled the whole list under it on every key.
enum ListWindow {
    static func first(kept: Int, focus: Int, rows: Int, count: Int) -> Int {
        guard rows > 0 else { return max(0, focus) }
        let first = min(max(kept, focus - rows + 1), focus)
        return max(0, min(first, count - rows))
    }
}
