import Foundation

/// A zone's compiled tz file (RFC 8536, TZif) as the system keeps it
/// (`/usr/share/zoneinfo`, or `$TZDIR`): the source of ``ZoneRules/named(_:)``'s
/// rules and of the zones' abbreviations.
///
/// Why the system's files rather than Foundation's `TimeZone`: they are the
/// tz database that libical, python-dateutil, khal and the C library read on
/// this machine, so all of them agree on an offset; they name each period as
/// the database does (`CET`, not ICU's `GMT+1`); and asking ICU costs a
/// process 2–3 MB of zone and locale tables on the first question (a fifth
/// of the headroom `horari import` has under its 3× the file). Foundation
/// remains the answer where there is no file (a machine without tzdata, a
/// name only ICU knows).
struct TZif: Sendable {
    /// One kind of period: its UTC offset, whether it is daylight saving
    /// time, and its abbreviation.
    struct LocalType: Sendable {
        var offset: Int
        var isDaylight: Bool
        var name: String
    }

    /// Transition instants, ascending.
    var times: [Int64] = []
    /// The type each transition opens.
    var typeIndices: [UInt8] = []
    var types: [LocalType] = []
    /// The rule after the last transition (the file's footer), when it has one.
    var rule: PosixRule?
    /// For each offset, the name of the latest period that used it: the
    /// answer when the period at an instant has another offset than the
    /// caller's rules give (they may come from another copy of the database).
    var latest: [Int: String] = [:]

    // MARK: Reading

    private static let cache = Locked<[String: TZif?]>([:])

    /// The file of an IANA zone name, read and cached; `nil` when there is
    /// none, or it is not a TZif file, or the name is not a zone's.
    static func zone(_ name: String) -> TZif? {
        if let known = cache.withLock({ $0[name] }) { return known }
        let found = read(name)
        cache.withLock { table in
            // Names that are no file are remembered too; a file full of
            // made-up TZIDs must not grow the table without end.
            if table.count >= 1024 { table.removeAll() }
            table[name] = .some(found)
        }
        return found
    }

    /// The folder an app chose (``ZoneRules/systemTimeZoneFolder``), if any.
    private static let chosenFolder = Locked<String?>(nil)

    /// The folder of the compiled tz files: the one an app chose, else
    /// `$TZDIR`, else `/usr/share/zoneinfo` (Linux's and macOS's; on iOS and
    /// its kin it may be missing or closed to an app, and Foundation's copy
    /// of the database answers).
    static var folder: String {
        get { chosenFolder.withLock { $0 } ?? ProcessInfo.processInfo.environment["TZDIR"] ?? "/usr/share/zoneinfo" }
        set {
            chosenFolder.withLock { $0 = newValue }
            cache.withLock { $0.removeAll() }
        }
    }

    private static func read(_ name: String) -> TZif? {
        // A zone name never climbs out of the folder, and the folder's other
        // trees are not zones of their own: `posix/` repeats them, `right/`
        // counts leap seconds, which no calendar does.
        let parts = name.split(separator: "/", omittingEmptySubsequences: false)
        guard let first = parts.first, !name.hasPrefix("/"), !parts.contains(where: { $0.isEmpty || $0 == ".." || $0 == "." }),
            !["posix", "right", "posixrules", "localtime", "Factory"].contains(first)
        else { return nil }
        guard let data = FileManager.default.contents(atPath: folder + "/" + name) else { return nil }
        return parse([UInt8](data))
    }

