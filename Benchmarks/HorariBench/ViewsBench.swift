#if LibICal  // the benchmark measures against libical; without it, WithoutLibICal.swift
import CalendarCore
import CalendarViews
import _CalendarTestSupport
import Foundation

/// The month view over a big schedule: singles spread evenly over 2021–2040
/// and weekly series that started 2020–2025 and never end, in Europe/Madrid.
///
/// Targets (issue 4): at 100,000 singles and 1,000 series, the median month
/// costs at most 2 ms, and a month in 2036 within 2× of a month in 2026 (the
/// series must be sought into, not walked from their start). The same months
/// at 10,000 and 1,000,000 singles show how the cost follows the items in the
/// month, not the schedule's size.
enum ViewsBench {
    static func run(quick: Bool, summary: inout Summary) throws {
        let zone = try ZoneRules.named(SyntheticCalendar.zone)
        let sizes = quick ? [10_000, 100_000] : [10_000, 100_000, 1_000_000]
        let repeats = quick ? (ProcessInfo.processInfo.environment["VIEWS_REPEATS"].flatMap { Int($0) } ?? 50) : 300
        print("Month view: singles over 2021–2040 + 1,000 endless weekly series, Europe/Madrid (median of \(repeats))")
        print(HorariBench.row("singles", "occurrences in Nov 2026", "2026 ms", "2036 ms   2036/2026"))
        var medians: [Int: Double] = [:]
        var later: [Int: Double] = [:]
        for size in sizes {
            let schedule = try Schedule(items: try items(singles: size, series: 1_000))
            let options = MonthView.Options(firstWeekday: .monday, timeZone: zone, today: try LocalDate(year: 2026, month: 11, day: 22))
            func median(_ year: Int) -> Double {
                var times: [Double] = []
                var sink = 0
                for _ in 0..<repeats {
                    times.append(HorariBench.seconds {
                        sink &+= MonthView(year: year, month: 11, schedule: schedule, options: options).weeks.count
                    })
                }
                precondition(sink > 0)
                return times.sorted()[times.count / 2]
            }
            let found = try schedule.occurrences(fromDay: LocalDate(year: 2026, month: 11, day: 1),
                                                 toDay: LocalDate(year: 2026, month: 12, day: 1), in: zone).count
            let a = median(2026)
            let b = median(2036)
            medians[size] = a
            later[size] = b
            print(HorariBench.row("\(size)", "\(found)", String(format: "%.3f", a * 1e3),
                                  String(format: "%.3f     %.2fx", b * 1e3, b / a)))
        }
        if let small = medians[10_000], let big = medians[100_000] {
            print(String(format: "median at 100,000: %.3f ms (target <= 2 ms); 100,000/10,000: %.2fx", big * 1e3, big / small))
        }
        // The curve: each size beside the smallest, measured in this run.
        guard let small = medians[10_000] else { return }
        for size in sizes {
            guard let a = medians[size], let b = later[size] else { continue }
            summary.add("month view, \(size.formatted()) singles + 1,000 series", String(format: "%.2f ms", a * 1e3),
                        String(format: "10,000 singles: %.2f ms", small * 1e3), Figure.times(a / small, "time"),
                        size == 100_000 ? "≤ 2 ms" : "")
            summary.add("  the same month ten years later", String(format: "%.2f ms", b * 1e3), String(format: "%.2f ms", a * 1e3),
                        Figure.times(b / a, "time"), "flat (≤ 2×)")
        }
    }

    /// `singles` one-off events and `series` weekly classes; fixed seed.
    static func items(singles: Int, series: Int) throws -> [CalendarItem] {
        var rng = SplitMix64(seed: 0x5669_6577)
        let first = try LocalDate(year: 2021, month: 1, day: 1).dayNumber
        let days = try LocalDate(year: 2041, month: 1, day: 1).dayNumber - first
        let codes = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]
        var items: [CalendarItem] = []
        items.reserveCapacity(singles + series)
        for i in 0..<singles {
            let day = LocalDate(dayNumber: first + Int.random(in: 0..<days, using: &rng))
            let start = CalendarTime.zoned(try LocalDateTime(date: day, hour: Int.random(in: 6...21, using: &rng), minute: 0), SyntheticCalendar.zone)
            var item = CalendarItem(uid: "single-\(i)", title: "Event \(i)", start: start, end: .duration(.init(seconds: 3600)))
            item.color = ItemColor(rgb: .init(UInt8(i % 200), 120, 200))
            items.append(item)
        }
        for i in 0..<series {
            let day = LocalDate(dayNumber: first - 366 + Int.random(in: 0..<(6 * 365), using: &rng))
            let start = CalendarTime.zoned(try LocalDateTime(date: day, hour: Int.random(in: 6...21, using: &rng), minute: 0), SyntheticCalendar.zone)
            var item = CalendarItem(uid: "class-\(i)", title: "Class \(i)", start: start, end: .duration(.init(seconds: 3600)))
            let interval = i % 4 == 0 ? ";INTERVAL=2" : ""
            item.recurrenceRules = [try RecurrenceRule(parsing: "FREQ=WEEKLY;BYDAY=" + codes[day.weekday.rawValue] + interval)]
            items.append(item)
        }
        return items
    }
}
#endif
