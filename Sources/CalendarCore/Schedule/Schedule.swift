import Foundation

/// An immutable snapshot of calendar items that answers "every occurrence in
/// this window", for all items at once, sorted.
///
/// ```swift
/// let schedule = try Schedule(items: items)
/// let week = schedule.occurrences(from: monday, to: nextMonday, floatingZone: try .named("Europe/Madrid"))
/// ```
///
/// - Complexity: building is O(n log n). A query costs O(log n + k) for the
///   n single items (a binary search over their starts; k found), plus, for
///   each series, the rule periods inside the window: it does not grow with
///   the total history or the number of items outside the window.
public struct Schedule: Sendable {
    /// Every item, in the order given.
    public let items: [CalendarItem]
    /// The calendar's own zone: the clock its views show unless the caller
    /// asks for another.
    ///
    /// The zone given to ``init(items:timeZone:zones:)`` (an iCalendar file's
    /// `X-WR-TIMEZONE`, see `ICalendar.calendarZone(namedBy:)`), else the zone most of
    /// the items start in, else `nil` — a schedule of only all-day, floating
    /// and UTC times, which read the same on every clock.
    public let timeZone: ZoneRules?
    /// The zones the items' calendar defines for itself (its own
    /// `VTIMEZONE`s, `ICalendar.zones`): every zoned time of the items is
    /// read with these rules first, then the system's.
    ///
    /// The schedule carries them, rather than a registry of the process, so
    /// that expansion, extents, views and everything built on a schedule read
    /// a custom `TZID` with the rules of the calendar it came from. A series
    /// resolves its zone once, when the schedule is built (or once per query
    /// for a floating series), never once per instance.
    public let zones: ZoneTable
    /// Single items sorted by a zone-independent key: the instant for UTC and
    /// zoned starts, the wall reading taken as UTC for dates and floating times.
    let singleKeys: [Int64]
    let singleIndices: [Int]
    /// Single items longer than `shortSpan`, checked on every query.
    let longSingles: [Int]
    /// Recurring items, each with its recurrence compiled once when that
    /// does not depend on the viewer's zone (a start in UTC or a named zone):
    /// compiling a series for every query was a quarter of a month view's time.
    let series: [SeriesPlan]

    /// What a query needs of a series, worked out once where it does not
    /// depend on the viewer's zone (a start in UTC or a named zone, an end
    /// that is not floating); `nil` parts are worked out per query.
    struct SeriesPlan: Sendable {
        let index: Int
        let compiled: RecurrenceSet.Iterator?
        let span: InstanceSpan?
        /// The length of the master's own instance, with ``span``.
        let length: Int64?
        /// Every instance's exact length, when the series has a fixed zone,
        /// no changed instances, no `RDATE` periods and a length that does not follow the wall
        /// clock: its extents need no `Occurrence` (see `forEachExtent`).
        let exactLength: Int64?

        init(_ index: Int, _ item: CalendarItem, _ zones: ZoneTable, compiling: Bool) {
            self.index = index
            var fixed: Bool
            switch item.start {
            case .utc, .zoned: fixed = true
            case .date, .floating: fixed = false
            }
            compiled = fixed && compiling ? try? item.recurrenceSet?.compiledIterator(zones: zones) : nil
            switch item.end {
            case .at(.date), .at(.floating): fixed = false
            default: break
            }
            let base = try? item.start.epochSeconds(floatingZone: .utc, zones: zones)
            if fixed, let base {
                let span = item.span(floatingZone: .utc, zones: zones)
                self.span = span
                length = span.end(startingAt: item.start, startSeconds: base).1 - base
                exactLength = compiled != nil && item.overrides.isEmpty && item.recurrenceDateEnds.isEmpty ? span.exactSeconds : nil
            } else {
                span = nil
                length = nil
                exactLength = nil
            }
        }
    }
    /// The items' positions sorted by `UID` (for one `UID`, the last item
    /// given wins, as a dictionary would): 4 bytes an item, where a
    /// `[String: Int]` took 60 (3 MB of a 50,000-event file's expansion).
    private let byUID: [Int32]

    /// Items no longer than this are found by the start index alone.
    static let shortSpan: Int64 = 7 * 86_400
    /// The largest UTC offset in use (+14:00, Kiribati), bounding floating times.
    static let maxOffset: Int64 = 14 * 3600

