import ArgumentParser
import CalendarCore
import CalendarScheduling
import CalendarStore
import CalendarViews
import Foundation
import ICalendarKit
import SchedulingICalendar

/// The sample gym calendar embedded in the binary (`Examples/Samples/gym.ics`,
/// built by `Examples/Samples/make_gym.sh` through this CLI).
enum SampleCalendar {
    /// The `.ics` text as committed.
    static var text: String { EmbeddedSample.gymICS }

    /// The month the sample was written for, from its `X-HORARI-SAMPLE-MONTH`
    /// line (`YYYY-MM`).
    static func month(of text: String) -> (year: Int, month: Int)? {
        guard let value = ICalendarText.calendarProperty(ICalendar.sampleMonthProperty, in: text) else { return nil }
        let parts = value.split(separator: "-")
        guard parts.count == 2, let y = Int(parts[0]), let m = Int(parts[1]), (1...12).contains(m) else { return nil }
        return (y, m)
    }

    /// The sample moved by whole weeks so that its month lands on the month of
    /// `date`: a bare `horari` shows *this* month full, whenever it is run
    /// (`ICalendarText.movingDates(in:byDays:)`: a multiple of seven days, so
    /// weekdays and the weekly classes stay put).
    static func rebased(_ text: String, toMonthOf date: LocalDate) -> (text: String, days: Int) {
        guard let (year, month) = month(of: text), let first = try? LocalDate(year: year, month: month, day: 1),
            let target = try? LocalDate(year: date.year, month: date.month, day: 1)
        else { return (text, 0) }
        let weeks = Int((Double(first.days(to: target)) / 7).rounded())
        guard weeks != 0 else { return (text, 0) }
        return (ICalendarText.movingDates(in: text, byDays: weeks * 7), weeks * 7)
    }
}