    /// The last data block (version 2+ files carry a 64-bit block after the
    /// 32-bit one, and a footer rule; version 1 files only the former);
    /// `nil` when the bytes are not a TZif file or a count points outside them.
    static func parse(_ bytes: [UInt8]) -> TZif? {
        func be(_ i: Int, _ size: Int) -> Int64? {
            guard i >= 0, i + size <= bytes.count else { return nil }
            var v: UInt64 = 0
            for k in 0..<size { v = v << 8 | UInt64(bytes[i + k]) }
            return size == 4 ? Int64(Int32(bitPattern: UInt32(truncatingIfNeeded: v))) : Int64(bitPattern: v)
        }
        func block(at start: Int, timeSize: Int) -> (zone: TZif, end: Int)? {
            guard bytes.count >= start + 44, Array(bytes[start..<start + 4]) == Array("TZif".utf8) else { return nil }
            var counts: [Int] = []
            for k in 0..<6 {
                guard let c = be(start + 20 + 4 * k, 4), c >= 0, c < 1_000_000 else { return nil }
                counts.append(Int(c))
            }
            let (isut, isstd, leap, timecnt, typecnt, charcnt) = (counts[0], counts[1], counts[2], counts[3], counts[4], counts[5])
            let times = start + 44
            let indices = times + timecnt * timeSize
            let infos = indices + timecnt
            let chars = infos + typecnt * 6
            let end = chars + charcnt + leap * (timeSize + 4) + isstd + isut
            guard typecnt > 0, end <= bytes.count else { return nil }
            var zone = TZif()
            for k in 0..<typecnt {
                guard let offset = be(infos + k * 6, 4) else { return nil }
                var i = chars + Int(bytes[infos + k * 6 + 5])
                var text: [UInt8] = []
                while i < chars + charcnt, bytes[i] != 0 { text.append(bytes[i]); i += 1 }
                zone.types.append(LocalType(offset: Int(offset), isDaylight: bytes[infos + k * 6 + 4] != 0, name: String(decoding: text, as: UTF8.self)))
            }
            for j in 0..<timecnt {
                guard let t = be(times + j * timeSize, timeSize), Int(bytes[indices + j]) < typecnt else { return nil }
                guard zone.times.last.map({ $0 < t }) ?? true else { return nil }
                zone.times.append(t)
                zone.typeIndices.append(bytes[indices + j])
            }
            // Every type first, then the types in the order periods use them,
            // so the latest period's name for an offset wins.
            for type in zone.types where zone.latest[type.offset] == nil { zone.latest[type.offset] = type.name }
            for k in zone.typeIndices { zone.latest[zone.types[Int(k)].offset] = zone.types[Int(k)].name }
            return (zone, end)
        }
        guard let first = block(at: 0, timeSize: 4) else { return nil }
        guard bytes.count > 4, bytes[4] >= 0x32, var second = block(at: first.end, timeSize: 8) else { return first.zone }
        // The footer: "\n" rule "\n".
        if second.end < bytes.count, bytes[second.end] == 0x0A, let close = bytes[(second.end + 1)...].firstIndex(of: 0x0A) {
            let text = String(decoding: bytes[(second.end + 1)..<close], as: UTF8.self)
            second.zone.rule = PosixRule(text)
            if let rule = second.zone.rule {
                second.zone.latest[rule.standardOffset] = rule.standardName
                if let dst = rule.daylight { second.zone.latest[dst.offset] = dst.name }
            }
        }
        return second.zone
    }

    // MARK: Answers

    /// The type in force at `t`: the file's table, and after its last
    /// transition the footer rule when there is one.
    func type(atInstant t: Int64) -> LocalType {
        if let rule, let last = times.last, t >= last { return rule.type(atInstant: t) }
        return tableType(atInstant: t)
    }

    /// The type in force at `t` per the file's table alone.
    private func tableType(atInstant t: Int64) -> LocalType {
        var lo = 0, hi = times.count  // the first transition after t
        while lo < hi {
            let mid = (lo + hi) / 2
            if times[mid] <= t { lo = mid + 1 } else { hi = mid }
        }
        // Before the first transition: the first type (RFC 8536 §3.2).
        return types[lo == 0 ? 0 : Int(typeIndices[lo - 1])]
    }

    /// The period's name at `t`, when it has the offset the caller's rules
    /// give there; else the latest name of that offset.
    func name(atInstant t: Int64, offset: Int) -> String? {
        let type = type(atInstant: t)
        return type.offset == offset ? type.name : latest[offset]
    }