    /// The empty schedule.
    public static let empty = Schedule(items: [], timeZone: nil, zones: ZoneTable(), compilingSeries: true)

    /// Creates a snapshot of items, each of whose zones must resolve.
    ///
    /// Items are not otherwise validated here; see ``LiveSchedule``.
    ///
    /// Every `TZID` the items name (start, end, `RDATE`, `EXDATE`, each
    /// changed instance) must resolve through `zones` or the system's zone
    /// data. An item of an iCalendar file whose `TZID` only that file defines
    /// (a `VTIMEZONE` named `My Office`, or Outlook's `W. Europe Standard
    /// Time` with its own rules) has no instant without the file's zones:
    /// rather than leave such an item out of every window, this throws.
    /// Pass the file's zones, or let the calendar build its schedule:
    ///
    /// ```swift
    /// let schedule = try Schedule(items: calendar.items, zones: calendar.zones)
    /// let same = calendar.schedule()   // the file's zones and its X-WR-TIMEZONE
    /// ```
    ///
    /// - Parameters:
    ///   - items: the items.
    ///   - timeZone: the calendar's own zone; `nil` takes the zone most of
    ///     the items start in (see ``timeZone``).
    ///   - zones: the zones the items' calendar defines for itself (see
    ///     ``zones``); empty by default, for items in the system's zones only.
    /// - Throws: ``CalendarItemError/Code/unknownTimeZone`` naming the first
    ///   item whose `TZID` neither `zones` nor the system knows.
    /// - Complexity: O(n log n); each distinct `TZID` is resolved once.
    public init(items: [CalendarItem], timeZone: ZoneRules? = nil, zones: ZoneTable = ZoneTable()) throws(CalendarItemError) {
        try Self.checkZones(of: items, zones: zones)
        self.init(items: items, timeZone: timeZone, zones: zones, compilingSeries: true)
    }

    /// Throws for the first item naming a `TZID` that `zones` and the system cannot resolve.
    ///
    /// - Parameters:
    ///   - items: the items.
    ///   - zones: the calendar's own zones.
    package static func checkZones(of items: [CalendarItem], zones: ZoneTable) throws(CalendarItemError) {
        var known: Set<String> = []
        for item in items {
            var unknown: (String, TimeValueError)?
            item.forEachZoneIdentifier { tzid in
                guard !known.contains(tzid) else { return true }
                do throws(TimeValueError) {
                    _ = try zones.rules(forTZID: tzid)
                    known.insert(tzid)
                    return true
                } catch {
                    unknown = (tzid, error)
                    return false
                }
            }
            if let (tzid, error) = unknown {
                let how = zones.isEmpty
                    ? "pass the zones of the file it came from (Schedule(items: calendar.items, zones: calendar.zones), or calendar.schedule())"
                    : "the zones given do not define it either; add its VTIMEZONE's rules to them"
                throw CalendarItemError(
                    .unknownTimeZone, field: .start,
                    "‘\(item.uid)’ is on the zone ‘\(tzid)’, which neither the system's zone data nor the calendar's own zones define; \(how)",
                    underlying: error)
            }
        }
    }

    /// Creates a snapshot, compiling each series' rules up front or not.
    ///
    /// Compiled once, a series is not compiled again by each query (views
    /// ask many); a single pass over a large calendar (`horari occurrences`)
    /// compiles each in its query instead, and does not hold the compiled
    /// rules twice (5 MB for 15,000 series).
    /// - Parameters:
    ///   - items: the items.
    ///   - timeZone: the calendar's own zone (see ``timeZone``).
    ///   - zones: the calendar's own zones (see ``zones``).
    ///   - compilingSeries: whether to compile each series' rules now.
    package init(items: [CalendarItem], timeZone: ZoneRules?, zones: ZoneTable, compilingSeries: Bool) {
        self.items = items
        self.zones = zones
        self.timeZone = timeZone ?? Self.predominantZone(of: items, zones: zones)
        var singles: [(Int64, Int)] = []
        var long: [Int] = []
        var series: [SeriesPlan] = []
        // Sized once: growing them held the old and the new storage at once
        // (4 MB for 15,000 series), at the peak of a whole file's expansion.
        series.reserveCapacity(items.reduce(0) { $0 + ($1.isRecurring ? 1 : 0) })
        for (i, item) in items.enumerated() {
            // A task with no date (RFC 5545 §3.6.2) is on no date: kept for
            // item(uid:), placed nowhere (a task list shows it as someday).
            if item.isUndated { continue }
            if item.isRecurring {
                series.append(SeriesPlan(i, item, zones, compiling: compilingSeries))
                continue
            }
            let key: Int64
            switch item.start {
            case .utc, .zoned: key = (try? item.start.epochSeconds(floatingZone: .utc, zones: zones)) ?? item.start.wallTime.localSeconds
            case .date, .floating: key = item.start.wallTime.localSeconds
            }
            let (_, endKey) = item.span(floatingZone: .utc, zones: zones).end(startingAt: item.start, startSeconds: key)
            if endKey - key > Self.shortSpan { long.append(i) } else { singles.append((key, i)) }
        }
        singles.sort { $0.0 < $1.0 }
        singleKeys = singles.map(\.0)
        singleIndices = singles.map(\.1)
        longSingles = long
        self.series = series
        // Sorted by UID, then position, keeping the last position of each UID.
        var order = (0..<Int32(clamping: items.count)).sorted { (items[Int($0)].uid, $0) < (items[Int($1)].uid, $1) }
        var kept = 0
        for k in order.indices {
            if k + 1 < order.count, items[Int(order[k])].uid == items[Int(order[k + 1])].uid { continue }
            order[kept] = order[k]
            kept += 1
        }
        order.removeLast(order.count - kept)
        byUID = order
    }

