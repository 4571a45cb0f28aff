import ArgumentParser
import CalendarCore
import CalendarViews
import Foundation
import ICalendarKit

/// `horari month`: a month grid drawn as `ncal -hb` draws it, with colours.
struct Month: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "month",
        abstract: "Show a month as a grid, like ncal, with each day in its item's colour (red: several items).",
        discussion: """
            Without colour and on an empty calendar the grid is character for character
            what `ncal -hb` prints (`ncal -hbM` with --first-weekday monday, `ncal -hbMw`
            with --week-numbers too). Below the grid, the month's items one a line: at
            most 2,000 a day of one series (an event every minute is listed whole), the
            rest said on standard error, as the day and week views do.

            Examples:
              horari month 2026-11 --calendar Examples/Samples/gym.ics
              horari month 2026-02 --first-weekday monday --week-numbers --color never
            """
    )

    @Argument(help: "The month, YYYY-MM (default: this month on the calendar's clock).")
    var month: String?

    @Flag(help: "Show ISO 8601 week numbers (the week of each row's Thursday).")
    var weekNumbers = false

    @OptionGroup var view: ViewOptions

    func run() async throws {
        // A calendar in a database is read for the grid's weeks only.
        let context = try await view.context { today in
            let (year, monthNumber) = try parseMonth(month, default: today)
            let first = try LocalDate(year: year, month: monthNumber, day: 1)
            return first.adding(days: -7)...first.adding(days: 42)
        }
        let (year, monthNumber) = try parseMonth(month, default: context.today)
        let mview = MonthView(year: year, month: monthNumber, schedule: context.schedule,
                              options: .init(firstWeekday: context.firstWeekday, timeZone: context.zone, today: context.today))
        guard view.format == .text else { return try printJSON(mview, command: "month", timeZone: context.clock.name) }
        var text = context.clock.header(context.names).map { $0 + "\n" } ?? ""
        text += MonthGrid.render(mview, names: context.names, weekNumbers: weekNumbers, painter: context.painter)
        let list = MonthGrid.itemList(mview, schedule: context.schedule, clock: context.clock, names: context.names, painter: context.painter, ids: context.shortIDs())
        print(text + list.text, terminator: "")
        noteCapped(list.capped, in: "month", limit: MonthGrid.limit(mview), schedule: context.schedule)
    }
}

enum OutputFormat: String, ExpressibleByArgument, CaseIterable { case text, json }

/// "2026-11" (or "2026-1"). The year has four digits, as every date
/// argument's: "26-11" drew the year 26 (issue 41, 6), where a person meant
/// 2026; guessing the century (as `date -d` does not) would be worse than asking.
func parseMonth(_ text: String?, default today: LocalDate) throws -> (Int, Int) {
    guard let text else { return (today.year, today.month) }
    let parts = text.split(separator: "-", omittingEmptySubsequences: false)
    if parts.count == 2, (1...2).contains(parts[0].count), parts[0].allSatisfy(\.isASCII), Int(parts[0]) != nil {
        throw ValidationError("the month ‘\(text)’ has a short year (‘\(parts[0])’); write the year in full: YYYY-MM (for example \(today.year / 100)\(parts[0].count == 1 ? "0" : "")\(parts[0])-\(parts[1]))")
    }
    guard parts.count == 2, parts[0].count == 4, (1...2).contains(parts[1].count), let y = Int(parts[0]), let m = Int(parts[1]),
          (1...9999).contains(y), (1...12).contains(m) else {
        throw ValidationError("the month ‘\(text)’ is not YYYY-MM (for example 2026-11)")
    }
    return (y, m)
}

func parseWeekday(_ text: String) throws -> Weekday {
    let names: [String: Weekday] = ["monday": .monday, "tuesday": .tuesday, "wednesday": .wednesday, "thursday": .thursday,
                                    "friday": .friday, "saturday": .saturday, "sunday": .sunday]
    if let d = names[text.lowercased()] ?? Weekday(icalCode: text.prefix(2)) { return d }
    throw ValidationError("--first-weekday ‘\(text)’ is not a weekday (monday … sunday)")
}

