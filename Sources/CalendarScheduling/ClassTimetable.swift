import CalendarCore
import Foundation

/// The weekly classes with their rosters: each series and its occurrences,
/// the moved and cancelled ones, and who holds a place in each and who waits.
///
/// One aspect of a ``SchedulingBook`` (``SchedulingBook/classTimetable``),
/// read through it; the book changes it, after checking the members a
/// booking names. Bookings belong to an occurrence's date by its series,
/// not its time, so they survive a moved occurrence or a new time.
package struct ClassTimetable: Sendable {
    /// The clocks the classes' wall times are on.
    let zone: ZoneRules
    package internal(set) var classesByID: [String: ClassSeries] = [:]
    package internal(set) var rosters: [ClassOccurrence.ID: Roster] = [:]
    /// Per member, the occurrences they hold a place in or wait for.
    package internal(set) var occurrencesByMember: [String: Set<ClassOccurrence.ID>] = [:]
    /// The dates the gym is closed, in order, none overlapping (Closures.swift).
    package internal(set) var closureList: [GymClosure] = []
    /// Per class, the highest `SEQUENCE` its members were told of an
    /// occurrence whose own number has nowhere to live: one cancelled,
    /// closed, or no longer on the class's dates. Every later message about
    /// any occurrence of the class is numbered above it, so a member told
    /// "closed" (SEQUENCE:2) who books the date again once it reopens is
    /// not sent a SEQUENCE:1 their calendar would ignore as out of date
    /// (RFC 5546 §2.1.5). In a calendar it is the series' own `SEQUENCE`,
    /// which RFC 5545 §3.8.7.4 raises anyway when its `EXDATE`s change.
    package internal(set) var seriesSequence: [String: Int] = [:]

    init(zone: ZoneRules) { self.zone = zone }
}

// MARK: - Reading

extension ClassTimetable {
    /// Every class series, by ID.
    package var classes: [ClassSeries] { classesByID.values.sorted { $0.id < $1.id } }

    /// A class series.
    /// - Parameter id: the class.
    /// - Throws: ``SchedulingError/unknownClass(_:)``.
    package func classSeries(_ id: String) throws(SchedulingError) -> ClassSeries {
        guard let c = classesByID[id] else { throw .unknownClass(id) }
        return c
    }

    /// The weekly timetable, Monday to Sunday, each day's classes by time.
    package var weekly: [TimetableDay] {
        Weekday.allCases.map { day in
            TimetableDay(weekday: day, classes: classesByID.values.filter { $0.weekdays.contains(day) }.sorted { ($0.time, $0.title, $0.id) < ($1.time, $1.title, $1.id) })
        }
    }

    /// One occurrence with its places.
    /// - Parameters:
    ///   - classID: the class.
    ///   - date: the occurrence's date by the series.
    /// - Throws: ``SchedulingError/unknownClass(_:)``, ``SchedulingError/notAnOccurrence(classID:title:date:meets:)``.
    package func occurrence(classID: String, on date: LocalDate) throws(SchedulingError) -> ClassOccurrence {
        try occurrence(occurrenceKey(classID, date))
    }

    /// The occurrences of every class (or one) between two dates, both
    /// included, cancelled ones too, by start.
    /// - Parameters:
    ///   - classID: the class, or `nil` for every class.
    ///   - first: the first date.
    ///   - last: the last date (included).
    package func occurrences(classID: String? = nil, from first: LocalDate, through last: LocalDate) -> [ClassOccurrence] {
        let series = classID.map { classesByID[$0].map { [$0] } ?? [] } ?? Array(classesByID.values)
        var found: [ClassOccurrence] = []
        for s in series {
            var day = max(first, s.firstDate).dayNumber
            let end = min(last, s.lastDate ?? last).dayNumber
            while day <= end {
                let date = LocalDate(dayNumber: day)
                if s.weekdays.contains(date.weekday) { found.append(makeOccurrence(s, date)) }
                day += 1
            }
        }
        return found.sorted { ($0.startSeconds, $0.id) < ($1.startSeconds, $1.id) }
    }

