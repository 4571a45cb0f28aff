/// IDs a person can type for a calendar's items, shortened as git shortens
/// commit hashes: each UID's shortest prefix that no other UID starts with,
/// but never fewer than ``minimumLength`` characters, and the UID itself
/// when it is no longer than that.
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
            lengths[uid] = min(characters.count, max(Self.minimumLength, shared + 1))
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

    private static func commonPrefix(_ a: [Character], _ b: [Character]) -> Int {
        var n = 0
        while n < a.count, n < b.count, a[n] == b[n] { n += 1 }
        return n
    }
}