/// `horari` with no arguments: this month of the sample gym calendar.
struct Sample: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sample",
        abstract: "Show this month of the embedded sample gym calendar (what a bare `horari` does).",
        discussion: """
            The sample is a small gym's calendar: weekly classes with places, a coach's \
            sessions with clients, a few events and tasks in their colours. It is moved by \
            whole weeks to the month of --today, so there is always something to see. \
            Save it with --write to try the other commands on it.

            Examples:
              horari
              horari sample --today 2026-11-22 --color always
              horari sample --write gym.ics && horari week --calendar gym.ics
            """)

    @Option(help: "The day to show as today, YYYY-MM-DD (default: today in the gym's zone).") var today: String?
    @Option(help: "The IANA zone to show times in (default: the gym's, Europe/Madrid).") var timeZone: String?
    @Option(help: "The first day of the week: monday … sunday.") var firstWeekday = "monday"
    @Option(help: "The locale for month and weekday names, such as ca_ES or es_ES (default: the environment's, LC_ALL, LC_TIME or LANG; en_US_POSIX in the C locale).")
    var locale: String?
    @Option(help: "auto (colour on a terminal unless NO_COLOR is set), always or never.") var color: ColorChoice = .auto
    @Option(help: "How many coming items to list.") var upcoming = 8
    @Option(help: "Write the sample, moved to this month, to this .ics file (refused if it exists) and show nothing.") var write: String?

    func validate() throws {
        guard upcoming >= 0 else { throw ValidationError("--upcoming must be 0 or more") }
        try refuseDatabaseName(write, option: "--write")
    }

    func run() async throws {
        // The gym's zone decides today's date, which decides how far the sample
        // moves; so it is read from the text, and the sample imported once, moved.
        let gymZone = ICalendarText.calendarZone(in: SampleCalendar.text, namedBy: ICalendar.bookZoneProperties) ?? "Europe/Madrid"
        let zoneName = timeZone ?? gymZone
        let zone: ZoneRules
        do { zone = try ZoneRules.named(zoneName) } catch { throw ValidationError("--time-zone ‘\(zoneName)’: \(error.message)") }
        let day = try parseDate(today, option: "--today", default: LocalDateTime(localSeconds: zone.wall(atInstant: Int64(Date().timeIntervalSince1970))).date)

        let (text, shift) = SampleCalendar.rebased(SampleCalendar.text, toMonthOf: day)
        let calendar: ICalendar
        do { calendar = try ICalendarImporter().importCalendar(from: text).calendar } catch { throw CLIError("the embedded sample: \(error.description)") }
        if let write {
            let url = URL(fileURLWithPath: write)
            guard !FileManager.default.fileExists(atPath: url.path) else {
                throw CLIError("\(write) exists already; pick a new file name (the sample never overwrites a file)")
            }
            do { try CalendarFile.save(calendar, to: url) } catch { throw CLIError(error.description) }
            print("Wrote the sample gym calendar to \(write). Try: horari month --calendar \(write)")
            return
        }
        let book: SchedulingBook
        do { book = try calendar.schedulingBook(defaultTimeZone: gymZone) } catch { throw CLIError("the embedded sample: \(error.description)") }
        let schedule = calendar.schedule(zoneNamedBy: ICalendar.bookZoneProperties)
        let painter = Painter(choice: color)
        let names = CalendarNames(locale: Locale(identifier: try ViewOptions.chosenLocale(locale) ?? "en_US_POSIX"))
        let mview = MonthView(year: day.year, month: day.month, schedule: schedule,
                              options: .init(firstWeekday: try parseWeekday(firstWeekday), timeZone: zone, today: day))

        var out = "\(calendar.name ?? "Sample gym") — the sample gym calendar, times in \(zoneName)"
        if shift != 0, let (y, m) = SampleCalendar.month(of: SampleCalendar.text) {
            out += "\n(written for \(names.month(m)) \(y), moved \(abs(shift) / 7) week\(abs(shift) == 7 ? "" : "s") \(shift > 0 ? "later" : "earlier") to land on this month)"
        }
        out += "\n\n" + MonthGrid.render(mview, names: names, weekNumbers: false, painter: painter)
        out += "\n" + legend(mview, schedule: schedule, zone: zone, today: day, painter: painter) + "\n"
        out += comingUp(from: day, schedule: schedule, book: book, clock: try Clock(named: zoneName), names: names, painter: painter)
        out += "\nSave it to try the other commands:  horari sample --write gym.ics\n"
        writeToStandardOutput(Data(out.utf8))
    }

    /// One swatch per coloured item in the month, then what red and reverse video mean.
    private func legend(_ view: MonthView, schedule: Schedule, zone: ZoneRules, today: LocalDate, painter: Painter) -> String {
        guard let first = try? LocalDate(year: view.year, month: view.month, day: 1) else { return "" }
        let last = first.adding(days: LocalDate.daysIn(month: view.month, year: view.year))
        var seen = Set<String>()
        var keys: [String] = []
        for o in schedule.occurrences(fromDay: first, toDay: last, in: zone) where o.item.color != nil {
            guard let color = o.item.color, seen.insert(o.item.title).inserted else { continue }
            // Without colour, the key names the colour instead of showing it.
            keys.append(painter.swatch(color) + " " + o.item.title.shown + (painter.enabled ? "" : " (\(color))"))
        }
        keys.append(painter.paint("■", color: .red, bold: true) + " several items" + (painter.enabled ? "" : " (red)"))
        if painter.enabled { keys.append(painter.paint(String(today.day), color: nil, today: true) + " today") }
        var lines: [String] = []
        var line = ""
        for key in keys {
            let width = line.isEmpty ? 0 : visibleWidth(line) + 3 + visibleWidth(key)
            if width > 72 {
                lines.append(line)
                line = key
            } else {
                line = line.isEmpty ? key : line + "   " + key
            }
        }
        lines.append(line)
        return lines.joined(separator: "\n") + "\n"
    }

    /// The next items from today, with the places left in each class.
    private func comingUp(from day: LocalDate, schedule: Schedule, book: SchedulingBook, clock: Clock, names: CalendarNames, painter: Painter) -> String {
        let zone = clock.rules
        guard upcoming > 0 else { return "" }
        let list = ListView(from: day, schedule: schedule, options: .init(timeZone: zone, limit: upcoming, names: names))
        var out = names.words.comingUp + "\n"
        for o in list.sections.flatMap(\.occurrences) {
            var line = "  \(names.dayText(o.start.date))  \(MonthGrid.pad(span(o, names: names, clock: clock), 11)) \(painter.swatch(o.color)) \(o.title.shown)"
            if let place = o.location { line += ", \(place.shown)" }
            if let series = try? book.classSeries(o.id.uid), let original = o.id.recurrenceID?.localDate,
                let occurrence = try? book.occurrence(classID: series.id, on: original)
            {
                line += " — " + (occurrence.placesLeft == 0
                    ? painter.paint(names.words.full, color: nil, bold: true) + (occurrence.waiting > 0 ? ", " + names.waiting(occurrence.waiting) : "")
                    : names.placesLeft(occurrence.placesLeft, of: occurrence.capacity))
            }
            if o.kind == .task { line += " (\(names.words.toDo))" }
            out += line + "\n"
        }
        if list.sections.isEmpty { out += "  Nothing from then on.\n" }
        return out
    }

    private func visibleWidth(_ s: String) -> Int {
        var count = 0
        var escape = false
        for c in s {
            if escape {
                if c == "m" { escape = false }
            } else if c == "\u{1B}" {
                escape = true
            } else {
                count += 1
            }
        }
        return count
    }
}
