import LocaleText
/// An in-memory screen: a grid of cells, each a character and a role, plus where the cursor should be.
/// Screens draw into it; the curses backend copies the cells that changed onto the terminal; snapshot tests
/// compare it with golden text files.
public struct ScreenBuffer: Equatable, Sendable {
    public struct Cell: Equatable, Sendable {
        /// The character, or nil for the right half of a wide character.
        public var character: Character?
        public var role: Role

        public static let blank = Cell(character: " ", role: .text)
    }

    public let width: Int
    public let height: Int
    public private(set) var cells: [Cell]
    /// Where the terminal cursor goes (row, column), or nil to hide it.
    public var cursor: (row: Int, column: Int)?
    /// What a mouse click at a cell would press: the screen's focus stops, as drawn.
    public var targets: [ClickTarget] = []

    public init(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
        cells = Array(repeating: .blank, count: self.width * self.height)
    }

    public subscript(row: Int, column: Int) -> Cell {
        cells[row * width + column]
    }

    /// Writes `text` from (row, column), clipped at `limit` columns and at the right edge. Returns the
    /// number of columns written. A wide character that would not fit whole is left out.
    @discardableResult
    public mutating func put(_ text: some StringProtocol, row: Int, column: Int, role: Role, limit: Int? = nil) -> Int {
        guard row >= 0, row < height, column < width else { return 0 }
        let end = min(width, column + (limit ?? width))
        var x = column
        for character in text {
            let cellWidth = CharacterWidth.of(character)
            guard cellWidth > 0 else { continue }
            guard x + cellWidth <= end else { break }
            if x >= 0 {
                set(row, x, Cell(character: CharacterWidth.drawable(character), role: role))
                // The cells after the first of a wide character (a letter with a spacing vowel sign takes 3 or more).
                for rest in 1..<cellWidth { set(row, x + rest, Cell(character: nil, role: role)) }
            }
            x += cellWidth
        }
        return max(0, x - column)
    }

    /// Fills `count` cells of a row with one character.
    public mutating func fill(row: Int, column: Int, count: Int, character: Character = " ", role: Role) {
        guard row >= 0, row < height else { return }
        for x in max(0, column)..<min(width, column + count) {
            set(row, x, Cell(character: character, role: role))
        }
    }

    /// Fills a rectangle.
    public mutating func fill(top: Int, left: Int, width: Int, height: Int, role: Role) {
        for y in top..<(top + height) { fill(row: y, column: left, count: width, role: role) }
    }

    private mutating func set(_ row: Int, _ column: Int, _ cell: Cell) {
        // Overwriting part of a wide character blanks the rest of it: the cells before, back to its first, and the
        // cells after that continue it.
        let index = row * width + column
        let rowStart = row * width
        if cells[index].character == nil {
            var before = index - 1
            while before >= rowStart, cells[before].character == nil {
                cells[before] = .blank
                before -= 1
            }
            if before >= rowStart { cells[before] = .blank }
        }
        if cell.character != nil || cells[index].character != nil {
            var after = index + 1
            while after < rowStart + width, cells[after].character == nil {
                cells[after] = .blank
                after += 1
            }
        }
        cells[index] = cell
    }

    /// The text of one row, right half of wide characters left out.
    public func text(row: Int) -> String {
        String((0..<width).compactMap { self[row, $0].character })
    }

    /// All rows' text, one per line, trailing spaces kept.
    public var text: String { (0..<height).map { text(row: $0) }.joined(separator: "\n") }

    /// The role layer: one letter per cell (see `Role.code`), wide characters' right halves marked `>`.
    public var roles: String {
        (0..<height).map { row in
            String((0..<width).map { column -> Character in
                let cell = self[row, column]
                return cell.character == nil ? ">" : cell.role.code
            })
        }.joined(separator: "\n")
    }

    public static func == (lhs: ScreenBuffer, rhs: ScreenBuffer) -> Bool {
        lhs.width == rhs.width && lhs.height == rhs.height && lhs.cells == rhs.cells
            && lhs.cursor?.row == rhs.cursor?.row && lhs.cursor?.column == rhs.cursor?.column
    }
}

/// A place on screen a click acts on: the focus stop `stop` of the screen drawn (a menu item, a field, a
/// button, an option), over `width` cells from (row, column).
public struct ClickTarget: Equatable, Sendable {
    public let row: Int
    public let column: Int
    public let width: Int
    public let stop: Int

    public init(row: Int, column: Int, width: Int, stop: Int) {
        self.row = row
        self.column = column
        self.width = width
        self.stop = stop
    }

    public func contains(row: Int, column: Int) -> Bool {
        row == self.row && column >= self.column && column < self.column + width
    }
}
