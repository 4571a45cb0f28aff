import CalendarCore
import Foundation

// MARK: - Classes

extension SchedulingBook {
    /// Every class series, by ID.
    public var classes: [ClassSeries] { classesByID.values.sorted { $0.id < $1.id } }

    /// A class series.
    /// - Throws: ``SchedulingError/unknownClass(_:)``.
    public func classSeries(_ id: String) throws(SchedulingError) -> ClassSeries {
        guard let c = classesByID[id] else { throw .unknownClass(id) }
        return c
    }

    /// Adds a class series to the timetable.
    ///
    /// Its first and last dates are narrowed to the first and last dates it
    /// meets, so that the series reads the same back from iCalendar (where
    /// the first meeting is the `DTSTART`).
    /// - Throws: ``SchedulingError`` for a taken ID, or a series that never
    ///   meets, has no title, no weekday, no places or an impossible length.
    public mutating func addClass(_ series: ClassSeries) throws(SchedulingError) {
        try Self.checkID(series.id, "class")
        guard classesByID[series.id] == nil else { throw .duplicateID(series.id, kind: "class") }
        classesByID[series.id] = try Self.normalised(series)
    }

    /// Replaces a series (a new time, other weekdays, fewer places…).
    ///
    /// Bookings belong to an occurrence's original date, so they survive a
    /// new time or length. Bookings of dates the series no longer meets on
    /// are removed and returned, so that the members can be told; changes to
    /// such dates are dropped. A smaller capacity keeps every place already
    /// taken and refuses new bookings until the class is below it.
    /// - Returns: the bookings that lost their occurrence, by date.
    /// - Throws: ``SchedulingError/unknownClass(_:)``, or a series the book cannot take.
    @discardableResult
    public mutating func updateClass(_ series: ClassSeries) throws(SchedulingError) -> [AffectedBookings] {
        guard classesByID[series.id] != nil else { throw .unknownClass(series.id) }
        var series = series
        series.changes = series.changes.filter { series.meets(on: $0.key) }
        let new = try Self.normalised(series)
        classesByID[series.id] = new
        return removeRosters { $0.classID == new.id && !new.meets(on: $0.date) }
    }

    /// Removes a series from the timetable.
    /// - Returns: the bookings it had, by date.
    /// - Throws: ``SchedulingError/unknownClass(_:)``.
    @discardableResult
    public mutating func deleteClass(_ id: String) throws(SchedulingError) -> [AffectedBookings] {
        guard classesByID.removeValue(forKey: id) != nil else { throw .unknownClass(id) }
        return removeRosters { $0.classID == id }
    }

    /// Cancels one occurrence; its bookings and waitlist are removed.
    /// - Returns: the members who held a place or waited.
    /// - Throws: ``SchedulingError/notAnOccurrence(classID:title:date:meets:)`` and the like.
    @discardableResult
    public mutating func cancelOccurrence(classID: String, on date: LocalDate) throws(SchedulingError) -> AffectedBookings {
        let key = try occurrenceKey(classID, date)
        classesByID[classID]?.changes[date] = .cancelled
        let removed = removeRosters { $0 == key }
        return removed.first ?? AffectedBookings(occurrence: key, confirmed: [], waitlisted: [])
    }

    /// Moves one occurrence to another time (a cancelled one is reinstated
    /// there). Its bookings stay: they belong to the occurrence, not its time.
    /// - Throws: ``SchedulingError/notAnOccurrence(classID:title:date:meets:)``, a length outside 1…1440 minutes,
    ///   ``SchedulingError/occurrenceOverlaps(classID:title:date:other:otherStart:otherDuration:)`` onto another occurrence of the class.
    @discardableResult
    public mutating func moveOccurrence(classID: String, on date: LocalDate, to start: LocalDateTime, duration: Duration? = nil) throws(SchedulingError) -> ClassOccurrence {
        let key = try occurrenceKey(classID, date)
        let length = duration ?? classesByID[classID]?.duration ?? .zero
        try Self.checkLength(length, "a class")
        if let other = try occurrenceOverlapping(classID: classID, besides: date, start: start, length: length) {
            throw .occurrenceOverlaps(classID: classID, title: other.title, date: date, other: other.id.date, otherStart: other.start, otherDuration: other.duration)
        }
        classesByID[classID]?.changes[date] = .moved(to: start, duration: length)
        return try occurrence(key)
    }

