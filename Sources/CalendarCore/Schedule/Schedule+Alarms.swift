import Foundation

/// One moment an alarm goes off: which alarm, for which occurrence.
public struct AlarmInstant: Hashable, Sendable {
    /// When it goes off.
    public let time: Date
    /// The occurrence it reminds of (for an absolute trigger on a series,
    /// the series: its `UID` and no recurrence ID).
    public let occurrence: Occurrence.ID
    /// When that occurrence starts, in its own kind of time (the item's
    /// start for an absolute trigger).
    public let occurrenceStart: CalendarTime
    /// When that occurrence ends (a task's due time).
    public let occurrenceEnd: CalendarTime
    /// Whether it reminds of an event or a task.
    public let kind: CalendarItem.Kind
    /// The title of the item (or changed instance) it reminds of.
    public let title: String
    /// The alarm.
    public let alarm: Alarm
    /// 0 for the first time it goes off, then 1, 2… for each `REPEAT`.
    public let repetition: Int
    /// Whether the alarm is one of the calendar's defaults rather than the item's own.
    public let isDefault: Bool
}

/// What an alarm query found: the moments alarms go off, and the alarms
/// that cannot go off, each named with its item.
public struct AlarmReport: Sendable {
    /// An alarm that cannot go off, with its item; the item's other alarms
    /// still ring. The reason says which property is wrong.
    public struct Problem: Hashable, Sendable {
        /// The item's `UID`.
        public let uid: String
        /// Its title.
        public let title: String
        /// What is wrong.
        public let error: AlarmError
    }

    /// Every moment an alarm goes off in the window, by time (then by the
    /// occurrence's start, `UID` and repetition).
    public let instants: [AlarmInstant]
    /// The alarms that cannot go off, by their item's `UID`, then in file order.
    public let problems: [Problem]
    /// Whether more than ``Schedule/alarmLimit`` alarms go off in the
    /// window: the query stopped there, and ``instants`` is not all of them
    /// (ask for a shorter window).
    public let limitReached: Bool

    init(instants: [AlarmInstant], problems: [Problem], limitReached: Bool = false) {
        self.instants = instants
        self.problems = problems
        self.limitReached = limitReached
    }
}

extension Schedule {
    /// The most alarm instants one query gathers: a minutely event that
    /// repeats its alarm a thousand times rings ten million times a week,
    /// gigabytes of answer, where no person or app wants more than this.
    public static let alarmLimit = 100_000

