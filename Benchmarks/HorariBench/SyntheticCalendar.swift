#if LibICal  // the benchmark measures against libical; without it, WithoutLibICal.swift
import CalendarCore
import _CalendarTestSupport
import Foundation

/// The synthetic calendar the benchmarks share: `count` events in
/// Europe/Madrid between 2024 and 2027; 70% single, 20% weekly with COUNT or
/// UNTIL, 10% weekly with EXDATEs. Fixed seed: the same calendar every run.
///
/// `rich` adds what events from real calendar apps carry (Google's and
/// Thunderbird's exports were the model): a description, a location,
/// categories, status, SEQUENCE, LAST-MODIFIED, CREATED, an organizer, an
/// attendee and, on a quarter of them, a reminder (`VALARM`). That file is
/// 25 MB for 50,000 events, near the "about 20 MB" the iCalendar issue
/// measures against; the plain one is 9 MB.
struct SyntheticCalendar {
    static let zone = "Europe/Madrid"
    var items: [CalendarItem] = []

    init(count: Int, rich: Bool = false, seed: UInt64 = 0x486F_7261_7269) throws {
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
            if rich { Self.enrich(&item, i, &rng) }
            items.append(item)
        }
    }
}

extension SyntheticCalendar {
    static let places = ["Sala 1, Gimnàs Centre", "Studio B, Harbour Gym", "Pista exterior", "Room 4 (second floor)"]
    static let words = ["bring", "water", "towel", "warm-up", "stretching", "intervals", "core", "mobility", "rest", "notes", "level", "coach"]

    static func enrich(_ item: inout CalendarItem, _ i: Int, _ rng: inout SplitMix64) {
        let stamp = CalendarTime.utc(LocalDateTime(localSeconds: 1_760_000_000 + Int64(i) * 60))
        item.notes = (0..<Int.random(in: 3...9, using: &rng)).map { _ in words[Int.random(in: 0..<words.count, using: &rng)] }.joined(separator: " ")
        item.location = places[Int.random(in: 0..<places.count, using: &rng)]
        item.categories = [["Training"], ["Training", "Gym"], ["Personal"]][Int.random(in: 0..<3, using: &rng)]
        item.status = .confirmed
        item.sequence = Int.random(in: 0...3, using: &rng)
        item.lastModified = stamp
        item.properties = [
            ContentLine(name: "CREATED", value: stamp.icalValue),
            ContentLine(name: "ORGANIZER", parameters: [.init(name: "CN", values: ["Coach \(i % 40)"])], value: "mailto:coach\(i % 40)@example.com"),
            ContentLine(name: "ATTENDEE", parameters: [.init(name: "CN", values: ["Member \(i)"]), .init(name: "PARTSTAT", values: ["ACCEPTED"])], value: "mailto:member\(i)@example.com"),
        ]
        // A reminder fifteen minutes before on one item in four (a valid alarm: it cannot throw).
        if Int.random(in: 0..<4, using: &rng) == 0, let reminder = try? Alarm(.before(.seconds(900)), message: "Reminder") {
            item.alarms = [reminder]
        }
    }
}

extension LocalDate {
    static let days2024 = (try? LocalDate(year: 2024, month: 1, day: 1).dayNumber) ?? 19723
}
#endif
