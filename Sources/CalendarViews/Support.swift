import CalendarCore
import Foundation

extension Date {
    init(epochSeconds: Int64) { self.init(timeIntervalSince1970: TimeInterval(epochSeconds)) }
}

extension Schedule {
    /// The occurrences that touch the days `from` up to `to` (exclusive) on the
    /// wall clock of `zone`, floating times read in that zone too; sorted.
    public func occurrences(fromDay from: LocalDate, toDay to: LocalDate, in zone: ZoneRules) -> [Occurrence] {
        let (a, b) = Self.window(from, to, zone)
        return occurrences(from: a, to: b, floatingZone: zone)
    }

    /// The same occurrences as ``occurrences(fromDay:toDay:in:)``, in the same order, expanded as they are iterated.
    func occurrenceSequence(fromDay from: LocalDate, toDay to: LocalDate, in zone: ZoneRules) -> OccurrenceSequence {
        let (a, b) = Self.window(from, to, zone)
        return occurrenceSequence(from: a, to: b, floatingZone: zone)
    }

    /// The same occurrences as ``occurrences(fromDay:toDay:in:)``, in the
    /// same order, but at most `limitPerSeries` of any one series, as the
    /// day and week views show them: a series that has more is named in
    /// `capped` (in the order the series reached the limit) and its rule is
    /// expanded no further (an event every second touches a month 2.7
    /// million times). A single item is never cut.
    /// - Parameters:
    ///   - from: the first day.
    ///   - to: the day after the last (exclusive).
    ///   - zone: the wall clock the days are read on; floating times are read on it too.
    ///   - limitPerSeries: the most occurrences of one series kept.
    /// - Returns: the occurrences kept, and the `UID`s of the series cut.
    public func occurrences(fromDay from: LocalDate, toDay to: LocalDate, in zone: ZoneRules, limitPerSeries: Int) -> (occurrences: [Occurrence], capped: [String]) {
        var kept: [Occurrence] = []
        var perSeries: [String: Int] = [:]
        var capped: [String] = []
        var sequence = occurrenceSequence(fromDay: from, toDay: to, in: zone).makeIterator()
        while let o = sequence.next() {
            if o.id.recurrenceID != nil {
                let n = perSeries[o.id.uid, default: 0] + 1
                perSeries[o.id.uid] = n
                // One more than the limit is read, to know there are more.
                if n > limitPerSeries {
                    capped.append(o.id.uid)
                    sequence.skipRemaining(ofSeries: o.id.uid)
                    continue
                }
            }
            kept.append(o)
        }
        return (kept, capped)
    }

    /// The same occurrences as ``occurrences(fromDay:toDay:in:)``, visited in no particular order.
    func forEachOccurrence(fromDay from: LocalDate, toDay to: LocalDate, in zone: ZoneRules, _ body: (Occurrence) -> Void) {
        let (a, b) = Self.window(from, to, zone)
        forEachOccurrence(from: a, to: b, floatingZone: zone, body)
    }

    /// The extents of the same occurrences, visited in no particular order.
    func forEachExtent(fromDay from: LocalDate, toDay to: LocalDate, in zone: ZoneRules, _ body: (Extent) -> Void) {
        let (a, b) = Self.window(from, to, zone)
        forEachExtent(from: a, to: b, floatingZone: zone, body)
    }

    private static func window(_ from: LocalDate, _ to: LocalDate, _ zone: ZoneRules) -> (Date, Date) {
        (Date(epochSeconds: zone.instant(forWall: Int64(from.dayNumber) * 86_400)),
         Date(epochSeconds: zone.instant(forWall: Int64(to.dayNumber) * 86_400)))
    }
}

extension LocalDate {
    /// The ISO 8601 week-numbering year and week of this date (weeks start on
    /// Monday; week 1 is the week with the year's first Thursday).
    public var isoWeek: (year: Int, week: Int) {
        // The Thursday of this date's Monday-to-Sunday week decides the year.
        let mondayBased = weekday.rawValue  // Monday 0 … Sunday 6
        let thursday = adding(days: 3 - mondayBased)
        let week = (thursday.dayOfYear - 1) / 7 + 1
        return (thursday.year, week)
    }
}
