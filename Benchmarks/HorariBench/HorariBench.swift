#if LibICal  // the benchmark measures against libical; without it, WithoutLibICal.swift
import CLibICal
import CalendarCore
import CalendarScheduling
import Foundation
import ICalendarKit

/// Horari's benchmarks. Every figure is printed beside a reference measured in
/// the same process, with the ratio between them.
///
///     swift run -c release HorariBench            # full run
///     swift run -c release HorariBench --quick    # a short run for CI
///     swift run -c release HorariBench --views-only   # the month view only (VIEWS_REPEATS=n to profile)
///     swift run -c release HorariBench --scheduling-only   # bookings and free slots only
///     swift run -c release HorariBench --icalendar-only [--keep-file]
///                                                 # import/export only; keep the files to profile
@main
struct HorariBench {
    static func main() async throws {
        if let i = CommandLine.arguments.firstIndex(of: "--import-only"), i + 1 < CommandLine.arguments.count {
            try ICalendarBench.importOnly(CommandLine.arguments[i + 1])
            return
        }
        let quick = CommandLine.arguments.contains("--quick")
        let count = quick ? 5_000 : 50_000
        print("Horari benchmarks (\(quick ? "quick" : "full") run)")
        print("Machine: \(Summary.machine())")
        print("References: libical alone \(References.libical.map { "(" + $0.path + ")" } ?? "skipped: build it with make bench"), "
              + "Python peers \(References.python.map { "(" + $0.path + ")" } ?? "skipped: make corpus installs them")")
        print("")
        var summary = Summary()
        defer {
            print("")
            print("Summary (\(quick ? "quick" : "full") run; every reference measured in this run)")
            print("")
            print(summary.table())
        }
        if CommandLine.arguments.contains("--views-only") {
            try ViewsBench.run(quick: quick, summary: &summary)
            return
        }
        if CommandLine.arguments.contains("--scheduling-only") {
            try await SchedulingBench.run(quick: quick, summary: &summary)
            return
        }
        if CommandLine.arguments.contains("--icalendar-only") {
            try ICalendarBench.run(count: count, summary: &summary)
            return
        }
        try expansion(count: count, summary: &summary)
        print("")
        try laziness(repeats: quick ? 2_000 : 20_000, summary: &summary)
        print("")
        try ICalendarBench.run(count: count, summary: &summary)
        print("")
        try ViewsBench.run(quick: quick, summary: &summary)
        print("")
        try await SchedulingBench.run(quick: quick, summary: &summary)
    }

