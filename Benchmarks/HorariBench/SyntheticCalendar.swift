import CalendarCore
import _CalendarTestSupport
import Foundation

/// The synthetic calendar the benchmarks share: `count` events in
/// Europe/Madrid between 2024 and 2027; 70% single, 20% weekly with COUNT or
/// UNTIL, 10% weekly with EXDATEs. Fixed seed: the same calendar every run.
struct SyntheticCalendar {
    static let zone = "Europe/Madrid"
    var items: [CalendarItem] = []

    init(count: Int, seed: UInt64 = 0x486F_7261_7269) throws {
        var rng = SplitMix64(seed: seed)
        let days = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]
        for i in 0..<count {
            let day = LocalDate(dayNumber: LocalDate.days2024 + Int.random(in: 0..<(4 * 365), using: &rng))
            let start = CalendarTime.zoned(
                try LocalDateTime(date: day, hour: Int.random(in: 6...21, using: &rng), minute: [0, 15, 30, 45][Int.random(in: 0..<4, using: &rng)]),
                Self.zone)
            var item = CalendarItem(uid: "synthetic-\(i)@horari", title: "Event \(i)", start: start,
                                    end: .duration(.init(seconds: [1800, 3600, 5400][Int.random(in: 0..<3, using: &rng)])))
            let kind = Double.random(in: 0..<1, using: &rng)
            if kind >= 0.7 {
                var parts = ["FREQ=WEEKLY", "BYDAY=" + days[day.weekday.rawValue]]
                if Bool.random(using: &rng) {
                    parts.append("COUNT=\(Int.random(in: 5...150, using: &rng))")
                } else {
                    let until = day.adding(days: Int.random(in: 30...1000, using: &rng))
                    parts.append("UNTIL=" + until.basicISO + "T235959Z")
                }
                if Bool.random(using: &rng) && kind < 0.9 { parts.append("INTERVAL=2") }
                item.recurrenceRules = [try RecurrenceRule(parsing: parts.joined(separator: ";"))]
                if kind >= 0.9 {
                    item.exceptionDates = (0..<Int.random(in: 1...5, using: &rng)).map { _ in
                        start.withWallTime(start.wallTime.adding(seconds: Int64(7 * 86_400 * Int.random(in: 1...20, using: &rng))))
                    }
                }
            }
            items.append(item)
        }
    }
}

extension LocalDate {
    static let days2024 = (try? LocalDate(year: 2024, month: 1, day: 1).dayNumber) ?? 19723
}