    /// The changes of offset in `(start, end)`, each with the offset and
    /// daylight flag it opens, and the offset in force at `start`: the
    /// file's transitions, then the footer rule's, year by year.
    /// Transitions that change only a name or the daylight flag are left out.
    func table(from start: Int64, to end: Int64) -> (initial: LocalType, changes: [(instant: Int64, type: LocalType)]) {
        let initial = tableType(atInstant: start)
        var changes: [(instant: Int64, type: LocalType)] = []
        var current = initial.offset
        func add(_ t: Int64, _ type: LocalType) {
            guard t > start, t < end else { return }
            // Two changes at one instant (a rule of daylight time all year
            // ends one year where it starts the next) are the later one.
            if let last = changes.last, last.instant == t {
                changes.removeLast()
                current = changes.last?.type.offset ?? initial.offset
            }
            guard type.offset != current else { return }
            changes.append((t, type))
            current = type.offset
        }
        for (t, k) in zip(times, typeIndices) { add(t, types[Int(k)]) }
        if let rule, let last = times.last, rule.daylight != nil {
            let firstYear = LocalDateTime(localSeconds: last).date.year
            let lastYear = LocalDateTime(localSeconds: end).date.year
            for year in firstYear...max(firstYear, lastYear) {
                for (t, type) in rule.transitions(in: year) where t > last { add(t, type) }
            }
        }
        return (initial, changes)
    }
}

/// A POSIX `TZ` rule as a TZif footer writes it (RFC 8536 §3.3):
/// `CET-1CEST,M3.5.0,M10.5.0/3` is one hour east of UTC, two in summer,
/// from the last Sunday of March at 02:00 to the last Sunday of October at
/// 03:00. Signs are POSIX's: west of Greenwich is positive.
struct PosixRule: Sendable {
    var standardName: String
    var standardOffset: Int
    var daylight: (name: String, offset: Int, start: Boundary, end: Boundary)?

    /// A day of the year and a time on the clock in force before it.
    struct Boundary: Sendable {
        enum Day: Sendable {
            /// `Jn`: day 1…365, 29 February never counted.
            case julian(Int)
            /// `n`: day 0…365, 29 February counted.
            case zeroBased(Int)
            /// `Mm.w.d`: the `w`th (5: last) weekday `d` (0: Sunday) of month `m`.
            case monthWeek(month: Int, week: Int, weekday: Int)
        }
        var day: Day
        /// Seconds after midnight; may be negative or past 24 h (RFC 8536 §3.3.1).
        var time: Int
    }

