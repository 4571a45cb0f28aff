import Foundation

/// The UTC offsets of one time zone over time, and the RFC 5545 rules for
/// turning a wall-clock reading into an instant.
///
/// Rules for a named IANA zone are read once from the system's compiled tz
/// file (the tz database libical and Python read here too; Foundation's
/// `TimeZone` where there is none) into a table of transitions (1900–2150)
/// and cached, so resolving a wall time costs a binary search rather than a
/// trip through ICU. Instants outside the table ask the file's own rule (or
/// `TimeZone`) directly.
///
/// Wall times that a zone skips or repeats resolve as RFC 5545 §3.3.5 says:
/// - in a gap (spring forward) the time is read with the offset from *before*
///   the gap, which moves it forward by the length of the gap
///   (Madrid 2025-03-30 02:30 is 01:30Z, shown as 03:30);
/// - in a fold (fall back) the time takes the *first* of its two instants.
public struct ZoneRules: Hashable, Sendable {
    /// The table, shared by every copy: copying a `ZoneRules` (every
    /// expansion and view passes one along) is one retain, not one per array.
    private final class Table: Sendable {
        let identifier: String
        let transitions: [Int64]
        let offsetsAfter: [Int32]
        let initialOffset: Int32
        let coverage: ClosedRange<Int64>
        let timeZone: TimeZone?
        /// The tz file the table was read from, which answers outside it.
        let file: TZif?
        /// Whether each transition opens daylight-saving time, when the
        /// table was read from a tz file.
        let daylight: [Bool]?

        init(_ identifier: String, _ transitions: [Int64], _ offsetsAfter: [Int32], _ initialOffset: Int32,
             _ coverage: ClosedRange<Int64>, _ timeZone: TimeZone?, file: TZif? = nil, daylight: [Bool]? = nil) {
            self.identifier = identifier
            self.transitions = transitions
            self.offsetsAfter = offsetsAfter
            self.initialOffset = initialOffset
            self.coverage = coverage
            self.timeZone = timeZone
            self.file = file
            self.daylight = daylight
        }

        /// The index of the first transition strictly after `t` (`transitions.count` when none).
        @inline(__always)
        func firstTransition(after t: Int64) -> Int {
            transitions.withUnsafeBufferPointer { ts in
                var lo = 0
                var hi = ts.count
                while lo < hi {
                    let mid = (lo + hi) >> 1
                    if ts[mid] <= t { lo = mid + 1 } else { hi = mid }
                }
                return lo
            }
        }
    }

    private let table: Table

    /// The zone identifier, such as `Europe/Madrid` or `UTC`.
    public var identifier: String { table.identifier }
    /// Instants (Unix seconds) at which the offset changes, ascending.
    var transitions: [Int64] { table.transitions }
    /// The offset in seconds in force from `transitions[i]` on.
    var offsetsAfter: [Int32] { table.offsetsAfter }
    /// The offset before the first transition.
    var initialOffset: Int32 { table.initialOffset }
    /// The first and last instants the table covers; outside, ask `timeZone`.
    var coverage: ClosedRange<Int64> { table.coverage }
    /// The Foundation zone behind this table, when there is one.
    var timeZone: TimeZone? { table.timeZone }

    /// UTC: offset zero at every instant.
    public static let utc = ZoneRules(identifier: "UTC", fixedOffset: 0)

    /// A zone with one offset for all time, such as `+02:00`.
    public init(identifier: String, fixedOffset seconds: Int) {
        table = Table(identifier, [], [], Int32(seconds), Int64.min...Int64.max, nil)
    }

    /// A zone from an explicit table of transitions, such as one read from a
    /// `VTIMEZONE` component's observances.
    ///
    /// - Parameters:
    ///   - identifier: the zone's name (a `TZID`).
    ///   - transitions: pairs of (instant in Unix seconds, offset in force from
    ///     then on); they are sorted here.
    ///   - initialOffset: the offset before the first transition.
    public init(identifier: String, initialOffset: Int, transitions: [(instant: Int64, offset: Int)]) {
        let sorted = transitions.sorted { $0.instant < $1.instant }
        table = Table(identifier, sorted.map(\.instant), sorted.map { Int32($0.offset) }, Int32(initialOffset),
                      Int64.min...Int64.max, nil)
    }

