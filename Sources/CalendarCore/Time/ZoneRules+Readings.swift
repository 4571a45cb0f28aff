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
        tzDatabaseAbbreviation(atInstant: t) ?? Self.numericAbbreviation(offset(atInstant: t))
    }

    /// The abbreviation the zone's compiled tz file gives the period holding
    /// an instant, or `nil` when there is no such file (a zone made from a
    /// `VTIMEZONE`, a machine without tzdata) or its period disagrees with
    /// these rules' offset.
    func tzDatabaseAbbreviation(atInstant t: Int64) -> String? {
        TZif.zone(identifier)?.name(atInstant: t, offset: offset(atInstant: t))
    }

    /// An offset as the tz database writes a zone with no letters: `+01`, `+0530`, `-03`.
    public static func numericAbbreviation(_ offset: Int) -> String {
        let a = abs(offset)
        let hours = a / 3600, minutes = a % 3600 / 60
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        return (offset < 0 ? "-" : "+") + two(hours) + (minutes == 0 ? "" : two(minutes))
    }
}