    /// The key of a class's occurrence on a date it meets.
    package func occurrenceKey(_ classID: String, _ date: LocalDate) throws(SchedulingError) -> ClassOccurrence.ID {
        let s = try classSeries(classID)
        if s.meets(on: date) { return ClassOccurrence.ID(classID: classID, date: date) }
        // A class changed from a date on keeps its ID for the dates before: its earlier part holds them (issue 41, 1).
        if let part = classesByID.values.first(where: { $0.partOf == classID && $0.meets(on: date) }) {
            return ClassOccurrence.ID(classID: part.id, date: date)
        }
        throw .notAnOccurrence(classID: classID, title: s.title, date: date, meets: s.meetingText)
    }

    func occurrence(_ key: ClassOccurrence.ID) throws(SchedulingError) -> ClassOccurrence {
        makeOccurrence(try classSeries(key.classID), key.date)
    }

    func makeOccurrence(_ s: ClassSeries, _ date: LocalDate) -> ClassOccurrence {
        var start = s.time.on(date), duration = s.duration, cancelled = false, moved = false
        let closed = closure(of: s, on: date)
        switch closed == nil ? s.changes[date] : .cancelled {
        case .cancelled: cancelled = true
        case .moved(let to, let m):
            start = to
            duration = m
            moved = true
        case nil: break
        }
        let roster = rosters[ClassOccurrence.ID(classID: s.id, date: date)]
        return ClassOccurrence(
            id: .init(classID: s.id, date: date), title: s.title, start: start, duration: duration, startSeconds: zone.instant(start),
            isCancelled: cancelled, isMoved: moved, capacity: s.capacity, booked: roster?.confirmed.count ?? 0, waiting: roster?.waitlist.count ?? 0,
            closure: closed)
    }

    /// Another occurrence of the same class, not cancelled, whose time
    /// overlaps `start` for `length`: moved there, one occurrence would lie
    /// on another, and a member booked on both would hold two places at one
    /// time (issue 28, 16).
    private func occurrenceOverlapping(classID: String, besides date: LocalDate, start: LocalDateTime, length: Duration) throws(SchedulingError) -> ClassOccurrence? {
        let series = try classSeries(classID)
        let from = zone.instant(start), to = from + Int64(length.wholeMinutes) * 60
        // The occurrences that meet within a day of the new time (a class
        // lasts a day at most), and every moved one, wherever it went.
        var dates = Set(series.changes.keys)
        for day in (start.date.dayNumber - 1)...(start.date.dayNumber + 1) {
            let d = LocalDate(dayNumber: day)
            if series.meets(on: d) { dates.insert(d) }
        }
        dates.remove(date)
        return dates.sorted().lazy.map { self.makeOccurrence(series, $0) }.first { o in
            guard !o.isCancelled, series.meets(on: o.id.date) else { return false }
            let end = o.startSeconds + Int64(o.duration.wholeMinutes) * 60
            return o.startSeconds < to && from < end
        }
    }
}

// MARK: - Changing the series

extension ClassTimetable {
    mutating func addClass(_ series: ClassSeries) throws(SchedulingError) {
        try SchedulingBook.checkID(series.id, "class")
        guard classesByID[series.id] == nil else { throw .duplicateID(series.id, kind: "class") }
        classesByID[series.id] = try Self.normalised(series)
    }

    mutating func updateClass(_ series: ClassSeries) throws(SchedulingError) -> [AffectedBookings] {
        guard classesByID[series.id] != nil else { throw .unknownClass(series.id) }
        var series = series
        series.changes = series.changes.filter { series.meets(on: $0.key) }
        let new = try Self.normalised(series)
        classesByID[series.id] = new
        return removeRosters { $0.classID == new.id && !new.meets(on: $0.date) }
    }

    mutating func deleteClass(_ id: String) throws(SchedulingError) -> [AffectedBookings] {
        guard classesByID.removeValue(forKey: id) != nil else { throw .unknownClass(id) }
        seriesSequence[id] = nil  // a calendar has no series left to hold it
        return removeRosters { $0.classID == id }
    }

    mutating func cancelOccurrence(classID: String, on date: LocalDate) throws(SchedulingError) -> AffectedBookings {
        let key = try occurrenceKey(classID, date)
        let series = try classSeries(key.classID)
        if let c = closure(of: series, on: date) { throw .gymClosed(what: series.title, date: date, closure: c) }
        classesByID[key.classID]?.changes[date] = .cancelled
        let removed = removeRosters { $0 == key }
        return removed.first ?? AffectedBookings(occurrence: key, confirmed: [], waitlisted: [])
    }

