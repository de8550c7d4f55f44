/// A theme's colour on a terminal with fewer colours than it names: the nearest one the terminal has.
extension ThemeColor {
    /// The palette index to draw `index` with on a terminal of `palette` colours: itself where the terminal has it,
    /// else the nearest of the terminal's basic colours (the first 8, or 16) by xterm's RGB values. A 256-colour
    /// theme on `TERM=xterm` (8 colours) drew colour 208, orange, as 208 mod 8 = black, and 196, red, as blue.
    public static func fitted(_ index: Int, palette: Int) -> Int {
        guard index >= palette, palette > 0 else { return index }
        let target = rgb(index)
        // A grey is drawn as a grey (black, white and the bright ones): by distance alone a mid grey was yellow.
        let isGrey = target.0 == target.1 && target.1 == target.2
        let candidates = (0..<min(palette, 16)).filter { !isGrey || [0, 7, 8, 15].contains($0) }
        return candidates.min { distance(rgb($0), target) < distance(rgb($1), target) } ?? 0
    }

    /// xterm's RGB value of a palette index: the 16 system colours, the 6×6×6 cube, then 24 greys.
    static func rgb(_ index: Int) -> (Int, Int, Int) {
        switch index {
        case 0..<16: return system[index]
        case 16..<232:
            let cube = index - 16
            return (levels[cube / 36], levels[cube / 6 % 6], levels[cube % 6])
        default:
            let grey = 8 + 10 * (min(index, 255) - 232)
            return (grey, grey, grey)
        }
    }

    private static let levels = [0, 95, 135, 175, 215, 255]

    private static let system = [
        (0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205), (0, 205, 205), (229, 229, 229),
        (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0), (92, 92, 255), (255, 0, 255), (0, 255, 255), (255, 255, 255),
    ]

    private static func distance(_ a: (Int, Int, Int), _ b: (Int, Int, Int)) -> Int {
        let (red, green, blue) = (a.0 - b.0, a.1 - b.1, a.2 - b.2)
        return red * red + green * green + blue * blue
    }
}