    /// The first and last instants a named zone's table covers.
    private static let tabulated: ClosedRange<Int64> = -2_208_988_800...5_680_281_600  // 1900-01-01Z…2150-01-01Z

    /// The rules of a zone's compiled tz file, tabulated from 1900 to 2150.
    init(identifier: String, file: TZif) {
        let (initial, changes) = file.table(from: Self.tabulated.lowerBound, to: Self.tabulated.upperBound)
        // The tz database's main form marks some winters as daylight time
        // with a negative saving (Dublin; Morocco outside Ramadan is the
        // reverse). Calendars, and ICU, which reads the "rearguard" form,
        // call the summer daylight time; in such a zone a change forward
        // opens daylight time (as ICU says at every change since 1985).
        // Elsewhere the database's own flag stands, also where ICU reads a
        // past change of standard time as daylight time (Moscow, March 2011).
        var before = initial.offset
        var negative = false
        for change in changes {
            if change.type.isDaylight, change.type.offset < before { negative = true }
            before = change.type.offset
        }
        before = initial.offset
        var daylight: [Bool] = []
        for change in changes {
            daylight.append(negative ? change.type.offset > before : change.type.isDaylight)
            before = change.type.offset
        }
        table = Table(identifier, changes.map(\.instant), changes.map { Int32($0.type.offset) }, Int32(initial.offset),
                      Self.tabulated, nil, file: file, daylight: daylight)
    }