extension CalendarNames {
    /// Two-letter weekday names as ncal prints them ("Mo", "dl"), Monday first.
    var twoLetterWeekdays: [String] {
        let locale = Locale(identifier: localeIdentifier)
        return shortWeekdays.map { String($0.filter { $0 != "." }.prefix(2)).capitalized(with: locale) }
    }
}

/// Draws the month grid as ncal does.
enum MonthGrid {
    static func render(_ view: MonthView, names: CalendarNames, weekNumbers: Bool, painter: Painter) -> String {
        let title = names.month(view.month) + " " + String(view.year)
        // ncal centres the title over the days (found by comparing with it for every month
        // from 2000 to 2030: Conformance/ncal_check.sh).
        let width = weekNumbers ? 27 : 22
        let left = max(0, weekNumbers ? (25 - title.count) / 2 : (20 - title.count) / 2)
        var lines: [String] = [pad(String(repeating: " ", count: left) + title, width)]
        let short = names.twoLetterWeekdays
        let header = (0..<7).map { short[view.firstWeekday.advanced(by: $0).rawValue] }
        lines.append(weekNumbers ? " w| " + header.joined(separator: " ") + "   " : header.joined(separator: " ") + "  ")
        for week in view.weeks {
            let cells = week.days.map { day -> String in
                guard day.isInMonth else { return "  " }
                let number = day.date.day < 10 ? " \(day.date.day)" : "\(day.date.day)"
                return painter.paint(number, marker: day.marker, today: day.isToday)
            }
            if weekNumbers {
                let w = week.isoWeek < 10 ? " \(week.isoWeek)" : "\(week.isoWeek)"
                lines.append(w + "| " + cells.joined(separator: " ") + "   ")
            } else {
                lines.append(cells.joined(separator: " ") + "  ")
            }
        }
        while lines.count < 8 { lines.append(String(repeating: " ", count: width)) }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The month's occurrences below the grid, one per line, in the display
    /// zone, each day and time as every command writes them
    /// (`Wed 2026-11-25 19:30–20:30`, issue 43, 12), the day's name in the
    /// view's language. At most ``DayView/defaultLimitPerSeries`` a day of
    /// one series are listed (a minutely event's every one), as the day and
    /// week views show; the series cut are returned (`capped`), and their
    /// rules expanded no further: the month of an event that repeats every
    /// second listed 2.7 million lines in 8.5 s and 845 MB (issue 42, 3).
    static func itemList(_ view: MonthView, schedule: Schedule, clock: Clock, names: CalendarNames, painter: Painter, ids: ShortIDs) -> (text: String, capped: [String]) {
        guard !schedule.items.isEmpty, let first = try? LocalDate(year: view.year, month: view.month, day: 1) else { return ("", []) }
        let last = first.adding(days: LocalDate.daysIn(month: view.month, year: view.year))
        let (occurrences, capped) = schedule.occurrences(fromDay: first, toDay: last, in: clock.rules, limitPerSeries: Self.limit(view))
        let lines = occurrences.map { o -> (when: String, rest: String) in
            let when: String
            if o.isAllDay {
                // The end date is exclusive (RFC 5545 §3.6.1): name the last day.
                let start = o.start.localDate, end = o.end.localDate.adding(days: -1)
                when = end > start ? names.dayText(start) + " – " + names.dayText(end) : names.dayText(start)
            } else {
                // The day, then the times as the week and day views write them.
                let shown = DisplayOccurrence(o, in: clock.rules)
                when = names.dayText(shown.start.date) + " " + span(shown, names: names, clock: clock)
            }
            return (when, "\(painter.swatch(o.item.color)) \(painter.title(o.item.title, done: o.item.isDone, cancelled: o.item.isCancelled, names: names))  [\(ids.short(for: o.item.uid).shown)]")
        }
        // One column for the days and times: as wide as the widest of one day.
        let width = lines.map(\.when.count).filter { $0 <= 30 }.max() ?? 0
        let out = lines.map { pad($0.when, width) + "  " + $0.rest + "\n" }.joined()
        return (out.isEmpty ? "" : "\n" + out, capped)
    }

    /// The most occurrences of one series ``itemList(_:schedule:clock:names:painter:ids:)`` lists in a month.
    static func limit(_ view: MonthView) -> Int {
        DayView.defaultLimitPerSeries * LocalDate.daysIn(month: view.month, year: view.year)
    }

    static func pad(_ s: String, _ width: Int) -> String {
        s.count >= width ? s : s + String(repeating: " ", count: width - s.count)
    }
}

enum ColorChoice: String, ExpressibleByArgument, CaseIterable { case auto, always, never }

/// ANSI colours: 24-bit where the terminal says it has them (`COLORTERM`), 256 otherwise.
struct Painter {
    let enabled: Bool
    let trueColor: Bool

