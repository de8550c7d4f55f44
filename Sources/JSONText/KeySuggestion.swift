/// The known key (or word) an unknown one was likely meant to be: one that differs from it by case alone or by at most
/// two letters (inserted, deleted or changed; a word of two letters by one at most, `rn`: run), and is the only such
/// key; failing that, the longest known key of five letters or more that it starts with and runs past by five at most
/// (`statusbar`, `status_line`: status; `log.warning`: log.warn). Errors name that known key, never the key that was
/// given: a value typed where a key belongs (a password) must not be printed.
public enum KeySuggestion {
    public static func closest(to key: String, among known: [String]) -> String? {
        let given = Array(key.lowercased())
        // Two letters off a word of two is any short word: only one letter off it is a guess (`rn`, `ru`: run).
        guard given.count >= 2 else { return nil }
        // A word that runs on past a known one by a little (`statusbar`, `status_line`): not one that merely starts
        // with a short one (`cardholder` is no `card`, `erroneous` no `erro`).
        return nearest(given, among: known, limit: given.count == 2 ? 1 : 2) ?? known.filter {
            $0.count >= 5 && given.count - $0.count <= 5 && key.lowercased().hasPrefix($0.lowercased())
        }.max { $0.count < $1.count }
    }

    private static func nearest(_ given: [Character], among known: [String], limit: Int) -> String? {
        var best: (key: String, distance: Int)?
        var tied = false
        for candidate in known {
            let distance = editDistance(given, Array(candidate.lowercased()), limit: limit)
            guard distance <= limit else { continue }
            if let current = best, current.distance <= distance {
                if current.distance == distance { tied = true }
                continue
            }
            best = (candidate, distance)
            tied = false
        }
        return tied ? nil : best?.key
    }

    /// Levenshtein distance, or `limit + 1` once it is known to exceed `limit`.
    static func editDistance(_ a: [Character], _ b: [Character], limit: Int) -> Int {
        guard abs(a.count - b.count) <= limit else { return limit + 1 }
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var row = [i + 1] + Array(repeating: 0, count: b.count)
            for (j, y) in b.enumerated() {
                row[j + 1] = min(previous[j + 1] + 1, row[j] + 1, previous[j] + (x == y ? 0 : 1))
            }
            if row.min() ?? 0 > limit { return limit + 1 }
            previous = row
        }
        return previous[b.count]
    }

    /// `; did you mean "password"?` when there is a likely key, else nothing.
    public static func hint(for key: String, among known: [String]) -> String {
        closest(to: key, among: known).map { "; did you mean \"\($0)\"?" } ?? ""
    }
}