    /// The rules of a Foundation time zone, tabulated from 1900 to 2150.
    public init(_ timeZone: TimeZone) {
        let start = Self.tabulated.lowerBound
        let end = Self.tabulated.upperBound
        var instants: [Int64] = []
        var offsets: [Int32] = []
        var cursor = Date(timeIntervalSince1970: TimeInterval(start))
        while let next = timeZone.nextDaylightSavingTimeTransition(after: cursor),
            next.timeIntervalSince1970 < TimeInterval(end)
        {
            let t = Int64(next.timeIntervalSince1970.rounded(.down))
            let offset = Int32(timeZone.secondsFromGMT(for: next))
            if offsets.last != offset {
                instants.append(t)
                offsets.append(offset)
            }
            cursor = next
        }
        table = Table(timeZone.identifier, instants, offsets,
                      Int32(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(start)))), start...end, timeZone)
    }

    private static let cache = Locked<[String: ZoneRules]>([:])

    /// The rules of a zone named by an iCalendar `TZID`, read once and cached.
    ///
    /// Real files name zones in several ways; they are tried in this order and
    /// the result's ``identifier`` is always the IANA name:
    /// 1. an IANA name with a compiled tz file on this machine, or one
    ///    Foundation knows (`Europe/Madrid`); `UTC`, `Etc/UTC`, `GMT` and `Z`
    ///    need no lookup;
    /// 2. the same with surrounding quotes or in another letter case
    ///    (`"Europe/Madrid"`, `Europe/lisbon`);
    /// 3. a vendor-prefixed name, taking the longest trailing part that is an
    ///    IANA name (`/mozilla.org/20050126_1/Europe/Madrid`,
    ///    `/freeassociation.sourceforge.net/Tzfile/Europe/Madrid`);
    /// 4. a Windows zone name as Outlook and Exchange write it
    ///    (`W. Europe Standard Time` → `Europe/Berlin`), through CLDR's table.
    ///
    /// A TZID none of these resolves (a custom name defined only by a file's
    /// own `VTIMEZONE`) is an error here: such a zone belongs to the calendar
    /// that defines it, which reads it from its observances into its own
    /// ``ZoneTable`` (``ZoneTable/rules(forTZID:)`` looks there first, then
    /// here). Nothing is registered for the whole process, so the cache
    /// holds only the system's zones: two calendars that define one custom
    /// `TZID` differently each keep their own rules.
    /// - Parameter tzid: the `TZID` as written.
    /// - Throws: ``TimeValueError/Code/unknownTimeZone``.
    public static func named(_ tzid: String) throws(TimeValueError) -> ZoneRules {
        if let hit = cache.withLock({ $0[tzid] }) { return hit }
        guard let identifier = ianaIdentifier(forTZID: tzid) else {
            throw TimeValueError(.unknownTimeZone, "the time zone ‘\(tzid)’ is not known (expected an IANA name such as Europe/Madrid, or a Windows name such as W. Europe Standard Time)")
        }
        let rules: ZoneRules
        if utcNames.contains(identifier) {
            rules = ZoneRules(identifier: identifier, fixedOffset: 0)
        } else if let file = TZif.zone(identifier) {
            rules = ZoneRules(identifier: identifier, file: file)
        } else if let tz = TimeZone(identifier: identifier) {
            rules = ZoneRules(tz)
        } else {
            throw TimeValueError(.unknownTimeZone, "the time zone ‘\(tzid)’ is not known")
        }
        cache.withLock { $0[tzid] = rules }
        return rules
    }

    /// The same rules under another name, such as a calendar's own `TZID`
    /// for them (`ICalendar.merge(_:)` gives a clashing custom zone a new
    /// `TZID`, and its rules that name, so that whatever shows the zone's
    /// name shows the new one).
    ///
    /// - Parameter identifier: the new ``identifier``.
    public func renamed(_ identifier: String) -> ZoneRules {
        let t = table
        return ZoneRules(table: Table(identifier, t.transitions, t.offsetsAfter, t.initialOffset, t.coverage, t.timeZone,
                                      file: t.file, daylight: t.daylight))
    }

    private init(table: Table) { self.table = table }

    /// A change of offset: the instant it happens and the offsets either side.
    public struct Transition: Hashable, Sendable {
        /// Unix seconds of the change.
        public let instant: Int64
        /// The offset in seconds before the change.
        public let offsetBefore: Int
        /// The offset in seconds from the change on.
        public let offsetAfter: Int
        /// Whether the new offset is daylight-saving time, when the zone data says.
        public let isDaylightSaving: Bool?
    }

    /// The changes of offset in `[from, to)` (Unix seconds), ascending.
    public func transitions(from: Int64, to: Int64) -> [Transition] {
        var out: [Transition] = []
        for (i, t) in transitions.enumerated() where t >= from && t < to {
            let before = Int(i == 0 ? initialOffset : offsetsAfter[i - 1])
            let dst = table.daylight?[i] ?? timeZone.map { $0.isDaylightSavingTime(for: Date(timeIntervalSince1970: TimeInterval(t))) }
            out.append(Transition(instant: t, offsetBefore: before, offsetAfter: Int(offsetsAfter[i]), isDaylightSaving: dst))
        }
        return out
    }

    /// The zone's abbreviation at an instant (`CET`, `CEST`), when the zone data has one.
    ///
    /// The system's compiled tz file answers first (see
    /// ``databaseAbbreviation(atInstant:)``); Foundation only where there is
    /// none. Besides writing what the tz database writes rather than ICU's
    /// `GMT+1`, this keeps ICU's zone-name tables (2–3 MB, loaded on the first
    /// question) out of an export's memory.
    public func abbreviation(atInstant t: Int64) -> String? {
        tzDatabaseAbbreviation(atInstant: t) ?? timeZone?.abbreviation(for: Date(timeIntervalSince1970: TimeInterval(t)))
    }

    /// Whether this machine has the compiled tz files that ``named(_:)`` reads
    /// first (in ``systemTimeZoneFolder``).
    ///
    /// Without them (a container without tzdata) zones still work: their
    /// rules come from Foundation's own copy of the database (ICU's), with the
    /// same offsets, but an abbreviation may then read `GMT+1` where the tz
    /// database writes `CET`. An app may want to say so, once.
    public static var hasSystemTimeZoneFiles: Bool { TZif.zone("Etc/UTC") != nil || TZif.zone("UTC") != nil }

    /// The folder of the compiled tz files that ``named(_:)`` reads first:
    /// `$TZDIR`, else `/usr/share/zoneinfo`, unless an app sets another.
    ///
    /// An app that ships its own tz database (a newer one than the system's,
    /// or one for a platform whose files it may not read) sets this once,
    /// before it looks up its first zone: a zone already looked up keeps the
    /// rules it was read with. Where the folder has no file for a name,
    /// Foundation's own copy of the database answers, as on a machine
    /// without tzdata.
    public static var systemTimeZoneFolder: String {
        get { TZif.folder }
        set { TZif.folder = newValue }
    }

    /// The names of UTC that need no lookup: a time in one of them is a UTC time.
    package static let utcNames: Set<String> = ["UTC", "Etc/UTC", "GMT", "Etc/GMT", "Z"]

    /// The IANA name a `TZID` stands for, by the steps of ``named(_:)``, or `nil`.
    public static func ianaIdentifier(forTZID tzid: String) -> String? {
        if utcNames.contains(tzid) { return tzid }
        // Foundation knows more names than it lists (Asia/Kolkata on Linux).
        func foundation(_ name: String) -> String? {
            // The system's tz files first: asking ICU costs megabytes (see `TZif`).
            if TZif.zone(name) != nil { return name }
            guard name.contains("/") || known.exact.contains(name) else { return nil }
            return TimeZone(identifier: name)?.identifier ?? known.lowercased[name.lowercased()]
        }
        if let id = foundation(tzid) { return id }
        var name = tzid.trimmedWhitespace
        if name.count >= 2, name.hasPrefix("\""), name.hasSuffix("\"") { name = String(name.dropFirst().dropLast()) }
        if utcNames.contains(name) { return name }
        if let id = foundation(name) { return id }
        let parts = name.split(separator: "/")
        if parts.count > 1 {
            // From 0: a bare leading slash (`/Europe/Stockholm`) leaves the whole name.
            for start in 0..<parts.count {
                if let id = foundation(parts[start...].joined(separator: "/")) { return id }
            }
        }
        return windowsZones[name]
    }

    /// Foundation's known zone names, and the same keyed by lower case.
    private static let known: (exact: Set<String>, lowercased: [String: String]) = {
        let ids = TimeZone.knownTimeZoneIdentifiers
        return (Set(ids), Dictionary(ids.map { ($0.lowercased(), $0) }, uniquingKeysWith: { a, _ in a }))
    }()

    /// The UTC offset in seconds in force at an instant (Unix seconds).
    public func offset(atInstant t: Int64) -> Int {
        let table = table
        if !table.coverage.contains(t) {
            if let file = table.file { return file.type(atInstant: t).offset }
            if let timeZone = table.timeZone { return timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(t))) }
        }
        let i = table.firstTransition(after: t)
        return Int(i == 0 ? table.initialOffset : table.offsetsAfter[i - 1])
    }

    /// The wall-clock reading (seconds since 1970-01-01 on the wall) at an instant.
    public func wall(atInstant t: Int64) -> Int64 { t + Int64(offset(atInstant: t)) }

    /// The instant (Unix seconds) of a wall-clock reading, by RFC 5545 §3.3.5.
    ///
    /// - Parameter wall: seconds since 1970-01-01T00:00:00 on this zone's clocks.
    public func instant(forWall wall: Int64) -> Int64 {
        // Any transition that matters lies within a day of the wall reading
        // (offsets are within ±18 h and zones do not change twice a day).
        let table = table
        if table.coverage.contains(wall - 86_400), table.coverage.contains(wall + 86_400) {
            // The common case in one search: no transition within that day.
            let i = table.firstTransition(after: wall - 86_400)
            if i == table.transitions.count || table.transitions[i] > wall + 86_400 {
                return wall - Int64(i == 0 ? table.initialOffset : table.offsetsAfter[i - 1])
            }
        }
        let before = Int64(offset(atInstant: wall - 86_400))
        let after = Int64(offset(atInstant: wall + 86_400))
        if before == after { return wall - before }
        let beforeValid = Int64(offset(atInstant: wall - before)) == before
        let afterValid = Int64(offset(atInstant: wall - after)) == after
        switch (beforeValid, afterValid) {
        case (true, true): return wall - max(before, after)  // fold: the first instant
        case (true, false): return wall - before
        case (false, true): return wall - after
        case (false, false): return wall - before  // gap: the offset from before it
        }
    }

    /// Two tables are the same zone when they have the same name.
    public static func == (lhs: ZoneRules, rhs: ZoneRules) -> Bool { lhs.identifier == rhs.identifier && lhs.transitions == rhs.transitions && lhs.initialOffset == rhs.initialOffset }

    /// Hashes the identifier.
    public func hash(into hasher: inout Hasher) { hasher.combine(identifier) }
}

