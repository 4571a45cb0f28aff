/// IDs a person can type for a calendar's items, shortened as git shortens
/// commit hashes: each UID's shortest prefix that no other UID starts with,
/// but never fewer than ``minimumLength`` characters, and the UID itself
/// when it is no longer than that. A word or a number is never cut: a prefix
/// that would end inside a run of letters and digits takes the whole run
/// (`open-day-2026@gym.example` is `open-day`, not `open-d`;
/// `pilates@gym.example` is `pilates`; `s-anna-1112` is not `s-anna-111`),
/// except a run of hexadecimal digits with a letter among them, or any in a
/// UID that starts with a UUID, a generated UID's part, which is cut as git
/// cuts a hash; and an ID does not end on a
/// separator when the words before it are unique already (`staff-meeting`
/// is `staff`, not `staff-`), even if that is shorter than ``minimumLength``.
///
/// ```swift
/// let ids = ShortIDs(calendar.items.map(\.uid))
/// ids.short(for: "7f3c9a1e-5b2d-4c1a-9e8f-0a1b2c3d4e5f@horari")   // "7f3c9a"
/// switch ids.resolve("7f3c9a") {
/// case .found(let uid): print(uid)
/// case .ambiguous(let uids): print("one of", uids)
/// case .notFound: print("no such item")
/// }
/// ```
///
/// A typed ID that is a whole UID always means that item, even when it is
/// also the start of others (`yoga` beside `yoga-2`). Prefixes are counted
/// in characters, so an ID never ends inside an accented letter. Built once
/// in O(n log n) for n UIDs; ``resolve(_:)`` is a binary search.
public struct ShortIDs: Sendable {
    /// The fewest characters a shortened ID has.
    public static let minimumLength = 6

    /// The UIDs in order of their characters: UIDs sharing a prefix are neighbours.
    private let sorted: [(uid: String, characters: [Character])]
    /// Each UID's short ID length.
    private let lengths: [String: Int]

    /// The short IDs of a set of UIDs (repeats are ignored).
    public init(_ uids: some Sequence<String>) {
        let sorted = Set(uids).map { ($0, Array($0)) }.sorted { $0.1.lexicographicallyPrecedes($1.1) }
        var lengths: [String: Int] = [:]
        lengths.reserveCapacity(sorted.count)
        for (i, (uid, characters)) in sorted.enumerated() {
            // A prefix is unique once it is longer than what the UID shares
            // with either neighbour; the others share less.
            var shared = 0
            if i > 0 { shared = max(shared, Self.commonPrefix(characters, sorted[i - 1].1)) }
            if i + 1 < sorted.count { shared = max(shared, Self.commonPrefix(characters, sorted[i + 1].1)) }
            var n = Self.wholeWord(characters, min(characters.count, max(Self.minimumLength, shared + 1)))
            while n > shared + 1, n < characters.count, !Self.isWordCharacter(characters[n - 1]) { n -= 1 }
            lengths[uid] = n
        }
        self.sorted = sorted
        self.lengths = lengths
    }

    /// The ID to print for a UID: its shortest unique prefix of at least
    /// ``minimumLength`` characters, or the whole UID (also for a UID this
    /// set does not hold).
    public func short(for uid: String) -> String {
        guard let n = lengths[uid], n < uid.count else { return uid }
        return String(uid.prefix(n))
    }

    /// What a typed ID names.
    public enum Resolution: Hashable, Sendable {
        /// One UID: the typed text is that UID, or the start of no other.
        case found(String)
        /// Several UIDs start with the typed text, in order.
        case ambiguous([String])
        /// No UID starts with it.
        case notFound
    }

    /// The UID a typed ID names: a whole UID, else the one UID that starts with it.
    public func resolve(_ typed: String) -> Resolution {
        if lengths[typed] != nil { return .found(typed) }
        let key = Array(typed)
        guard !key.isEmpty else { return .notFound }
        var lo = 0, hi = sorted.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if sorted[mid].characters.lexicographicallyPrecedes(key) { lo = mid + 1 } else { hi = mid }
        }
        var matches: [String] = []
        while lo < sorted.count, sorted[lo].characters.starts(with: key) {
            matches.append(sorted[lo].uid)
            lo += 1
        }
        switch matches.count {
        case 0: return .notFound
        case 1: return .found(matches[0])
        default: return .ambiguous(matches)
        }
    }

    private static func isWordCharacter(_ x: Character) -> Bool { x.isLetter || x.isNumber }

    /// `n`, or the end of the word the first `n` characters would cut (a
    /// run of letters and digits, unless it is hexadecimal with a letter).
    private static func wholeWord(_ c: [Character], _ n: Int) -> Int {
        guard n > 0, n < c.count, isWordCharacter(c[n - 1]), isWordCharacter(c[n]) else { return n }
        var start = n - 1, end = n
        while start > 0, isWordCharacter(c[start - 1]) { start -= 1 }
        while end < c.count, isWordCharacter(c[end]) { end += 1 }
        let run = c[start..<end]
        guard run.allSatisfy(\.isHexDigit) else { return end }
        // A UUID's groups are a hash's digits even when they hold no letter
        // (`36095912-…`, one in forty); elsewhere a run of digits alone is a
        // number a person chose.
        return run.contains(where: \.isLetter) || (end <= 36 && isUUIDShaped(c)) ? n : end
    }

    /// Whether a UID starts with a UUID: 8-4-4-4-12 hexadecimal digits.
    private static func isUUIDShaped(_ c: [Character]) -> Bool {
        guard c.count >= 36 else { return false }
        return (0..<36).allSatisfy { [8, 13, 18, 23].contains($0) ? c[$0] == "-" : c[$0].isHexDigit }
    }

    private static func commonPrefix(_ a: [Character], _ b: [Character]) -> Int {
        var n = 0
        while n < a.count, n < b.count, a[n] == b[n] { n += 1 }
        return n
    }
}
