import ArgumentParser
import CalendarCore
import CalendarViews
import Foundation
import ICalendarKit

/// `horari month`: a month grid drawn as `ncal -hb` draws it, with colours.
struct Month: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show a month as a grid, like ncal, with each day in its item's colour (red: several items).",
        discussion: """
            Without colour and on an empty calendar the grid is character for character
            what `ncal -hb` prints (`ncal -hbM` with --first-weekday monday, `ncal -hbMw`
            with --week-numbers too).

            Examples:
              horari month 2026-11 --calendar Examples/Samples/gym.ics
              horari month 2026-02 --first-weekday monday --week-numbers --color never
            """
    )

    @Argument(help: "The month, YYYY-MM (default: this month in --time-zone).")
    var month: String?

    @Option(help: "An .ics file whose items mark the days.")
    var calendar: String?

    @Option(help: "The first day of the week: monday … sunday (default: the locale's).")
    var firstWeekday: String?

    @Flag(help: "Show ISO 8601 week numbers (the week of each row's Thursday).")
    var weekNumbers = false

    @Option(help: "The locale for names, such as en_US, ca_ES, es_ES, it_IT (default: en_US_POSIX, as ncal in the C locale).")
    var locale: String?

    @Option(help: "The IANA time zone that places items on days (default: the system's).")
    var timeZone: String?

    @Option(help: "auto (colour on a terminal unless NO_COLOR is set), always or never.")
    var color: ColorChoice = .auto

    @Option(help: "text or json.")
    var format: OutputFormat = .text

    func run() throws {
        let zoneName = timeZone ?? TimeZone.current.identifier
        let zone: ZoneRules
        do { zone = try ZoneRules.named(zoneName) } catch {
            throw ValidationError("--time-zone ‘\(zoneName)’: \(error.message)")
        }
        let today = LocalDateTime(localSeconds: zone.wall(atInstant: Int64(Date().timeIntervalSince1970))).date
        let (year, monthNumber) = try parseMonth(month, default: today)
        let names = CalendarNames(localeIdentifier: locale)
        let first = try firstWeekday.map(parseWeekday) ?? names.firstWeekday
        let schedule = try calendar.map { try loadCalendar($0, quiet: format == .json).calendar.schedule() } ?? .empty
        let view = MonthView(year: year, month: monthNumber, schedule: schedule,
                             options: .init(firstWeekday: first, zone: zone, today: today))
        switch format {
        case .json:
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            FileHandle.standardOutput.write(try encoder.encode(view))
            FileHandle.standardOutput.write(Data("\n".utf8))
        case .text:
            let painter = Painter(choice: color)
            var text = MonthGrid.render(view, names: names, weekNumbers: weekNumbers, painter: painter)
            text += MonthGrid.itemList(view, schedule: schedule, zone: zone, names: names, painter: painter)
            FileHandle.standardOutput.write(Data(text.utf8))
        }
    }
}

enum OutputFormat: String, ExpressibleByArgument, CaseIterable { case text, json }

func parseMonth(_ text: String?, default today: LocalDate) throws -> (Int, Int) {
    guard let text else { return (today.year, today.month) }
    let parts = text.split(separator: "-")
    guard parts.count == 2, let y = Int(parts[0]), let m = Int(parts[1]), (1...9999).contains(y), (1...12).contains(m) else {
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

/// Month and weekday names from Foundation's locale data.
struct CalendarNames {
    let locale: Locale
    let months: [String]
    /// Two-letter weekday names, Monday first (as `Weekday`'s raw values).
    let weekdays: [String]
    let firstWeekday: Weekday

    init(localeIdentifier: String?) {
        let locale = Locale(identifier: localeIdentifier ?? "en_US_POSIX")
        self.locale = locale
        let formatter = DateFormatter()
        formatter.locale = locale
        months = formatter.standaloneMonthSymbols
        // Foundation's list starts on Sunday; ours on Monday.
        let short = formatter.shortStandaloneWeekdaySymbols
        weekdays = (0..<7).map { i in
            let name = short.count == 7 ? short[(i + 1) % 7] : (Weekday(rawValue: i)?.icalCode ?? "")
            return String(name.filter { $0 != "." }.prefix(2)).capitalized(with: locale)
        }
        // Calendar.firstWeekday: 1 is Sunday.
        var calendar = Calendar(identifier: .gregorian)
        calendar.locale = locale
        firstWeekday = localeIdentifier == nil ? .sunday : (Weekday(rawValue: (calendar.firstWeekday + 5) % 7) ?? .monday)
    }
}

/// Draws the month grid as ncal does.
enum MonthGrid {
    static func render(_ view: MonthView, names: CalendarNames, weekNumbers: Bool, painter: Painter) -> String {
        let title = names.months[view.month - 1] + " " + String(view.year)
        // ncal centres the title over the days (found by comparing with it for every month
        // from 2000 to 2030: Conformance/ncal_check.sh).
        let width = weekNumbers ? 27 : 22
        let left = max(0, weekNumbers ? (25 - title.count) / 2 : (20 - title.count) / 2)
        var lines: [String] = [pad(String(repeating: " ", count: left) + title, width)]
        let header = (0..<7).map { names.weekdays[view.firstWeekday.advanced(by: $0).rawValue] }
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

    /// The month's occurrences below the grid, one per line, in the display zone.
    static func itemList(_ view: MonthView, schedule: Schedule, zone: ZoneRules, names: CalendarNames, painter: Painter) -> String {
        guard !schedule.items.isEmpty, let first = try? LocalDate(year: view.year, month: view.month, day: 1) else { return "" }
        let last = first.adding(days: LocalDate.daysIn(month: view.month, year: view.year))
        let occurrences = schedule.occurrences(fromDay: first, toDay: last, in: zone)
        var out = ""
        for o in occurrences {
            let when: String
            if o.isAllDay {
                when = o.start.localDate.description + "      "
            } else {
                let wall = LocalDateTime(localSeconds: zone.wall(atInstant: o.startSeconds))
                when = wall.date.description + " " + String(wall.description.dropFirst(11).prefix(5))
            }
            out += "\(when)  \(painter.swatch(o.item.color)) \(o.item.title)\n"
        }
        return out.isEmpty ? "" : "\n" + out
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
        guard enabled else { return text }
        var codes: [String] = []
        if let c = marker.color { codes.append(foreground(c.rgb)) }
        if case .several = marker { codes.append("1") }
        if today { codes.append("7") }
        return codes.isEmpty ? text : "\u{1B}[" + codes.joined(separator: ";") + "m" + text + "\u{1B}[0m"
    }

    func swatch(_ color: ItemColor?) -> String {
        guard enabled, let color else { return "•" }
        return "\u{1B}[" + foreground(color.rgb) + "m•\u{1B}[0m"
    }

    private func foreground(_ rgb: ItemColor.RGB) -> String {
        if trueColor { return "38;2;\(rgb.red);\(rgb.green);\(rgb.blue)" }
        // The 6×6×6 cube of the 256-colour palette.
        func level(_ v: UInt8) -> Int { v < 48 ? 0 : v < 115 ? 1 : (Int(v) - 35) / 40 }
        return "38;5;\(16 + 36 * level(rgb.red) + 6 * level(rgb.green) + level(rgb.blue))"
    }
}
