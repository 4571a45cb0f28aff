import CalendarCore
import Foundation

/// Dates the gym is closed, with why: a holiday, works, an absence.
///
/// While the gym is closed no class meets (every occurrence on those dates
/// reads as cancelled, ``ClassOccurrence/closure``), no place can be booked
/// and no session starts. Closing is ``SchedulingBook/close(_:now:)``; opening
/// again, ``SchedulingBook/open(from:through:)``.
///
/// ```swift
/// let christmas = try GymClosure(first: "2026-12-24", last: "2026-12-26", reason: "Christmas")
/// let report = try book.close(christmas)   // the members to tell, by occurrence
/// ```
public struct GymClosure: Hashable, Sendable, Codable, Comparable, CustomStringConvertible {
    /// The first date closed.
    public let first: LocalDate
    /// The last date closed (included).
    public let last: LocalDate
    /// Why, for the members who are told: "Christmas".
    public let reason: String

    /// The longest closure, in days: a year. A longer one is a typing
    /// mistake far more often than a gym shut for years, and a closure
    /// cancels every class of every day it covers.
    public static let longestDays = 366
    /// The longest reason, in characters.
    public static let longestReason = 255

    /// Creates a closure.
    /// - Parameters:
    ///   - first: the first date closed.
    ///   - last: the last date closed (the same as `first` for one day).
    ///   - reason: why, for the members.
    /// - Throws: ``SchedulingError/invalid(field:reason:)`` naming
    ///   ``SchedulingError/Field/closure`` for a range that ends before it
    ///   starts or is longer than ``longestDays``, and
    ///   ``SchedulingError/Field/reason`` for an empty reason or one longer
    ///   than ``longestReason``.
    public init(first: LocalDate, last: LocalDate, reason: String) throws(SchedulingError) {
        guard first <= last else {
            throw .invalid(field: .closure, reason: "\(first)..\(last) ends before it starts; write the earlier date first")
        }
        let days = first.days(to: last) + 1
        guard days <= Self.longestDays else {
            throw .invalid(field: .closure, reason: "\(first)..\(last) is \(days) days; close the gym for \(Self.longestDays) days at most at a time")
        }
        let reason = String(reason.trimmingSpaces)
        guard !reason.isEmpty else { throw .invalid(field: .reason, reason: "a closure needs a reason for the members, such as ‘Christmas’") }
        guard reason.count <= Self.longestReason else {
            throw .invalid(field: .reason, reason: "the reason is \(reason.count) characters; say it in \(Self.longestReason) at most")
        }
        guard !reason.contains(where: { $0.isNewline }) else { throw .invalid(field: .reason, reason: "the reason is one line; it holds a line break") }
        self.first = first
        self.last = last
        self.reason = reason
    }

    /// Whether the gym is closed on a date by this closure.
    public func contains(_ date: LocalDate) -> Bool { first <= date && date <= last }

    /// How many days it lasts.
    public var days: Int { first.days(to: last) + 1 }

    /// "2026-12-25" or "2026-12-24 to 2026-12-26".
    public var datesText: String { first == last ? "\(first)" : "\(first) to \(last)" }

    /// "2026-12-24 to 2026-12-26 (Christmas)".
    public var description: String { "\(datesText) (\(reason))" }

    /// Earlier closures first.
    public static func < (a: GymClosure, b: GymClosure) -> Bool { (a.first, a.last, a.reason) < (b.first, b.last, b.reason) }

    private enum CodingKeys: String, CodingKey { case first, last, reason }

    /// Decodes a closure, checking it as ``init(first:last:reason:)`` does.
    /// - Parameter decoder: the decoder.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        try self.init(first: c.decode(LocalDate.self, forKey: .first), last: c.decode(LocalDate.self, forKey: .last), reason: c.decode(String.self, forKey: .reason))
    }

    /// Encodes the closure.
    /// - Parameter encoder: the encoder.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(first, forKey: .first)
        try c.encode(last, forKey: .last)
        try c.encode(reason, forKey: .reason)
    }
}

/// What closing the gym did: the class occurrences it cancelled and the
/// members who held or waited for a place in them, so the gym can tell them.
public struct ClosureReport: Hashable, Sendable, Codable {
    /// The closure made.
    public var closure: GymClosure
    /// Every class occurrence that no longer meets, by date then class.
    public var cancelled: [ClassOccurrence.ID]
    /// The places released, by occurrence: who held one, who waited.
    public var affected: [AffectedBookings]

    /// Creates a report.
    /// - Parameters:
    ///   - closure: the closure made.
    ///   - cancelled: the occurrences it cancelled.
    ///   - affected: the places it released.
    public init(closure: GymClosure, cancelled: [ClassOccurrence.ID], affected: [AffectedBookings]) {
        self.closure = closure
        self.cancelled = cancelled
        self.affected = affected
    }

