import CalendarCore

/// The position of each series master in the items array, found by UID.
///
/// A `[String: Int]` holds 24 bytes a slot and, as it grows, the old and
/// the new table at once: 4.7 MB at the peak of the 50,000-event import,
/// most of what kept it above three times the file (Benchmarks/RESULTS.md).
/// The UIDs are already in the items, so this table holds only 8 bytes a
/// slot (32 bits of the UID's hash and the position) and compares a UID
/// against the item's own when the hash bits match.
///
/// Open addressing with linear probing, at most half full.
struct UIDIndex {
    /// Each slot: the hash's low 32 bits, then the position + 1 (0 = empty).
    private var slots: [UInt64] = []
    private(set) var count = 0

    /// The position of the item with `uid` in `items`, if this index has it.
    func position(of uid: String, in items: [CalendarItem]) -> Int? {
        guard !slots.isEmpty else { return nil }
        let hash = Self.hash(uid)
        let mask = slots.count - 1
        var i = Int(hash) & mask
        while true {
            let slot = slots[i]
            if slot == 0 { return nil }
            if UInt32(truncatingIfNeeded: slot >> 32) == hash {
                let position = Int(UInt32(truncatingIfNeeded: slot)) - 1
                if position < items.count, items[position].uid == uid { return position }
            }
            i = (i + 1) & mask
        }
    }

    /// Records that the item with `uid` is at `position` (a UID not yet in the index).
    mutating func insert(_ uid: String, at position: Int) {
        if (count + 1) * 2 > slots.count { grow() }
        place(UInt64(Self.hash(uid)) << 32 | UInt64(UInt32(truncatingIfNeeded: position + 1)))
        count += 1
    }

    /// An empty index with room for `capacity` UIDs before its table grows
    /// (growing holds the old table and the new one at once).
    init(capacity: Int) {
        var size = 16
        while size < 2 * capacity { size *= 2 }
        slots = [UInt64](repeating: 0, count: size)
    }

    /// Indexes every item of `items` whose UID is not yet indexed (the first of a UID wins).
    init(_ items: [CalendarItem] = []) {
        for (i, item) in items.enumerated() where position(of: item.uid, in: items) == nil { insert(item.uid, at: i) }
    }

    private mutating func place(_ entry: UInt64) {
        let mask = slots.count - 1
        var i = Int(UInt32(truncatingIfNeeded: entry >> 32)) & mask
        while slots[i] != 0 { i = (i + 1) & mask }
        slots[i] = entry
    }

    private mutating func grow() {
        let old = slots
        slots = [UInt64](repeating: 0, count: Swift.max(16, old.count * 2))
        for entry in old where entry != 0 { place(entry) }
    }

    private static func hash(_ uid: String) -> UInt32 {
        UInt32(truncatingIfNeeded: uid.hashValue)
    }
}
