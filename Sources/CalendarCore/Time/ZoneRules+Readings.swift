import Foundation

extension ZoneRules {
    /// What a wall-clock reading is on a zone's clocks: an ordinary time, a
    /// time the clocks skip, or a time they show twice.
    public enum WallReading: Hashable, Sendable {
        /// One instant (Unix seconds).
        case unique(Int64)
        /// No instant: the clocks skip this time. `before` and `after` are the
        /// wall readings (seconds on this zone's clocks) at which the clocks
        /// jump: at `before` they show `after` (02:00 → 03:00 in Madrid).
        case skipped(before: Int64, after: Int64)
        /// Two instants, earlier first: the clocks show this time twice.
        case repeated(Int64, Int64)
    }

    /// Every instant a wall reading stands for (RFC 5545 §3.3.5 picks one
    /// for an item's time; a person typing a time is asked instead).
    ///
    /// - Parameter wall: seconds since 1970-01-01T00:00:00 on this zone's clocks.
    public func reading(ofWall wall: Int64) -> WallReading {
        let before = offset(atInstant: wall - 86_400)
        let after = offset(atInstant: wall + 86_400)
        let valid = Set([before, after]).map { wall - Int64($0) }.filter { self.wall(atInstant: $0) == wall }.sorted()
        switch valid.count {
        case 0:
            // The clocks jump at the first instant with the later offset:
            // found by bisection on the offsets themselves, so it holds
            // outside the tabulated years too (where Foundation answers).
            var lo = wall - 86_400 - 14 * 3600, hi = wall + 86_400
            while hi - lo > 1 {
                let mid = lo + (hi - lo) / 2
                if offset(atInstant: mid) == before { lo = mid } else { hi = mid }
            }
            return .skipped(before: hi + Int64(before), after: hi + Int64(offset(atInstant: hi)))
        case 1: return .unique(valid[0])
        default: return .repeated(valid[0], valid[valid.count - 1])
        }
    }

    /// Whether the wall reading at an instant is one the clocks show twice,
    /// so that printing it needs the zone's abbreviation to tell it apart.
    public func isRepeatedWall(atInstant t: Int64) -> Bool {
        if case .repeated = reading(ofWall: wall(atInstant: t)) { return true }
        return false
    }

    /// The zone's abbreviation at an instant as the tz database writes it
    /// (`CET`, `CEST`, `EST`, `EDT`, `+1030`), read from the system's
    /// compiled tz files (`/usr/share/zoneinfo`, or `$TZDIR`); where those are
    /// missing, the offset written as the tz database writes numeric ones
    /// (`+0530`, `-03`).
    ///
    /// Foundation on Linux answers `GMT+1` (ICU's generic form), which no
    /// calendar, and no person, writes.
    public func databaseAbbreviation(atInstant t: Int64) -> String {
        let offset = offset(atInstant: t)
        if let names = TZif.abbreviations(for: identifier), let name = names[offset] { return name }
        return Self.numericAbbreviation(offset)
    }

    /// An offset as the tz database writes a zone with no letters: `+01`, `+0530`, `-03`.
    public static func numericAbbreviation(_ offset: Int) -> String {
        let a = abs(offset)
        let hours = a / 3600, minutes = a % 3600 / 60
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        return (offset < 0 ? "-" : "+") + two(hours) + (minutes == 0 ? "" : two(minutes))
    }
}

/// The abbreviations of a zone's compiled tz file (RFC 8536, TZif), keyed by
/// UTC offset: for each offset, the abbreviation of the latest period that
/// used it (Madrid: 3600 → CET, 7200 → CEST). Read once per zone.
enum TZif {
    private static let cache = Locked<[String: [Int: String]]>([:])

    static func abbreviations(for zone: String) -> [Int: String]? {
        if let known = cache.withLock({ $0[zone] }) { return known.isEmpty ? nil : known }
        let found = read(zone) ?? [:]
        cache.withLock { $0[zone] = found }
        return found.isEmpty ? nil : found
    }

    private static func read(_ zone: String) -> [Int: String]? {
        // A zone name never climbs out of the folder.
        guard !zone.isEmpty, !zone.hasPrefix("/"), !zone.split(separator: "/").contains("..") else { return nil }
        let folder = ProcessInfo.processInfo.environment["TZDIR"] ?? "/usr/share/zoneinfo"
        guard let data = FileManager.default.contents(atPath: folder + "/" + zone) else { return nil }
        return parse([UInt8](data))
    }

    /// The last data block's types and abbreviations (version 2+ files carry
    /// a 64-bit block after the 32-bit one; version 1 files only the latter).
    static func parse(_ bytes: [UInt8]) -> [Int: String]? {
        func be32(_ i: Int) -> Int? {
            guard i >= 0, i + 4 <= bytes.count else { return nil }
            return Int(Int32(bitPattern: UInt32(bytes[i]) << 24 | UInt32(bytes[i + 1]) << 16 | UInt32(bytes[i + 2]) << 8 | UInt32(bytes[i + 3])))
        }
        func block(at start: Int, timeSize: Int) -> (types: [Int: String], end: Int)? {
            guard bytes.count >= start + 44, bytes[start] == 0x54, bytes[start + 1] == 0x5A, bytes[start + 2] == 0x69, bytes[start + 3] == 0x66,
                let isut = be32(start + 20), let isstd = be32(start + 24), let leap = be32(start + 28),
                let timecnt = be32(start + 32), let typecnt = be32(start + 36), let charcnt = be32(start + 40),
                [isut, isstd, leap, timecnt, typecnt, charcnt].allSatisfy({ $0 >= 0 && $0 < 1_000_000 })
            else { return nil }
            let times = start + 44
            let indices = times + timecnt * timeSize
            let infos = indices + timecnt
            let chars = infos + typecnt * 6
            let end = chars + charcnt + leap * (timeSize + 4) + isstd + isut
            guard end <= bytes.count else { return nil }
            func name(ofType k: Int) -> (Int, String)? {
                guard k < typecnt, let offset = be32(infos + k * 6) else { return nil }
                var i = chars + Int(bytes[infos + k * 6 + 5])
                var text: [UInt8] = []
                while i < chars + charcnt, bytes[i] != 0 { text.append(bytes[i]); i += 1 }
                return (offset, String(decoding: text, as: UTF8.self))
            }
            var types: [Int: String] = [:]
            // Every type first, then the types in the order periods use them,
            // so the latest period's name for an offset wins.
            for k in 0..<typecnt { if let (o, n) = name(ofType: k), types[o] == nil { types[o] = n } }
            for j in 0..<timecnt { if let (o, n) = name(ofType: Int(bytes[indices + j])) { types[o] = n } }
            return (types, end)
        }
        guard let first = block(at: 0, timeSize: 4) else { return nil }
        if bytes.count > 4, bytes[4] >= 0x32, let second = block(at: first.end, timeSize: 8) { return second.types }
        return first.types
    }
}