    /// Every member to tell, each once, in the order of the occurrences.
    public var members: [String] {
        var seen = Set<String>()
        return affected.flatMap { $0.confirmed + $0.waitlisted }.filter { seen.insert($0).inserted }
    }
}

extension GymClosure {
    /// Why closures in order cannot all be kept — two overlap (the
    /// timetable finds a date's closure by binary search) — or `nil`.
    package static func overlap(in sorted: [GymClosure]) -> String? {
        zip(sorted, sorted.dropFirst()).first { $1.first <= $0.last }.map { "the closures \($0) and \($1) overlap; give each closed date once" }
    }
}

extension ClassSeries {
    /// The dates a closure covers that the series meets on by its rule
    /// (moved or cancelled ones too), in order.
    package func meetingDates(in closure: GymClosure) -> [LocalDate] {
        // By day numbers: a closure may end on the last date a LocalDate holds.
        let first = max(closure.first, firstDate).dayNumber, last = min(closure.last.dayNumber, lastDate?.dayNumber ?? Int.max)
        guard first <= last else { return [] }
        return (first...last).lazy.map(LocalDate.init(dayNumber:)).filter(meets(on:))
    }
}

// MARK: - The timetable's closures

extension ClassTimetable {
    /// The closure covering a date, if any (the closures never overlap, and
    /// are kept in order: a binary search).
    package func closure(on date: LocalDate) -> GymClosure? {
        var low = 0, high = closureList.count
        while low < high {
            let mid = (low + high) / 2
            if closureList[mid].last < date { low = mid + 1 } else { high = mid }
        }
        return low < closureList.count && closureList[low].contains(date) ? closureList[low] : nil
    }

    /// Closes the gym: every occurrence meeting on those dates (or moved
    /// onto them) is cancelled and its places released.
    mutating func close(_ closure: GymClosure) throws(SchedulingError) -> ClosureReport {
        if let other = closureList.first(where: { $0.first <= closure.last && closure.first <= $0.last }) {
            throw .invalid(field: .closure, reason: "the gym is already closed \(other); open those dates first, or close others")
        }
        var gone: [ClassOccurrence.ID] = []
        for id in classesByID.keys.sorted() {
            guard var series = classesByID[id] else { continue }
            for day in series.meetingDates(in: closure) {
                switch series.changes[day] {
                case .moved(let to, _)? where !closure.contains(to.date):
                    continue  // it takes place elsewhere, on a day the gym is open
                case .cancelled?:
                    break
                default:
                    gone.append(.init(classID: id, date: day))
                }
                // The closure cancels it now; opening again gives the timetable back.
                series.changes[day] = nil
            }
            // One moved onto a closed date from another is cancelled for good.
            for (date, change) in series.changes where !closure.contains(date) {
                if case .moved(let to, _) = change, closure.contains(to.date) {
                    series.changes[date] = .cancelled
                    gone.append(.init(classID: id, date: date))
                }
            }
            classesByID[id] = series
        }
        let keys = Set(gone)
        let affected = removeRosters { keys.contains($0) }
        closureList.append(closure)
        closureList.sort()
        return ClosureReport(closure: closure, cancelled: gone.sorted(), affected: affected)
    }

    /// Opens the gym again on dates it was closed: the closures covering
    /// them end before or start after (a closure may be split in two).
    mutating func open(from first: LocalDate, through last: LocalDate) throws(SchedulingError) -> [GymClosure] {
        guard first <= last else { throw .invalid(field: .closure, reason: "\(first)..\(last) ends before it starts; write the earlier date first") }
        var opened: [GymClosure] = [], kept: [GymClosure] = []
        for c in closureList {
            guard c.first <= last, first <= c.last else {
                kept.append(c)
                continue
            }
            // Both parts are shorter than the closure, with its reason: they are valid.
            if c.first < first, let before = try? GymClosure(first: c.first, last: first.adding(days: -1), reason: c.reason) { kept.append(before) }
            if last < c.last, let after = try? GymClosure(first: last.adding(days: 1), last: c.last, reason: c.reason) { kept.append(after) }
            if let part = try? GymClosure(first: max(first, c.first), last: min(last, c.last), reason: c.reason) { opened.append(part) }
        }
        guard !opened.isEmpty else {
            throw .invalid(field: .closure, reason: "the gym is not closed on any date from \(first) to \(last)")
        }
        closureList = kept.sorted()
        return opened
    }