    /// Another occurrence of the same class, not cancelled, whose time
    /// overlaps `start` for `length`: moved there, one occurrence would lie
    /// on another, and a member booked on both would hold two places at one
    /// time (issue 28, 16).
    private func occurrenceOverlapping(classID: String, besides date: LocalDate, start: LocalDateTime, length: Duration) throws(SchedulingError) -> ClassOccurrence? {
        let series = try classSeries(classID)
        let from = instant(start), to = from + Int64(length.wholeMinutes) * 60
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

    /// The weekly timetable, Monday to Sunday, each day's classes by time.
    public var timetable: [TimetableDay] {
        Weekday.allCases.map { day in
            TimetableDay(weekday: day, classes: classesByID.values.filter { $0.weekdays.contains(day) }.sorted { ($0.time, $0.title, $0.id) < ($1.time, $1.title, $1.id) })
        }
    }

    /// One occurrence with its places.
    /// - Throws: ``SchedulingError/unknownClass(_:)``, ``SchedulingError/notAnOccurrence(classID:title:date:meets:)``.
    public func occurrence(classID: String, on date: LocalDate) throws(SchedulingError) -> ClassOccurrence {
        try occurrence(occurrenceKey(classID, date))
    }

    /// The occurrences of every class (or one) between two dates, both
    /// included, cancelled ones too, by start.
    public func occurrences(classID: String? = nil, from first: LocalDate, through last: LocalDate) -> [ClassOccurrence] {
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

    package func occurrenceKey(_ classID: String, _ date: LocalDate) throws(SchedulingError) -> ClassOccurrence.ID {
        let s = try classSeries(classID)
        guard s.meets(on: date) else { throw .notAnOccurrence(classID: classID, title: s.title, date: date, meets: s.meetingText) }
        return ClassOccurrence.ID(classID: classID, date: date)
    }

    func occurrence(_ key: ClassOccurrence.ID) throws(SchedulingError) -> ClassOccurrence {
        makeOccurrence(try classSeries(key.classID), key.date)
    }

    func makeOccurrence(_ s: ClassSeries, _ date: LocalDate) -> ClassOccurrence {
        var start = s.time.on(date), duration = s.duration, cancelled = false, moved = false
        switch s.changes[date] {
        case .cancelled: cancelled = true
        case .moved(let to, let m):
            start = to
            duration = m
            moved = true
        case nil: break
        }
        let roster = rosters[ClassOccurrence.ID(classID: s.id, date: date)]
        return ClassOccurrence(
            id: .init(classID: s.id, date: date), title: s.title, start: start, duration: duration, startSeconds: instant(start),
            isCancelled: cancelled, isMoved: moved, capacity: s.capacity, booked: roster?.confirmed.count ?? 0, waiting: roster?.waitlist.count ?? 0)
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

    /// Removes the rosters whose occurrence matches, reporting them by date.
    mutating func removeRosters(where gone: (ClassOccurrence.ID) -> Bool) -> [AffectedBookings] {
        let keys = rosters.keys.filter(gone).sorted()
        var affected: [AffectedBookings] = []
        for key in keys {
            guard let roster = rosters.removeValue(forKey: key) else { continue }
            for m in roster.confirmed + roster.waitlist { occurrencesByMember[m]?.remove(key) }
            if !roster.isEmpty { affected.append(AffectedBookings(occurrence: key, confirmed: roster.confirmed, waitlisted: roster.waitlist)) }
        }
        return affected
    }
}

// MARK: - Bookings

extension SchedulingBook {
    /// Books a member a place in one occurrence of a class.
    ///
    /// - Parameters:
    ///   - memberID: the member.
    ///   - classID: the class series.
    ///   - date: the occurrence's date by the series (its identity, even if moved).
    ///   - now: the time of the request; an occurrence that has started is refused.
    ///   - whenFull: refuse (the default) or join the waitlist when every place is taken.
    /// - Returns: ``BookingOutcome/confirmed`` or the place on the waitlist.
    /// - Throws: ``SchedulingError/notAnOccurrence(classID:title:date:meets:)``,
    ///   ``SchedulingError/occurrenceCancelled(classID:title:date:)``,
    ///   ``SchedulingError/occurrenceInPast(classID:title:date:start:)``,
    ///   ``SchedulingError/alreadyBooked(member:title:date:)``,
    ///   ``SchedulingError/alreadyWaitlisted(member:title:date:position:)``,
    ///   ``SchedulingError/classFull(title:date:capacity:waiting:)``, or an unknown member or class.
    @discardableResult
    public mutating func book(member memberID: String, classID: String, on date: LocalDate, now: Date, whenFull: WhenFull = .refuse) throws(SchedulingError) -> BookingOutcome {
        _ = try people.member(memberID)
        let occurrence = try bookable(classID, date, now: now)
        let key = occurrence.id
        var roster = rosters[key] ?? Roster()
        if occurrencesByMember[memberID]?.contains(key) == true {
            if let i = roster.waitlist.firstIndex(of: memberID) {
                throw .alreadyWaitlisted(member: memberID, title: occurrence.title, date: date, position: i + 1)
            }
            throw .alreadyBooked(member: memberID, title: occurrence.title, date: date)
        }
        let outcome: BookingOutcome
        if roster.confirmed.count < occurrence.capacity {
            roster.confirmed.append(memberID)
            outcome = .confirmed
        } else if whenFull == .joinWaitlist {
            roster.waitlist.append(memberID)
            outcome = .waitlisted(position: roster.waitlist.count)
        } else {
            throw .classFull(title: occurrence.title, date: date, capacity: occurrence.capacity, waiting: roster.waitlist.count)
        }
        rosters[key] = roster
        occurrencesByMember[memberID, default: []].insert(key)
        return outcome
    }

    /// Gives up a member's place, or their place in the queue. A freed
    /// place goes to the first member on the waitlist.
    /// - Throws: ``SchedulingError/notBooked(member:title:date:)``,
    ///   ``SchedulingError/occurrenceInPast(classID:title:date:start:)`` once it has started, and the like.
    @discardableResult
    public mutating func cancelBooking(member memberID: String, classID: String, on date: LocalDate, now: Date) throws(SchedulingError) -> Cancellation {
        _ = try people.member(memberID)
        let occurrence = try occurrence(occurrenceKey(classID, date))
        try Self.checkNotStarted(occurrence, now: now)
        let key = occurrence.id
        guard var roster = rosters[key] else { throw .notBooked(member: memberID, title: occurrence.title, date: date) }
        var result = Cancellation(heldPlace: false, promoted: nil)
        if let i = roster.confirmed.firstIndex(of: memberID) {
            roster.confirmed.remove(at: i)
            result.heldPlace = true
            if roster.confirmed.count < occurrence.capacity, !roster.waitlist.isEmpty {
                let next = roster.waitlist.removeFirst()
                roster.confirmed.append(next)
                result.promoted = next
            }
        } else if let i = roster.waitlist.firstIndex(of: memberID) {
            roster.waitlist.remove(at: i)
        } else {
            throw .notBooked(member: memberID, title: occurrence.title, date: date)
        }
        rosters[key] = roster.isEmpty ? nil : roster
        occurrencesByMember[memberID]?.remove(key)
        return result
    }

    private func bookable(_ classID: String, _ date: LocalDate, now: Date) throws(SchedulingError) -> ClassOccurrence {
        let occurrence = try occurrence(occurrenceKey(classID, date))
        if occurrence.isCancelled { throw .occurrenceCancelled(classID: classID, title: occurrence.title, date: date) }
        try Self.checkNotStarted(occurrence, now: now)
        return occurrence
    }

    /// Refuses an occurrence that has started by `now`.
    private static func checkNotStarted(_ o: ClassOccurrence, now: Date) throws(SchedulingError) {
        if o.startSeconds <= seconds(now) {
            throw .occurrenceInPast(classID: o.id.classID, title: o.title, date: o.id.date, start: o.start)
        }
    }

    /// Who holds the places of an occurrence and who waits, in order.
    /// - Throws: ``SchedulingError/notAnOccurrence(classID:title:date:meets:)`` and the like.
    public func roster(classID: String, on date: LocalDate) throws(SchedulingError) -> (confirmed: [String], waitlist: [String]) {
        let r = rosters[try occurrenceKey(classID, date)] ?? Roster()
        return (r.confirmed, r.waitlist)
    }

    /// The occurrences a member holds a place in, by start.
    /// - Throws: ``SchedulingError/unknownMember(_:)``.
    public func bookings(member memberID: String) throws(SchedulingError) -> [ClassOccurrence] {
        try memberOccurrences(memberID).filter { rosters[$0.id]?.confirmed.contains(memberID) == true }
    }

    /// The occurrences a member waits for, by start, with their place in each queue.
    /// - Throws: ``SchedulingError/unknownMember(_:)``.
    public func waitlists(member memberID: String) throws(SchedulingError) -> [(occurrence: ClassOccurrence, position: Int)] {
        try memberOccurrences(memberID).compactMap { o in
            rosters[o.id]?.waitlist.firstIndex(of: memberID).map { (o, $0 + 1) }
        }
    }

    func memberOccurrences(_ memberID: String) throws(SchedulingError) -> [ClassOccurrence] {
        _ = try people.member(memberID)
        return (occurrencesByMember[memberID] ?? []).compactMap { try? occurrence($0) }.sorted { ($0.startSeconds, $0.id) < ($1.startSeconds, $1.id) }
    }

    /// The number of places taken across every occurrence.
    public var bookingCount: Int { rosters.values.reduce(0) { $0 + $1.confirmed.count } }
}