    /// Parses a rule, or `nil` for one that is empty or malformed.
    init?(_ text: String) {
        var s = Substring(text)
        func name() -> String? {
            if s.first == "<" {
                guard let close = s.firstIndex(of: ">") else { return nil }
                let n = String(s[s.index(after: s.startIndex)..<close])
                s = s[s.index(after: close)...]
                return n.isEmpty ? nil : n
            }
            let n = s.prefix { $0.isLetter }
            s = s.dropFirst(n.count)
            return n.count >= 3 ? String(n) : nil
        }
        /// `[+-]hh[:mm[:ss]]` in seconds.
        func clock() -> Int? {
            var sign = 1
            if s.first == "+" { s = s.dropFirst() } else if s.first == "-" { sign = -1; s = s.dropFirst() }
            var parts: [Int] = []
            repeat {
                if !parts.isEmpty { s = s.dropFirst() }  // ":"
                let digits = s.prefix { $0.isASCII && $0.isNumber }
                guard !digits.isEmpty, digits.count <= 3, let v = Int(digits) else { return nil }
                parts.append(v)
                s = s.dropFirst(digits.count)
            } while s.first == ":" && parts.count < 3
            guard parts[0] <= 167, parts.dropFirst().allSatisfy({ $0 < 60 }) else { return nil }
            return sign * (parts[0] * 3600 + (parts.count > 1 ? parts[1] * 60 : 0) + (parts.count > 2 ? parts[2] : 0))
        }
        func number() -> Int? {
            let digits = s.prefix { $0.isASCII && $0.isNumber }
            s = s.dropFirst(digits.count)
            return digits.isEmpty ? nil : Int(digits)
        }
        func boundary() -> Boundary? {
            let day: Boundary.Day
            if s.first == "M" {
                s = s.dropFirst()
                guard let m = number(), s.first == "." else { return nil }
                s = s.dropFirst()
                guard let w = number(), s.first == "." else { return nil }
                s = s.dropFirst()
                guard let d = number(), (1...12).contains(m), (1...5).contains(w), (0...6).contains(d) else { return nil }
                day = .monthWeek(month: m, week: w, weekday: d)
            } else if s.first == "J" {
                s = s.dropFirst()
                guard let n = number(), (1...365).contains(n) else { return nil }
                day = .julian(n)
            } else {
                guard let n = number(), (0...365).contains(n) else { return nil }
                day = .zeroBased(n)
            }
            var time = 7200
            if s.first == "/" {
                s = s.dropFirst()
                guard let t = clock() else { return nil }
                time = t
            }
            return Boundary(day: day, time: time)
        }
        guard let std = name(), let stdWest = clock() else { return nil }
        standardName = std
        standardOffset = -stdWest
        guard !s.isEmpty else { daylight = nil; return }
        guard let dst = name() else { return nil }
        var dstOffset = standardOffset + 3600
        if let first = s.first, first != "," {
            guard let west = clock() else { return nil }
            dstOffset = -west
        }
        guard s.first == "," else { return nil }
        s = s.dropFirst()
        guard let start = boundary(), s.first == "," else { return nil }
        s = s.dropFirst()
        guard let end = boundary(), s.isEmpty else { return nil }
        daylight = (dst, dstOffset, start, end)
    }

    /// The day number (days since 1970-01-01) of a boundary's day in `year`.
    private static func dayNumber(_ day: Boundary.Day, in year: Int) -> Int {
        let january1 = LocalDate.days(fromCivil: year, 1, 1)
        switch day {
        case .julian(let n):
            return january1 + n - 1 + (LocalDate.isLeapYear(year) && n >= 60 ? 1 : 0)
        case .zeroBased(let n):
            return january1 + n
        case .monthWeek(let month, let week, let weekday):
            let first = LocalDate.days(fromCivil: year, month, 1)
            // POSIX counts weekdays from Sunday (0); `Weekday` from Monday.
            let firstWeekday = (LocalDate.weekday(ofDayNumber: first).rawValue + 1) % 7
            var day = first + (weekday - firstWeekday + 7) % 7 + (week - 1) * 7
            let length = LocalDate.daysIn(month: month, year: year)
            while day >= first + length { day -= 7 }
            return day
        }
    }

    /// The year's two changes, in order: into daylight time (at the start
    /// boundary on standard time) and out of it (at the end on daylight time).
    func transitions(in year: Int) -> [(Int64, TZif.LocalType)] {
        guard let daylight else { return [] }
        let into = Int64(Self.dayNumber(daylight.start.day, in: year)) * 86_400 + Int64(daylight.start.time - standardOffset)
        let out = Int64(Self.dayNumber(daylight.end.day, in: year)) * 86_400 + Int64(daylight.end.time - daylight.offset)
        let changes = [(into, TZif.LocalType(offset: daylight.offset, isDaylight: true, name: daylight.name)),
                       (out, TZif.LocalType(offset: standardOffset, isDaylight: false, name: standardName))]
        return changes.sorted { $0.0 < $1.0 }
    }

    /// The type in force at an instant.
    func type(atInstant t: Int64) -> TZif.LocalType {
        let standard = TZif.LocalType(offset: standardOffset, isDaylight: false, name: standardName)
        guard daylight != nil else { return standard }
        let year = LocalDateTime(localSeconds: t + Int64(standardOffset)).date.year
        // The last change at or before t, looking back into last year.
        var found = standard
        var latest = Int64.min
        for y in [year - 1, year] {
            for (instant, type) in transitions(in: y) where instant <= t && instant >= latest {
                latest = instant
                found = type
            }
        }
        return found
    }
}