    mutating func moveOccurrence(classID: String, on date: LocalDate, to start: LocalDateTime, duration: Duration?) throws(SchedulingError) -> ClassOccurrence {
        let key = try occurrenceKey(classID, date)
        let title = try classSeries(key.classID).title
        // Onto a closed date, never; off one (a class moved out of a closure), as any move.
        if let c = closure(on: start.date) { throw .gymClosed(what: title, date: start.date, closure: c) }
        let length = duration ?? classesByID[key.classID]?.duration ?? .zero
        try SchedulingBook.checkLength(length, "a class")
        if let other = try occurrenceOverlapping(classID: key.classID, besides: date, start: start, length: length) {
            throw .occurrenceOverlaps(classID: classID, title: other.title, date: date, other: other.id.date, otherStart: other.start, otherDuration: other.duration)
        }
        classesByID[key.classID]?.changes[date] = .moved(to: start, duration: length)
        return try occurrence(key)
    }

    /// Checks a series and narrows its dates to the first and last meetings.
    static func normalised(_ series: ClassSeries) throws(SchedulingError) -> ClassSeries {
        var s = series
        try s.validate()
        let limit = s.firstDate.dayNumber + 7
        guard let first = (s.firstDate.dayNumber..<limit).first(where: { s.weekdays.contains(Self.weekday($0)) }),
            s.lastDate.map({ first <= $0.dayNumber }) ?? true
        else {
            throw .invalid(field: .lastDate, reason: "\(s.title) never meets between \(s.firstDate) and \(s.lastDate.map(String.init(describing:)) ?? "")")
        }
        s.firstDate = LocalDate(dayNumber: first)
        if let last = s.lastDate, let meet = (last.dayNumber - 6...last.dayNumber).reversed().first(where: { s.weekdays.contains(Self.weekday($0)) }) {
            s.lastDate = LocalDate(dayNumber: meet)
        }
        return s
    }

    static func weekday(_ dayNumber: Int) -> Weekday { LocalDate(dayNumber: dayNumber).weekday }

    /// Raises a class's ``seriesSequence`` to at least `sequence` (a class
    /// the timetable does not hold has none).
    package mutating func raiseSeriesSequence(_ sequence: Int, of classID: String) {
        guard sequence > 0, classesByID[classID] != nil else { return }
        seriesSequence[classID] = max(seriesSequence[classID] ?? 0, sequence)
    }

    /// Removes the rosters whose occurrence matches, reporting them by
    /// date; the sequence each was told at passes to its class (``seriesSequence``).
    mutating func removeRosters(where gone: (ClassOccurrence.ID) -> Bool) -> [AffectedBookings] {
        let keys = rosters.keys.filter(gone).sorted()
        var affected: [AffectedBookings] = []
        for key in keys {
            guard let roster = rosters.removeValue(forKey: key) else { continue }
            raiseSeriesSequence(roster.sequence, of: key.classID)
            for m in roster.confirmed + roster.waitlist { occurrencesByMember[m]?.remove(key) }
            if roster.hasMembers { affected.append(AffectedBookings(occurrence: key, confirmed: roster.confirmed, waitlisted: roster.waitlist)) }
        }
        return affected
    }
}

// MARK: - The book's calls on its timetable, forwarded

extension SchedulingBook {
    /// Every class series, by ID.
    public var classes: [ClassSeries] { classTimetable.classes }

    /// A class series.
    /// - Parameter id: the class.
    /// - Throws: ``SchedulingError/unknownClass(_:)``.
    public func classSeries(_ id: String) throws(SchedulingError) -> ClassSeries { try classTimetable.classSeries(id) }

    /// Adds a class series to the timetable.
    ///
    /// Its first and last dates are narrowed to the first and last dates it
    /// meets, so that the series reads the same back from iCalendar (where
    /// the first meeting is the `DTSTART`).
    /// - Parameter series: the class.
    /// - Throws: ``SchedulingError`` for a taken ID, or a series that never
    ///   meets, has no title, no weekday, no places, an impossible length or
    ///   a colour of the red family (which marks days with several items).
    public mutating func addClass(_ series: ClassSeries) throws(SchedulingError) {
        try Self.checkColor(series.color)
        try checkOpeningHours(of: series)
        try classTimetable.addClass(series)
    }