    /// Every moment an alarm goes off in `[from, to)`: the items' own
    /// `VALARM`s, and `defaults` for every occurrence that has none.
    ///
    /// ```swift
    /// let hourBefore = try Alarm(.before(.hours(1)), message: "Class in an hour")
    /// let report = schedule.alarms(from: monday, to: nextMonday, defaults: [hourBefore])
    /// for a in report.instants { print(a.time, a.title) }
    /// ```
    ///
    /// - An alarm counted from an occurrence's start or end goes off for
    ///   every occurrence (RFC 5545 §3.8.6.3), at the offset counted as
    ///   ``Alarm`` describes (hours exact, days on the clock); an absolute
    ///   trigger goes off once, for the series.
    /// - A changed instance (`RECURRENCE-ID`) has its own alarms, as it has
    ///   its own properties (RFC 5545 §3.8.4.4: the override replaces the
    ///   instance): a moved class rings at its new time, and a changed
    ///   instance written without a `VALARM` rings for none but the defaults.
    /// - Nothing rings for an excluded date (`EXDATE`), a cancelled item or
    ///   instance (`STATUS:CANCELLED`), or a task already done: what
    ///   ``CalendarItem/counts`` leaves out.
    /// - A `VALARM` that cannot go off (no `TRIGGER`, one more than a year
    ///   away, `REPEAT` without `DURATION`, counted from a start a task does
    ///   not have) is not guessed at: it is in ``AlarmReport/problems`` with
    ///   the reason, and its item's other alarms ring.
    /// - A default alarm beyond the limits (its fields are the caller's to
    ///   set) rings for nobody: it is in ``AlarmReport/problems`` with an
    ///   empty `uid`.
    /// - More than ``alarmLimit`` in the window stop the query:
    ///   ``AlarmReport/limitReached`` says so.
    ///
    /// - Parameters:
    ///   - from: the start of the window.
    ///   - to: its end (exclusive).
    ///   - floatingZone: the zone all-day and floating times are read in (the viewer's); by default the schedule's own zone (``timeZone``), else the machine's (`ZoneRules.current`).
    ///   - defaults: alarms for every occurrence with none of its own (a
    ///     calendar's default reminder, as CalDAV's
    ///     `default-alarm-vevent-datetime` of RFC 9074's era).
    /// - Complexity: O(n) over the items for their absolute alarms and the
    ///   window's reach, plus the occurrences in the window widened by the
    ///   furthest alarm's offset.
    public func alarms(from: Date, to: Date, floatingZone: ZoneRules? = nil, defaults: [Alarm] = []) -> AlarmReport {
        let floatingZone = readingZone(floatingZone)
        let a = from.clampedEpochSeconds
        let b = to.clampedEpochSecondsRoundedUp
        guard b > a else { return AlarmReport(instants: [], problems: []) }
        var problems: [AlarmReport.Problem] = []
        var found: [AlarmInstant] = []
        var reach = AlarmReach()
        // A default beyond the limits rings for nobody: said, with no item's UID.
        let defaults = defaults.filter { alarm in
            guard let bad = alarm.fieldProblem else { return true }
            problems.append(.init(uid: "", title: "", error: bad))
            return false
        }
        for alarm in defaults { reach.include(alarm) }
        // One pass over the items: their reach, and the absolute alarms,
        // which ring once wherever the series' occurrences are.
        for item in items {
            for (one, recurrenceID) in [(item, CalendarTime?.none)] + item.overrides.map({ ($0.item, $0.recurrenceID) }) where one.hasAlarms {
                let (alarms, bad) = one.readAlarms()
                for error in bad where !problems.contains(where: { $0.uid == item.uid && $0.error == error }) {
                    problems.append(.init(uid: item.uid, title: one.title, error: error))
                }
                for alarm in alarms {
                    reach.include(alarm)
                    guard case .absolute(let time) = alarm.trigger, one.counts else { continue }
                    let t: Int64
                    do throws(TimeValueError) { t = try time.epochSeconds(floatingZone: floatingZone, zones: zones) } catch {
                        // Its own time on a zone nothing defines: it cannot go off, and says why.
                        let never = AlarmError(.malformedTrigger, property: nil, "the alarm's time \(time) cannot be placed: \(error.message)")
                        if !problems.contains(where: { $0.uid == item.uid && $0.error == never }) { problems.append(.init(uid: item.uid, title: one.title, error: never)) }
                        continue
                    }
                    ring(alarm, from: t, zone: .utc, within: a..<b) { t, k in
                        found.append(AlarmInstant(time: Date(timeIntervalSince1970: TimeInterval(t)), occurrence: Occurrence.ID(uid: item.uid, recurrenceID: recurrenceID),
                                                  occurrenceStart: one.start, occurrenceEnd: one.start, kind: one.kind, title: one.title, alarm: alarm, repetition: k, isDefault: false))
                    }
                }
            }
        }
        guard reach.any else { return report(found, problems) }
        // The occurrences whose alarms can fall in the window.
        let wideFrom = Date(timeIntervalSince1970: TimeInterval(a - reach.after - 1))
        let wideTo = Date(timeIntervalSince1970: TimeInterval(b + reach.before + 1))
        for o in occurrenceSequence(from: wideFrom, to: wideTo, floatingZone: floatingZone) where o.item.counts {
            if found.count > Self.alarmLimit { return AlarmReport(instants: [], problems: problems.sorted { $0.uid < $1.uid }, limitReached: true) }
            var own: [Alarm] = []
            if o.item.hasAlarms {
                own = o.item.readAlarms().alarms  // the others are reported by the pass above
                // An item whose every alarm is bad rings neither its own nor the defaults.
                if own.isEmpty { continue }
            }
            let isDefault = own.isEmpty
            for alarm in isDefault ? defaults : own {
                guard case .relative(let offset, let edge) = alarm.trigger else { continue }
                let (base, baseSeconds) = edge == .start ? (o.start, o.startSeconds) : (o.end, o.endSeconds)
                let zone = clockZone(of: base, floatingZone)
                let first = Self.advance(baseSeconds, by: offset, on: zone)
                ring(alarm, from: first, zone: zone, within: a..<b) { t, k in
                    found.append(AlarmInstant(time: Date(timeIntervalSince1970: TimeInterval(t)), occurrence: o.id, occurrenceStart: o.start,
                                              occurrenceEnd: o.end, kind: o.item.kind, title: o.item.title, alarm: alarm, repetition: k, isDefault: isDefault))
                }
            }
        }
        return report(found, problems)
    }