    static func seconds(_ body: () throws -> Void) rethrows -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }

    /// Expand every series of the synthetic calendar over 2026, ours against
    /// libical's `icalrecur_iterator` on the same rules and starts.
    static func expansion(count: Int, summary: inout Summary) throws {
        let calendar = try SyntheticCalendar(count: count)
        let series = calendar.items.filter(\.isRecurring)
        let zone = try ZoneRules.named(SyntheticCalendar.zone)
        let from = Date(timeIntervalSince1970: TimeInterval(zone.instant(forWall: try LocalDateTime(year: 2026, month: 1, day: 1).localSeconds)))
        let to = Date(timeIntervalSince1970: TimeInterval(zone.instant(forWall: try LocalDateTime(year: 2027, month: 1, day: 1).localSeconds)))
        let sets = series.compactMap(\.recurrenceSet)

        // Ours: window-bounded expansion with zone resolution and EXDATEs.
        var ours = 0
        var bestOurs = Double.infinity
        for _ in 0..<5 {
            var n = 0
            let t = try seconds {
                for set in sets { n += try set.instances(from: from, to: to).count }
            }
            ours = n
            bestOurs = min(bestOurs, t)
        }

        // libical: the same rule text and wall-clock start, iterated from DTSTART
        // to the end of the window (libical has no way to start at a window).
        let rules = series.map { (rule: $0.recurrenceRules[0].icalValue, start: $0.start.wallTime.basicISO) }
        var generated = 0
        var inWindow = 0
        var bestLibical = Double.infinity
        for _ in 0..<5 {
            var g = 0
            var w = 0
            let parsed = rules.map { (icalrecurrencetype_from_string($0.rule), icaltime_from_string($0.start)) }
            let t = seconds {
                for (rule, start) in parsed {
                    guard let it = icalrecur_iterator_new(rule, start) else { continue }
                    while true {
                        let next = icalrecur_iterator_next(it)
                        if icaltime_is_null_time(next) != 0 { break }
                        if next.year >= 2027 { break }
                        g += 1
                        if next.year == 2026 { w += 1 }
                    }
                    icalrecur_iterator_free(it)
                }
            }
            generated = g
            inWindow = w
            bestLibical = min(bestLibical, t)
        }
        let oursRate = Double(ours) / bestOurs
        let libicalRate = Double(generated) / bestLibical
        print("Expansion: \(series.count) series of \(count) events, window 2026 (best of 5)")
        print(row("", "occurrences", "seconds", "occurrences/s"))
        print(row("Horari RecurrenceSet", "\(ours)", String(format: "%.3f", bestOurs), String(format: "%.0f", oursRate)))
        print(row("libical icalrecur_iterator", "\(generated) (\(inWindow) in 2026)", String(format: "%.3f", bestLibical), String(format: "%.0f", libicalRate)))
        print(String(format: "ratio Horari/libical: %.2fx (target >= 2x)", oursRate / libicalRate))
        print("(Horari also resolves every occurrence to an instant in Europe/Madrid and applies EXDATEs; libical only iterates wall times.)")
        // Same work check: without EXDATEs, ours must be exactly libical's 2026 count.
        var plain = 0
        for set in sets {
            var bare = set
            bare.exclusions = []
            plain += try bare.instances(from: from, to: to).count
        }
        print("check: without EXDATEs Horari finds \(plain) occurrences in 2026, libical \(inWindow): \(plain == inWindow ? "same" : "DIFFERENT")")
        summary.add("expansion, \(series.count) series over 2026", Figure.rate(Double(ours), bestOurs), "libical icalrecur_iterator: " + Figure.rate(Double(generated), bestLibical),
                    Figure.times(oursRate / libicalRate, "rate"), "≥ 2×")

        // recurring-ical-events on the same series, written out by our exporter.
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("horari-bench-\(getpid())-series.ics")
        try ICalendarExporter().exportData(ICalendar(name: "Series", items: series)).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        if let (t, n) = References.python(["expand", url.path, "2026", "2027"]) {
            print(String(format: "recurring-ical-events: %.0f occurrences in 2026 in %.2f s (%.0f/s); Horari %.1f× as fast", n, t, n / t, oursRate / (n / t)))
            summary.add("expansion vs Python", Figure.rate(Double(ours), bestOurs), "recurring-ical-events: " + Figure.rate(n, t) + (Int(n) == ours ? " (the same \(ours) found)" : " (found \(Int(n)), Horari \(ours): DIFFERENT)"),
                        Figure.times(oursRate / (n / t), "rate"), "")
        }
    }

    /// One week of a daily series with no COUNT: ten years after its start
    /// against its first year.
    static func laziness(repeats: Int, summary: inout Summary) throws {
        let zone = "Europe/Madrid"
        let set = RecurrenceSet(start: .zoned(try LocalDateTime(year: 2016, month: 1, day: 4, hour: 7), zone),
                                rules: [try RecurrenceRule(parsing: "FREQ=DAILY")])
        func week(_ year: Int) throws -> Double {
            let from = try CalendarTime.zoned(try LocalDateTime(year: year, month: 3, day: 7), zone).instant(floatingZone: .utc)
            let to = from.addingTimeInterval(7 * 86_400)
            var n = 0
            var best = Double.infinity
            for _ in 0..<3 {
                let t = try seconds { for _ in 0..<repeats { n += try set.instances(from: from, to: to).count } }
                best = min(best, t)
            }
            precondition(n > 0)
            return best / Double(repeats)
        }
        let first = try week(2016)
        let tenth = try week(2026)
        print("Laziness: one week of a daily series with no COUNT (mean of \(repeats), best of 3)")
        print(row("", "", "", "microseconds"))
        print(row("week in its first year (2016)", "", "", String(format: "%.2f", first * 1e6)))
        print(row("week ten years later (2026)", "", "", String(format: "%.2f", tenth * 1e6)))
        print(String(format: "ratio later/first: %.2fx (target <= 2x)", tenth / first))
        summary.add("a week of a daily series ten years on", String(format: "%.2f µs", tenth * 1e6), String(format: "its first year: %.2f µs", first * 1e6),
                    Figure.times(tenth / first, "time"), "≤ 2×")
    }

    static func row(_ a: String, _ b: String, _ c: String, _ d: String) -> String {
        // Padded, never cut: `padding(toLength:)` also shortens a longer text
        // (it cut "15.42 s, peak 272 MB" to "15.42 s, p").
        func pad(_ s: String, _ n: Int) -> String { s.count >= n ? s + " " : s.padding(toLength: n, withPad: " ", startingAt: 0) }
        return pad(a, 30) + pad(b, 26) + pad(c, 10) + d
    }
}
#endif