    /// Replaces a series (a new time, other weekdays, fewer places…).
    ///
    /// Bookings belong to an occurrence's original date, so they survive a
    /// new time or length. Bookings of dates the series no longer meets on
    /// are removed and returned, so that the members can be told; changes to
    /// such dates are dropped. A smaller capacity keeps every place already
    /// taken and refuses new bookings until the class is below it.
    /// - Parameter series: the class's new record (by its ID).
    /// - Returns: the bookings that lost their occurrence, by date.
    /// - Throws: ``SchedulingError/unknownClass(_:)``, or a series the book cannot take.
    @discardableResult
    public mutating func updateClass(_ series: ClassSeries) throws(SchedulingError) -> [AffectedBookings] {
        let old = try classSeries(series.id)
        if series.color != old.color { try Self.checkColor(series.color) }
        // The gym's hours and closures bound what changes, as for a new class or a move; what stays as it was is kept.
        if (series.time, series.duration, series.weekdays) != (old.time, old.duration, old.weekdays) { try checkOpeningHours(of: series) }
        for (date, change) in series.changes.sorted(by: { $0.key < $1.key }) where change != old.changes[date] {
            guard case .moved(let to, let length) = change else { continue }
            if let c = closure(on: to.date) { throw .gymClosed(what: series.title, date: to.date, closure: c) }
            try checkOpeningHours(series.title, at: to, for: length)
        }
        return try classTimetable.updateClass(series)
    }

    /// Removes a series from the timetable.
    /// - Parameter id: the class.
    /// - Returns: the bookings it had, by date.
    /// - Throws: ``SchedulingError/unknownClass(_:)``.
    @discardableResult
    public mutating func deleteClass(_ id: String) throws(SchedulingError) -> [AffectedBookings] { try classTimetable.deleteClass(id) }

    /// Cancels one occurrence; its bookings and waitlist are removed.
    /// - Parameters:
    ///   - classID: the class.
    ///   - date: the occurrence's date by the series.
    /// - Returns: the members who held a place or waited.
    /// - Throws: ``SchedulingError/notAnOccurrence(classID:title:date:meets:)`` and the like.
    @discardableResult
    public mutating func cancelOccurrence(classID: String, on date: LocalDate) throws(SchedulingError) -> AffectedBookings {
        try classTimetable.cancelOccurrence(classID: classID, on: date)
    }

    /// Moves one occurrence to another time (a cancelled one is reinstated
    /// there). Its bookings stay: they belong to the occurrence, not its time.
    /// - Parameters:
    ///   - classID: the class.
    ///   - date: the occurrence's date by the series.
    ///   - start: the new start on the book's clocks.
    ///   - duration: the new length (`nil` keeps the class's).
    /// - Throws: ``SchedulingError/notAnOccurrence(classID:title:date:meets:)``, a length outside 1…1440 minutes,
    ///   ``SchedulingError/occurrenceOverlaps(classID:title:date:other:otherStart:otherDuration:)`` onto another occurrence of the class.
    @discardableResult
    public mutating func moveOccurrence(classID: String, on date: LocalDate, to start: LocalDateTime, duration: Duration? = nil) throws(SchedulingError) -> ClassOccurrence {
        let series = try classSeries(classID)
        try checkOpeningHours(series.title, at: start, for: duration ?? series.duration)
        return try classTimetable.moveOccurrence(classID: classID, on: date, to: start, duration: duration)
    }

    /// The weekly timetable, Monday to Sunday, each day's classes by time.
    public var timetable: [TimetableDay] { classTimetable.weekly }

    /// One occurrence with its places.
    /// - Parameters:
    ///   - classID: the class.
    ///   - date: the occurrence's date by the series.
    /// - Throws: ``SchedulingError/unknownClass(_:)``, ``SchedulingError/notAnOccurrence(classID:title:date:meets:)``.
    public func occurrence(classID: String, on date: LocalDate) throws(SchedulingError) -> ClassOccurrence { try classTimetable.occurrence(classID: classID, on: date) }

    /// The occurrences of every class (or one) between two dates, both
    /// included, cancelled ones too, by start.
    /// - Parameters:
    ///   - classID: the class, or `nil` for every class.
    ///   - first: the first date.
    ///   - last: the last date (included).
    public func occurrences(classID: String? = nil, from first: LocalDate, through last: LocalDate) -> [ClassOccurrence] {
        classTimetable.occurrences(classID: classID, from: first, through: last)
    }
}