    /// Sets the closures as read from a calendar: the cancellations a
    /// closure stands for (its dates' `EXDATE`s) are the closure's, not
    /// each occurrence's, so they go, and opening again gives them back.
    mutating func restoreClosures(_ closures: [GymClosure]) {
        closureList = closures.sorted()
        guard !closureList.isEmpty else { return }
        for (id, series) in classesByID {
            let closed = series.changes.filter { $0.value == .cancelled && closure(on: $0.key) != nil }.map(\.key)
            for date in closed { classesByID[id]?.changes[date] = nil }
        }
        // A place in a closed occurrence (a file or JSON edited by hand, another client's attendee) is not kept.
        let closed = Set(rosters.keys.filter { key in classesByID[key.classID].map { closure(of: $0, on: key.date) != nil } ?? false })
        _ = removeRosters { closed.contains($0) }
    }

    /// The closure an occurrence falls in: by the date it takes place on
    /// (after a move), so one moved off a closed date meets, and none is
    /// moved onto one (``SchedulingBook/moveOccurrence(classID:on:to:duration:)`` refuses).
    func closure(of series: ClassSeries, on date: LocalDate) -> GymClosure? {
        if case .moved(let to, _)? = series.changes[date] { return closure(on: to.date) }
        return closure(on: date)
    }
}

// MARK: - The book's calls

extension SchedulingBook {
    /// The dates the gym is closed, earliest first.
    public var closures: [GymClosure] { classTimetable.closureList }

    /// The closure covering a date, if the gym is closed then.
    /// - Parameter date: a date on the book's clocks.
    public func closure(on date: LocalDate) -> GymClosure? { classTimetable.closure(on: date) }

    /// Closes the gym on some dates: every class occurrence on them is
    /// cancelled and its places (held and waiting) are released, and no
    /// place can be booked, no occurrence moved there and no session
    /// started there until it opens again.
    ///
    /// Sessions already booked on those dates stay: a coach may train a
    /// client elsewhere; ``sessions(coach:client:)`` still lists them.
    /// With `now`, a closure must start today or later on the book's
    /// clocks, and today only while no class has met yet: one over days gone
    /// by would cancel classes that took place and release the places
    /// members held at them, their history.
    /// - Parameters:
    ///   - closure: the dates and the reason.
    ///   - now: the time of the request; `nil` takes any dates (a book being restored).
    /// - Returns: the occurrences cancelled and the members to tell.
    /// - Throws: ``SchedulingError/invalid(field:reason:)`` for dates that
    ///   are closed already (open them first), or that have passed.
    @discardableResult
    public mutating func close(_ closure: GymClosure, now: Date? = nil) throws(SchedulingError) -> ClosureReport {
        if let now {
            let today = wall(Self.seconds(now)).date
            guard closure.first >= today else {
                throw .invalid(field: .closure, reason: "\(closure.first) has passed (today is \(today) on the gym's clocks): close from today on, so the classes that took place keep who came")
            }
            // Today only if no class has met yet: a closure takes the whole day.
            if closure.first == today {
                let started = classTimetable.classesByID.keys.sorted().compactMap { id in try? occurrence(classID: id, on: today) }
                    .filter { !$0.isCancelled && $0.start.date == today && $0.startSeconds <= Self.seconds(now) }
                if let first = started.min(by: { $0.startSeconds < $1.startSeconds }) {
                    throw .invalid(field: .closure, reason: "\(first.title) met today already at \(String(format: "%02d:%02d", first.start.hour, first.start.minute)) and keeps who came: close from tomorrow, \(today.adding(days: 1)), and cancel today's later classes one by one")
                }
            }
        }
        return try classTimetable.close(closure)
    }

    /// Opens the gym again on dates it was closed: the classes meet on them
    /// as the timetable says; the places released when it closed are not
    /// given back (the members were told, and may have made other plans).
    /// - Parameters:
    ///   - first: the first date to open.
    ///   - last: the last date to open (included).
    /// - Returns: the closed dates opened, with their reasons.
    /// - Throws: ``SchedulingError/invalid(field:reason:)`` when the gym is
    ///   not closed on any of those dates, or for a range that ends before it starts.
    @discardableResult
    public mutating func open(from first: LocalDate, through last: LocalDate) throws(SchedulingError) -> [GymClosure] {
        try classTimetable.open(from: first, through: last)
    }

    /// Sets the closures a calendar records (SchedulingICalendar reads them).
    package mutating func restoreClosures(_ closures: [GymClosure]) { classTimetable.restoreClosures(closures) }

    /// Refuses what would meet on a closed date.
    func checkOpen(_ what: String, on date: LocalDate) throws(SchedulingError) {
        if let c = closure(on: date) { throw .gymClosed(what: what, date: date, closure: c) }
    }
}

// MARK: - Opening hours