    init(choice: ColorChoice, environment: [String: String] = ProcessInfo.processInfo.environment) {
        switch choice {
        case .always: enabled = true
        case .never: enabled = false
        case .auto: enabled = isatty(STDOUT_FILENO) == 1 && (environment["NO_COLOR"] ?? "").isEmpty
        }
        let colorterm = environment["COLORTERM"]?.lowercased() ?? ""
        trueColor = colorterm == "truecolor" || colorterm == "24bit"
    }

    func paint(_ text: String, marker: DayMarker, today: Bool) -> String {
        if case .several = marker { return paint(text, color: .red, bold: true, today: today) }
        return paint(text, color: marker.color, bold: false, today: today)
    }

    /// `text` in a colour (bold for several items), in reverse video for today.
    /// Red only for several items: any other colour is drawn as
    /// `ItemColor.displayed` says (a red item from elsewhere in deeppink).
    func paint(_ text: String, color: ItemColor?, bold: Bool = false, today: Bool = false) -> String {
        guard enabled else { return text }
        var codes: [String] = []
        if let c = color { codes.append(foreground(c == .red && bold ? c.rgb : c.displayed.rgb)) }
        if bold { codes.append("1") }
        if today { codes.append("7") }
        return codes.isEmpty ? text : "\u{1B}[" + codes.joined(separator: ";") + "m" + text + "\u{1B}[0m"
    }

    /// A title as the views print it: a done task's with a check mark before
    /// it, and struck through when colours are on.
    func title(_ title: String, done: Bool, cancelled: Bool = false, names: CalendarNames = .english) -> String {
        if cancelled {
            // Struck through, and said in words for a terminal without colour
            // (a cancelled session, issue 28, 5).
            return "✗ " + (enabled ? "\u{1B}[9m" + title.shown + "\u{1B}[0m" : title.shown) + " (\(names.words.cancelled))"
        }
        guard done else { return title.shown }
        return "✓ " + (enabled ? "\u{1B}[9m" + title.shown + "\u{1B}[0m" : title.shown)
    }

    /// A dot in an item's colour (as `ItemColor.displayed` draws it: never
    /// red); an item without one gets the views' colour for uncoloured items
    /// (`ItemColor.fallback`), so that every item shows.
    func swatch(_ color: ItemColor?) -> String {
        guard enabled else { return "•" }
        return "\u{1B}[" + foreground((color ?? .fallback).displayed.rgb) + "m•\u{1B}[0m"
    }

    private func foreground(_ rgb: ItemColor.RGB) -> String {
        if trueColor { return "38;2;\(rgb.red);\(rgb.green);\(rgb.blue)" }
        // The 6×6×6 cube of the 256-colour palette.
        func level(_ v: UInt8) -> Int { v < 48 ? 0 : v < 115 ? 1 : (Int(v) - 35) / 40 }
        return "38;5;\(16 + 36 * level(rgb.red) + 6 * level(rgb.green) + level(rgb.blue))"
    }
}