    /// The zone most of the items' starts name (the first named on a tie),
    /// or `nil` when none names a zone that resolves.
    ///
    /// - Parameters:
    ///   - items: the items.
    ///   - zones: the zones the items' calendar defines for itself, looked up
    ///     before the system's; empty by default.
    public static func predominantZone(of items: [CalendarItem], zones: ZoneTable = ZoneTable()) -> ZoneRules? {
        var counts: [String: (count: Int, first: Int)] = [:]
        for (i, item) in items.enumerated() {
            guard case .zoned(_, let tz) = item.start else { continue }
            counts[tz, default: (0, i)].count += 1
        }
        let ranked = counts.sorted { a, b in a.value.count != b.value.count ? a.value.count > b.value.count : a.value.first < b.value.first }
        return ranked.lazy.compactMap { try? zones.rules(forTZID: $0.key) }.first
    }

    /// The item with this `UID`.
    ///
    /// - Complexity: O(log n), a binary search.
    public func item(uid: String) -> CalendarItem? {
        var lo = 0
        var hi = byUID.count
        while lo < hi {
            let mid = (lo + hi) >> 1
            if items[Int(byUID[mid])].uid < uid { lo = mid + 1 } else { hi = mid }
        }
        guard lo < byUID.count, items[Int(byUID[lo])].uid == uid else { return nil }
        return items[Int(byUID[lo])]
    }

    /// The zone floating and all-day times are read in when a call names
    /// none: the schedule's own (``timeZone``), else the machine's.
    func readingZone(_ given: ZoneRules?) -> ZoneRules { given ?? timeZone ?? .current }

    /// Every occurrence overlapping `[from, to)`, sorted by start, then end, then identity.
    ///
    /// - Parameters:
    ///   - from: the start of the window.
    ///   - to: the end of the window (exclusive).
    ///   - floatingZone: the zone in which all-day and floating times are
    ///     placed (the viewer's zone); by default the schedule's own zone (``timeZone``), else the machine's (`ZoneRules.current`).
    public func occurrences(from: Date, to: Date, floatingZone: ZoneRules? = nil) -> [Occurrence] {
        Array(occurrenceSequence(from: from, to: to, floatingZone: floatingZone))
    }

    /// Calls `body` with every occurrence overlapping `[from, to)`, in no
    /// particular order, without collecting them.
    ///
    /// For summaries that do not need the order — counting a month's items per
    /// day, say — this skips the array and the sort of
    /// ``occurrences(from:to:floatingZone:)``; the same occurrences are visited.
    public func forEachOccurrence(from: Date, to: Date, floatingZone: ZoneRules? = nil, _ body: (Occurrence) -> Void) {
        let floatingZone = readingZone(floatingZone)
        let a = from.clampedEpochSeconds
        let b = to.clampedEpochSecondsRoundedUp
        guard b > a else { return }
        // Singles: any whose key lies within reach of the window.
        var lo = firstSingle(reaching: a)
        while lo < singleKeys.count, singleKeys[lo] < b + Self.maxOffset {
            visitSingle(items[singleIndices[lo]], a, b, floatingZone, body)
            lo += 1
        }
        for i in longSingles { visitSingle(items[i], a, b, floatingZone, body) }
        for plan in series { visitSeries(items[plan.index], plan, a, b, floatingZone, body) }
    }