    /// ``alarms(from:to:floatingZone:defaults:)`` over a `DateInterval`.
    public func alarms(in window: DateInterval, floatingZone: ZoneRules? = nil, defaults: [Alarm] = []) -> AlarmReport {
        alarms(from: window.start, to: window.end, floatingZone: floatingZone, defaults: defaults)
    }

    private func report(_ found: [AlarmInstant], _ problems: [AlarmReport.Problem]) -> AlarmReport {
        let sorted = found.sorted { x, y in
            if x.time != y.time { return x.time < y.time }
            if x.occurrenceStart != y.occurrenceStart { return x.occurrenceStart.wallTime < y.occurrenceStart.wallTime }
            if x.occurrence.uid != y.occurrence.uid { return x.occurrence.uid < y.occurrence.uid }
            return x.repetition < y.repetition
        }
        if sorted.count > Self.alarmLimit { return AlarmReport(instants: [], problems: problems.sorted { $0.uid < $1.uid }, limitReached: true) }
        return AlarmReport(instants: sorted, problems: problems.sorted { $0.uid < $1.uid })
    }

    /// The clock a time's nominal days are counted on: its zone, the
    /// viewer's for a date or floating time, none (UTC) for UTC.
    private func clockZone(of time: CalendarTime, _ floatingZone: ZoneRules) -> ZoneRules {
        switch time {
        case .utc: .utc
        case .date, .floating: floatingZone
        case .zoned(_, let id): (try? zones.rules(forTZID: id)) ?? .utc
        }
    }

    /// `t` moved by `offset`: its days on `zone`'s clock (the same wall
    /// time, `days` dates away), then its seconds exactly (RFC 5545 §3.3.6).
    static func advance(_ t: Int64, by offset: Alarm.Offset, on zone: ZoneRules) -> Int64 {
        guard offset.days != 0 else { return t + Int64(offset.seconds) }
        let wall = zone.wall(atInstant: t) + Int64(offset.days) * 86_400
        return zone.instant(forWall: wall) + Int64(offset.seconds)
    }

    /// Calls `body` with each time an alarm goes off within `window`, and
    /// which repetition it is. Repetitions only go later: none is counted
    /// past the window's end, and an alarm whose last repetition (with a day
    /// to spare for nominal days) ends before the window starts is not
    /// counted at all, so an occurrence far from the window costs nothing
    /// however often its alarm repeats.
    private func ring(_ alarm: Alarm, from first: Int64, zone: ZoneRules, within window: Range<Int64>, _ body: (Int64, Int) -> Void) {
        guard first < window.upperBound else { return }
        if first >= window.lowerBound { body(first, 0) }
        guard let interval = alarm.repeatInterval, alarm.repeatCount > 0 else { return }
        let (span, overflow) = Int64(alarm.repeatCount).multipliedReportingOverflow(by: max(interval.roughSeconds, 0))
        if !overflow, first.addingReportingOverflow(span).partialValue + 86_400 < window.lowerBound { return }
        var t = first
        for k in 1...alarm.repeatCount {
            t = Self.advance(t, by: interval, on: zone)
            if t >= window.upperBound { return }
            if t >= window.lowerBound { body(t, k) }
        }
    }
}

/// How far before and after its occurrence any alarm can ring, in seconds,
/// with a day to spare for nominal days across clock changes.
private struct AlarmReach {
    var before: Int64 = 0
    var after: Int64 = 0
    var any = false

    mutating func include(_ alarm: Alarm) {
        guard case .relative(let offset, _) = alarm.trigger else { return }
        any = true
        let first = offset.roughSeconds
        let last = first + Int64(alarm.repeatCount) * (alarm.repeatInterval?.roughSeconds ?? 0)
        before = max(before, -min(first, 0) + 86_400)
        after = max(after, max(last, 0) + 86_400)
    }
}
