// How far in time an item can reach: what a store that keeps items by time
// (`calendar_component.starts/ends` in SQLite and PostgreSQL) indexes, so
// that a view reads only the items that can touch its window. Worked out on
// wall clocks, with no zone: a time in a real zone is at most ~15 hours from
// its wall reading (UTC−12 to UTC+14, and the odd local mean time), but a
// calendar's own VTIMEZONE may write any offset the importer reads, up to
// ±99:59 (RFC 5545 allows ±23:59; files break it), so the margin is five
// days either side: whatever zone the item, its calendar or the viewer is in.

extension CalendarItem {
    /// The margin, in seconds, on either side of a reach: five days, more
    /// than the largest offset a `VTIMEZONE` can write (±99:59).
    package static let reachMargin: Int64 = 5 * 86_400

    /// How many occurrences of a `COUNT` rule are walked to find its last
    /// one; a rule with more reaches on with no end.
    package static let reachCountWalk = 2_000

    /// The instants (Unix seconds) outside which no occurrence of the item,
    /// its overrides and its `RDATE`s can start or end — `to` is `nil` for a
    /// series without an end — with ``reachMargin`` either side; `nil` for an item
    /// with no time (an undated task), which every window holds.
    ///
    /// Conservative, never short: `EXDATE`s are not subtracted, and a `COUNT`
    /// of more than ``reachCountWalk`` occurrences reaches on with no end.
    package var reach: (from: Int64, to: Int64?)? {
        if isUndated { return nil }
        var from = start.wallTime.localSeconds
        var last: Int64? = from
        var longest = Self.wallLength(of: self)
        for rule in recurrenceRules {
            guard let ruleLast = Self.lastWall(of: rule, from: start) else {
                last = nil
                continue
            }
            last = last.map { max($0, ruleLast) }
        }
        for date in recurrenceDates {
            let wall = date.wallTime.localSeconds
            from = min(from, wall)
            last = last.map { max($0, wall) }
        }
        for period in recurrenceDateEnds {
            var instance = self
            instance.start = period.start
            instance.end = period.end
            longest = max(longest, Self.wallLength(of: instance))
        }
        for change in overrides {
            let moved = change.item.start.wallTime.localSeconds, id = change.recurrenceID.wallTime.localSeconds
            from = min(from, moved, id)
            // A this-and-future change moves every later instance by as much.
            let shift = change.thisAndFuture ? max(0, moved - id) : 0
            last = last.map { max($0, moved, id) + shift }
            longest = max(longest, Self.wallLength(of: change.item))
        }
        return (from - Self.reachMargin, last.map { $0 + longest + Self.reachMargin })
    }

    /// The length of one instance on the wall clock, at least 0: its end's
    /// reading less its start's, a duration's days and seconds, or a day for
    /// an all-day item with no end.
    private static func wallLength(of item: CalendarItem) -> Int64 {
        switch item.end {
        case .none: return item.start.isDate ? 86_400 : 0
        case .at(let end): return max(0, end.wallTime.localSeconds - item.start.wallTime.localSeconds)
        case .duration(let d):
            // Kept within iCalendar's 10,000 years, whatever a file wrote.
            let bound: Int64 = 10_000 * 366 * 86_400
            let days = min(max(Int64(d.days), 0), bound / 86_400), seconds = min(max(Int64(d.seconds), 0), bound)
            return min(days * 86_400 + seconds, bound)
        }
    }

    /// The wall reading of a rule's last start: its `UNTIL`, or its last
    /// occurrence by `COUNT` (walked, up to ``reachCountWalk``); `nil` when
    /// it has no end (or too many to walk).
    private static func lastWall(of rule: RecurrenceRule, from start: CalendarTime) -> Int64? {
        if let until = rule.until { return max(until.wallTime.localSeconds, start.wallTime.localSeconds) }
        guard let count = rule.count, count <= reachCountWalk else { return nil }
        var iterator = RuleIterator(rule: rule, start: start.wallTime, isDate: start.isDate)
        var last = start.wallTime.localSeconds
        while let next = iterator.next() { last = max(last, next) }
        return last
    }
}