    /// What a day summary needs of an occurrence: when it starts and ends,
    /// the dates of an all-day one, and its item's colour.
    package struct Extent {
        /// The start, in Unix seconds.
        package let startSeconds: Int64
        /// The end, in Unix seconds.
        package let endSeconds: Int64
        /// For an all-day occurrence, its dates as day numbers (end exclusive).
        package let allDayDays: Range<Int>?
        /// The colour of the item (or changed instance) that occurs.
        package let color: ItemColor?
        /// Whether it counts toward its day (``CalendarItem/counts``: not a
        /// done task, not cancelled).
        package let counts: Bool

        /// An occurrence's extent: the one place its all-day dates are read.
        package init(_ o: Occurrence) {
            startSeconds = o.startSeconds
            endSeconds = o.endSeconds
            if o.isAllDay {
                let first = o.start.localDate.dayNumber
                allDayDays = first..<max(first + 1, o.end.localDate.dayNumber)
            } else {
                allDayDays = nil
            }
            color = o.item.color
            counts = o.item.counts
        }

        init(startSeconds: Int64, endSeconds: Int64, color: ItemColor?, counts: Bool) {
            self.startSeconds = startSeconds
            self.endSeconds = endSeconds
            allDayDays = nil
            self.color = color
            self.counts = counts
        }
    }

    /// Calls `body` with the extent of every occurrence overlapping `[from,
    /// to)`, in no particular order: the occurrences of
    /// ``forEachOccurrence(from:to:floatingZone:_:)``, without building them.
    ///
    /// A series with a fixed zone, an exact length and no changed instances —
    /// most of a busy calendar's classes — is walked as wall readings and
    /// instants only; building each instance's `CalendarTime`s and its
    /// `Occurrence` was over half of a month view's time (measured with
    /// `perf`, `HorariBench --views-only`). Every other item goes through
    /// the full path. `MonthViewTests` checks both paths give the same marks.
    package func forEachExtent(from: Date, to: Date, floatingZone: ZoneRules, _ body: (Extent) -> Void) {
        let a = from.clampedEpochSeconds
        let b = to.clampedEpochSecondsRoundedUp
        guard b > a else { return }
        var lo = firstSingle(reaching: a)
        var memo = ZoneMemo(zones: zones)
        while lo < singleKeys.count, singleKeys[lo] < b + Self.maxOffset {
            extentOfSingle(items[singleIndices[lo]], a, b, floatingZone, &memo, body)
            lo += 1
        }
        for i in longSingles { extentOfSingle(items[i], a, b, floatingZone, &memo, body) }
        for plan in series {
            guard let length = plan.exactLength, var iterator = plan.compiled else {
                visitSeries(items[plan.index], plan, a, b, floatingZone) { body(Extent($0)) }
                continue
            }
            // Read once a series: every instance of a plain series shares them.
            let (color, counts) = (items[plan.index].color, items[plan.index].counts)
            iterator.begin(from: Date(timeIntervalSince1970: TimeInterval(a - max(length, 0) - 86_400)))
            while let wall = iterator.nextWall() {
                let s = iterator.zone.instant(forWall: wall)
                if s >= b + 86_400 { break }
                let e = s + length
                // As `Occurrence.overlaps`: an instant counts at the window's start, not its end.
                if e > s ? (s < b && e > a) : (s >= a && s < b) {
                    body(Extent(startSeconds: s, endSeconds: e, color: color, counts: counts))
                }
            }
        }
    }

    /// A single item's extent: from its own times when it is timed and its
    /// end is a time or a `DURATION` without days, else through `Occurrence`.
    private func extentOfSingle(_ item: CalendarItem, _ a: Int64, _ b: Int64, _ zone: ZoneRules, _ memo: inout ZoneMemo,
                                _ body: (Extent) -> Void) {
        guard !item.start.isDate, let s = memo.epochSeconds(item.start, floatingZone: zone) else {
            visitSingle(item, a, b, zone) { body(Extent($0)) }
            return
        }
        let e: Int64
        switch item.end {
        case .none: e = s
        case .duration(let d) where d.days == 0: e = s + Int64(d.seconds)
        case .at(let t) where !t.isDate: e = (try? t.epochSeconds(floatingZone: zone, zones: zones)) ?? s
        default:
            visitSingle(item, a, b, zone) { body(Extent($0)) }
            return
        }
        if e > s ? (s < b && e > a) : (s >= a && s < b) { body(Extent(startSeconds: s, endSeconds: e, color: item.color, counts: item.counts)) }
    }

