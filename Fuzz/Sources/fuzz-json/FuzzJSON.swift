import JSONText

/// The JSON parser: any bytes either parse or are refused with a place in the text, and what parses is written
/// back (pretty and compact) as text that parses to the same document, which writes the same text again.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let document: JSONNode
    do {
        document = try JSONParser.parse(bytes)
    } catch {
        check(error.position.line >= 1 && error.position.column >= 1, "an error without a place: \(error)")
        return 0
    }
    check(placed(document), "a value without a place")
    for pretty in [true, false] {
        let text = document.text(pretty: pretty)
        let again: JSONNode
        do {
            again = try JSONParser.parse(text)
        } catch {
            fatalError("written text does not parse (\(error)): \(text)")
        }
        check(same(document, again), "written text parses to another document: \(text)")
        check(again.text(pretty: pretty) == text, "writing is not stable: \(text)")
    }
    return 0
}

/// The same document, by value: numbers as written, strings scalar by scalar; positions are not compared.
func same(_ a: JSONNode, _ b: JSONNode) -> Bool {
    switch (a.value, b.value) {
    case (.null, .null): return true
    case (.bool(let x), .bool(let y)): return x == y
    case (.number(let x, _), .number(let y, _)): return x == y
    case (.string(let x), .string(let y)): return x.unicodeScalars.elementsEqual(y.unicodeScalars)
    case (.array(let x), .array(let y)): return x.count == y.count && zip(x, y).allSatisfy { same($0, $1) }
    case (.object(let x), .object(let y)):
        return x.count == y.count
            && zip(x, y).allSatisfy { $0.key.unicodeScalars.elementsEqual($1.key.unicodeScalars) && same($0.value, $1.value) }
    default: return false
    }
}

/// Every value read from a text has a 1-based line and column.
func placed(_ node: JSONNode) -> Bool {
    guard node.position.line >= 1, node.position.column >= 1 else { return false }
    switch node.value {
    case .array(let items): return items.allSatisfy(placed)
    case .object(let members): return members.allSatisfy { placed($0.value) }
    default: return true
    }
}

func check(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError(message()) }
}