extension SchedulingBook {
    /// Sets the gym's opening hours (`nil`, or hours with no day, for no
    /// limit), refusing hours that would leave outside them anything still to
    /// come: a class on one of its weekdays (one whose last date is not before
    /// `now`'s date), an occurrence moved to `now`'s date or later, a
    /// scheduled session that starts at or after `now`. Nothing changes when
    /// it is refused; move, end or cancel those first. (What took place
    /// before `now` is history, and never refuses new hours.)
    ///
    /// - Parameters:
    ///   - hours: the new hours.
    ///   - now: the time of the request.
    /// - Throws: ``SchedulingError/invalid(field:reason:)`` (field
    ///   `openingHours`), naming each class, moved occurrence and session
    ///   outside the new hours and when it meets.
    public mutating func setOpeningHours(_ hours: WorkingHours?, now: Date) throws(SchedulingError) {
        var candidate = self
        candidate.openingHours = hours
        let nowSeconds = Self.seconds(now)
        let today = wall(nowSeconds).date
        var outside: [String] = []
        func keep(_ check: () throws(SchedulingError) -> Void) {
            do { try check() } catch {
                guard case .outsideOpeningHours(let what, let when, let start, let end, _) = error else { return outside.append(error.description) }
                outside.append("\(what) \(when) from \(start) to \(end)")
            }
        }
        for series in classTimetable.classes where series.lastDate.map({ $0 >= today }) ?? true {
            keep { () throws(SchedulingError) in try candidate.checkOpeningHours(of: series) }
            for (_, change) in series.changes.sorted(by: { $0.key < $1.key }) {
                guard case .moved(let start, let length) = change, start.date >= today else { continue }
                keep { () throws(SchedulingError) in try candidate.checkOpeningHours("\(series.title) (moved)", at: start, for: length) }
            }
        }
        let sessions = coachSessions.sessionsByID.values.filter { $0.status == .scheduled && instant(of: $0) >= nowSeconds }
        for session in sessions.sorted(by: { ($0.start, $0.id) < ($1.start, $1.id) }) {
            keep { () throws(SchedulingError) in try candidate.checkOpeningHours("session ‘\(session.id)’", at: session.start, for: session.duration) }
        }
        guard outside.isEmpty else {
            let shown = outside.prefix(10).joined(separator: "; ") + (outside.count > 10 ? "; and \(outside.count - 10) more" : "")
            throw .invalid(field: .openingHours, reason: "these would fall outside the new hours: \(shown); move, end or cancel them first, or choose hours that hold them")
        }
        openingHours = hours
    }

    /// Refuses a session or moved occurrence outside the gym's opening
    /// hours on its date (its weekday's, or the date's own). Its end is
    /// read on the clock at its last instant, so a day the clocks change
    /// counts the hour it gains or loses; it may run into the next day where
    /// the gym is open through midnight.
    func checkOpeningHours(_ what: String, at start: LocalDateTime, for length: Duration) throws(SchedulingError) {
        guard let openingHours, !openingHours.isUnset else { return }
        let date = start.date
        let from = Int((start.localSeconds - Int64(start.date.dayNumber) * 86_400) / 60)
        let endWall = wall(instant(start) + length.components.seconds)
        let end = Int((endWall.localSeconds - Int64(date.dayNumber) * 86_400) / 60)
        try Self.fit(what, when: "on \(date)", from: from, to: end, openingHours.hours(on: date), next: openingHours.hours(on: date.adding(days: 1)))
    }

    /// Refuses a class that meets, on any of its weekdays, outside the
    /// gym's weekly opening hours. A date's own hours bound what is booked
    /// on that date — sessions and moved occurrences —; a class meets by the
    /// week's (close the gym, or move or cancel the occurrence, for a day it cannot).
    func checkOpeningHours(of series: ClassSeries) throws(SchedulingError) {
        guard let openingHours, !openingHours.isUnset else { return }
        for day in series.weekdays {
            let next = Weekday.allCases[(day.rawValue + 1) % 7]
            try Self.fit(series.title, when: "on \(day.name)s", from: series.time.minutes, to: series.time.minutes + series.duration.wholeMinutes,
                         openingHours.weekly[day] ?? [], next: openingHours.weekly[next] ?? [])
        }
    }

    /// Whether minutes `from`..`to` of a day (`to` past 1440 runs into the
    /// next) lie in one of `hours`, continued at midnight into one of `next`.
    private static func fit(_ what: String, when: String, from: Int, to end: Int, _ hours: [TimeRange], next: [TimeRange]) throws(SchedulingError) {
        let inside = hours.contains { range in
            guard range.start.minutes <= from else { return false }
            if end <= range.end.minutes { return true }
            // Open through midnight, and from midnight the next day long enough.
            return range.end.minutes == 1440 && next.contains { $0.start.minutes == 0 && end - 1440 <= $0.end.minutes }
        }
        guard !inside else { return }
        let clock = { (m: Int) in (try? TimeOfDay(hour: m / 60, minute: m % 60))?.description ?? "the next day" }
        throw .outsideOpeningHours(what: what, when: when, start: clock(from), end: end > 1440 ? "\(clock(end - 1440)) the next day" : clock(end), hours: hours)
    }
}