    /// The last zone a query looked up by name: the items of a calendar
    /// mostly share one, and `ZoneRules.named` takes a lock and hashes the name.
    private struct ZoneMemo {
        let zones: ZoneTable
        var name = ""
        var rules: ZoneRules?

        init(zones: ZoneTable) { self.zones = zones }

        mutating func epochSeconds(_ t: CalendarTime, floatingZone: ZoneRules) -> Int64? {
            guard case .zoned(let wall, let id) = t else { return try? t.epochSeconds(floatingZone: floatingZone) }
            if rules == nil || id != name {
                guard let found = try? zones.rules(forTZID: id) else { return nil }
                (name, rules) = (id, found)
            }
            return rules?.instant(forWall: wall.localSeconds)
        }
    }

    private func lowerBound(_ key: Int64) -> Int {
        var lo = 0
        var hi = singleKeys.count
        while lo < hi {
            let mid = (lo + hi) >> 1
            if singleKeys[mid] < key { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// The first position in the start index whose item may reach `instant`
    /// (a single item is never longer than ``shortSpan`` there).
    func firstSingle(reaching instant: Int64) -> Int {
        lowerBound(instant - Self.shortSpan - Self.maxOffset)
    }

    /// A single item's occurrence, when it overlaps `[a, b)`.
    func occurrence(ofSingle item: CalendarItem, _ a: Int64, _ b: Int64, _ zone: ZoneRules) -> Occurrence? {
        Occurrence(placing: item, as: .init(uid: item.uid, recurrenceID: nil), a, b, zone, zones)
    }

    private func visitSingle(_ item: CalendarItem, _ a: Int64, _ b: Int64, _ zone: ZoneRules, _ body: (Occurrence) -> Void) {
        if let o = occurrence(ofSingle: item, a, b, zone) { body(o) }
    }

    private func visitSeries(_ item: CalendarItem, _ plan: SeriesPlan, _ a: Int64, _ b: Int64, _ zone: ZoneRules,
                             _ body: (Occurrence) -> Void) {
        var moved: [Occurrence] = []
        let window = SeriesCursor.Window(a: a, b: b, zone: zone, zones: zones)
        guard var cursor = SeriesCursor(item, plan, window, moved: &moved) else { return }
        while let o = cursor.next(window) { body(o) }
        for o in moved { body(o) }
    }

    /// A recurrence ID written in another kind of time (UTC for a zoned series,
    /// say) expressed the way the series' own instances are.
    static func normalised(_ id: CalendarTime, like start: CalendarTime, zones: ZoneTable) -> CalendarTime {
        switch (start, id) {
        case (.zoned(_, let zone), .utc(let t)):
            let rules = (try? zones.rules(forTZID: zone)) ?? .utc
            return .zoned(LocalDateTime(localSeconds: rules.wall(atInstant: t.localSeconds)), zone)
        case (.zoned(_, let zone), .zoned(let t, let other)) where other != zone:
            let from = (try? zones.rules(forTZID: other)) ?? .utc
            let to = (try? zones.rules(forTZID: zone)) ?? .utc
            return .zoned(LocalDateTime(localSeconds: to.wall(atInstant: from.instant(forWall: t.localSeconds))), zone)
        default:
            return start.withWallTime(id.wallTime)
        }
    }
}

extension Occurrence {
    /// An item at its own start — a single item, or a changed instance under
    /// its series' `id` — when it overlaps `[a, b)`; `nil` otherwise, or when
    /// its start's zone is unknown.
    init?(placing item: CalendarItem, as id: ID, _ a: Int64, _ b: Int64, _ zone: ZoneRules, _ zones: ZoneTable) {
        guard let s = try? item.start.epochSeconds(floatingZone: zone, zones: zones) else { return nil }
        let (end, e) = item.span(floatingZone: zone, zones: zones).end(startingAt: item.start, startSeconds: s)
        self.init(id: id, item: item, start: item.start, end: end, startSeconds: s, endSeconds: e)
        guard overlaps(a, b) else { return nil }
    }
}
