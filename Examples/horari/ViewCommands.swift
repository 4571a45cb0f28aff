import ArgumentParser
import CalendarCore
import CalendarViews
import Foundation
import ICalendarKit
import SchedulingICalendar

/// The options every view command takes.
struct ViewOptions: ParsableArguments {
    @Option(help: "The calendar: a file, a folder of one .ics per event, a CalDAV collection's https:// URL, an SQLite database (gym.sqlite) or a postgres://USER@HOST:PORT/DB URL (default: $XDG_DATA_HOME/horari/calendar.ics, else ~/.local/share/horari/calendar.ics).")
    var calendar: String?

    @Option(help: "The first day of the week: monday … sunday (default: the locale's; Sunday in the C locale, as ncal).")
    var firstWeekday: String?

    @Option(help: "The locale for names and labels, such as en_US, ca_ES, es_ES, it_IT (default: the environment's, LC_ALL, LC_TIME or LANG; en_US_POSIX in the C locale, as ncal).")
    var locale: String?

    @Option(help: "The IANA time zone to show times in (default: the calendar's own, its X-WR-TIMEZONE; never the machine's).")
    var timeZone: String?

    @Option(help: "auto (colour on a terminal unless NO_COLOR is set), always or never.")
    var color: ColorChoice = .auto

    @Option(help: "text or json.")
    var format: OutputFormat = .text

    @Option(help: "The day to treat as today, YYYY-MM-DD (default: the clock's, in the zone shown; for scripts and tests).")
    var today: String?

    /// What a view command needs, read once.
    struct Context {
        let clock: Clock
        let today: LocalDate
        let names: CalendarNames
        let firstWeekday: Weekday
        let schedule: Schedule
        let painter: Painter
        /// The UIDs of every item of the calendar, for the short IDs.
        var allItems: [String]? = nil

        var zone: ZoneRules { clock.rules }

        /// The IDs the text views print for the calendar's items (edit,
        /// delete and done take them); worked out only for text, as JSON
        /// names items by their whole UID.
        func shortIDs() -> ShortIDs { ShortIDs(allItems ?? schedule.items.map(\.uid)) }

        /// The same, with only the items of a category (their short IDs
        /// still those of the whole calendar).
        func only(category: String) throws -> Context {
            let kept = schedule.items.filter { $0.isInCategory(category) }
            let narrowed: Schedule
            do { narrowed = try Schedule(items: kept, timeZone: schedule.timeZone, zones: schedule.zones) } catch { throw CLIError(error.message) }
            return Context(clock: clock, today: today, names: names, firstWeekday: firstWeekday, schedule: narrowed, painter: painter, allItems: allItems ?? schedule.items.map(\.uid))
        }

        /// Prints the header line naming the zone, when it is not the machine's.
        func printHeader() {
            if let header = clock.header(names) { print(header) }
        }
    }

    /// Reads the calendar and what every view needs of it.
    /// - Parameter dates: the dates the view shows, given today (for a
    ///   calendar in a database, which is then read for those dates only);
    ///   `nil` for a view that needs every item.
    func context(showing dates: ((LocalDate) throws -> ClosedRange<LocalDate>)? = nil) async throws -> Context {
        // The calendar first: its zone is the clock, and today is read on it.
        let place = try calendarPlace(self.calendar)
        var read = try await loadExistingCalendar(place, window: dates.flatMap(window), quiet: format == .json)
        // A calendar that does not name its zone is shown on the zone most of
        // its items start in: that takes every item, so it is read whole.
        if read.result.calendar.calendarZone(namedBy: ICalendar.bookZoneProperties) == nil, !read.unreadUIDs.isEmpty {
            read = try await loadExistingCalendar(place, window: nil, quiet: true)
        }
        let calendar = read.result.calendar
        let schedule = calendar.schedule(zoneNamedBy: ICalendar.bookZoneProperties)
        let clock = try Clock(option: timeZone, calendar: calendar)
        // The CLI reads the clock once, here; the views are handed `today`.
        let today = try parseDate(self.today, option: "--today", default: clock.today())
        // Every view takes its names and its first weekday from the same
        // place: the flags, else the environment's locale, else ncal's C locale.
        let chosen = try Self.chosenLocale(locale)
        let names = CalendarNames(locale: Locale(identifier: chosen ?? "en_US_POSIX"))
        let first = try firstWeekday.map(parseWeekday) ?? (chosen == nil ? .sunday : names.firstWeekday)
        let allItems = read.unreadUIDs.isEmpty ? nil : schedule.items.map(\.uid) + read.unreadUIDs
        return Context(clock: clock, today: today, names: names, firstWeekday: first, schedule: schedule, painter: Painter(choice: color), allItems: allItems)
    }

    /// The instants a view of `dates` can show, on any clock: from the first
    /// date less a day to the day after the last, plus a day (zones lie
    /// within 14 hours of UTC). Today is not known before the calendar's
    /// zone is, so the dates are taken for the UTC date and the days either
    /// side of it (`--today` when given). `nil` when the dates cannot be
    /// worked out (a mistyped argument, reported after the read as before).
    private func window(_ dates: (LocalDate) throws -> ClosedRange<LocalDate>) -> DateInterval? {
        let utcDay = LocalDate(dayNumber: Int(Date().timeIntervalSince1970.rounded(.down) / 86_400))
        let guesses: [LocalDate?] = today.map { [try? parseDate($0, option: "--today", default: utcDay)] } ?? [utcDay.adding(days: -1), utcDay, utcDay.adding(days: 1)]
        var first: LocalDate?, last: LocalDate?
        for guess in guesses {
            guard let guess, let shown = try? dates(guess) else { return nil }
            first = min(first ?? shown.lowerBound, shown.lowerBound)
            last = max(last ?? shown.upperBound, shown.upperBound)
        }
        guard let first, let last else { return nil }
        let start = Double(first.adding(days: -1).dayNumber) * 86_400, end = Double(last.adding(days: 2).dayNumber) * 86_400
        return DateInterval(start: Date(timeIntervalSince1970: start), end: Date(timeIntervalSince1970: end))
    }

    /// The locale a command's names come from: `--locale`, else the
    /// environment's; `nil` is the C locale (`--locale C` and `LANG=C` alike:
    /// en_US_POSIX names, Sunday first). A name this system does not know is
    /// refused when typed, and passed over in the environment, as
    /// `setlocale` falls back to C.
    static func chosenLocale(_ option: String?, environment: [String: String] = ProcessInfo.processInfo.environment) throws -> String? {
        guard let option else { return environmentLocale(environment).flatMap { isKnown($0) ? $0 : nil } }
        guard let name = posixName(option) else { return nil }
        guard isKnown(name) else {
            throw ValidationError("--locale ‘\(option.prefix(40))’ is not a locale this system knows; give one such as en_US, ca_ES, es_ES, it_IT, or C")
        }
        return name
    }

    /// Whether Foundation has data for a locale: a listed identifier, or one
    /// whose language is an ISO 639 language (`es_419`, `ca_AD`).
    private static func isKnown(_ name: String) -> Bool {
        if Locale.availableIdentifiers.contains(name) { return true }
        guard let language = Locale(identifier: name).language.languageCode else { return false }
        return Locale.LanguageCode.isoLanguageCodes.contains(language)
    }

    /// The locale the environment names for dates, as POSIX chooses it: the
    /// first of `LC_ALL`, `LC_TIME` and `LANG` that is set and not empty,
    /// without its encoding or modifier (`ca_ES.UTF-8@euro` is `ca_ES`);
    /// `nil` for the C or POSIX locale, or when none is set.
    static func environmentLocale(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        for key in ["LC_ALL", "LC_TIME", "LANG"] {
            guard let value = environment[key], !value.isEmpty else { continue }
            return posixName(value).flatMap { $0.isEmpty ? nil : $0 }
        }
        return nil
    }

    /// A locale as POSIX names it, without its encoding or modifier
    /// (`ca_ES.UTF-8@euro` is `ca_ES`, `es-ES` is `es_ES`); `nil` for the C
    /// or POSIX locale.
    private static func posixName(_ value: String) -> String? {
        let name = String(value.prefix { $0 != "." && $0 != "@" }).replacingOccurrences(of: "-", with: "_")
        return name == "C" || name == "POSIX" ? nil : name
    }
}

extension ShortIDs {
    /// The ID printed for an occurrence's item.
    func shown(_ o: DisplayOccurrence) -> String { short(for: o.id.uid).shown }
}

/// Prints a command's JSON: schema 1 of `Docs/JSONSchema.md`, the same
/// envelope for every command (`schema`, `command`, `timeZone`) around the
/// command's own keys.
func printJSON<T: Encodable>(_ value: T, command: String, timeZone: String) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    writeToStandardOutput(try encoder.encode(JSONDocument(command: command, timeZone: timeZone, body: value)))
    writeToStandardOutput(Data("\n".utf8))
}

/// The envelope of every `--format json` output; the body's keys sit beside
/// `schema`, `command` and `timeZone`, in one object.
struct JSONDocument<Body: Encodable>: Encodable {
    /// The version of `Docs/horari.schema.json` the output follows.
    static var schema: Int { 1 }

    let command: String
    let timeZone: String
    let body: Body

    private enum Keys: String, CodingKey { case schema, command, timeZone }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(Self.schema, forKey: .schema)
        try c.encode(command, forKey: .command)
        try c.encode(timeZone, forKey: .timeZone)
        try body.encode(to: encoder)
    }
}

func parseDate(_ text: String?, option: String, default today: LocalDate) throws -> LocalDate {
    guard let text else { return today }
    let parts = text.split(separator: "-", omittingEmptySubsequences: false)
    guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
        let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2])
    else { throw ValidationError("\(option) ‘\(text)’ is not YYYY-MM-DD (for example 2026-11-23)") }
    do { return try LocalDate(year: y, month: m, day: d) } catch {
        throw ValidationError("\(option) ‘\(text)’: \(error.message)")
    }
}

/// "09:30" of a wall time.
func clock(_ t: LocalDateTime) -> String {
    (t.hour < 10 ? "0" : "") + "\(t.hour):" + (t.minute < 10 ? "0" : "") + "\(t.minute)"
}

/// "09:30–10:30", "22:00 – Thu 08:00" across midnight, "all day", or "09:30"
/// for an instant; a time the clocks show twice carries its abbreviation.
func span(_ o: DisplayOccurrence, names: CalendarNames, clock: Clock) -> String {
    if o.isAllDay {
        // The end date is exclusive (RFC 5545 §3.6.1): name the last day.
        let last = o.end.date.adding(days: -1)
        return last > o.start.date ? names.allDay + " – " + names.dayText(last) : names.allDay
    }
    if o.endSeconds == o.startSeconds { return clock.time(o.startSeconds) }
    let endsAtMidnight = o.end.date == o.start.date.adding(days: 1) && o.end.localSeconds % 86_400 == 0
    if o.end.date == o.start.date || endsAtMidnight { return clock.time(o.startSeconds) + "–" + clock.time(o.endSeconds) }
    let day = names.shortWeekdays[o.end.date.weekday.rawValue]
    let date = o.end.date == o.start.date.adding(days: 1) ? "" : " \(o.end.date)"
    return clock.time(o.startSeconds) + " – " + day + date + " " + clock.time(o.endSeconds)
}

/// `horari week`: seven days; a day with several items says so instead of listing them.
struct Week: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "week",
        abstract: "Show a week: each day's one item, or \"Several items\" (in red) when it holds more.",
        discussion: """
            Examples:
              horari week 2026-11-25 --calendar Examples/Samples/gym.ics
              horari week --locale ca_ES --format json
            """
    )

    @Argument(help: "A date in the week, YYYY-MM-DD (default: today on the calendar's clock).")
    var date: String?

    @OptionGroup var view: ViewOptions

    func run() async throws {
        let context = try await view.context { today in
            let day = try parseDate(date, option: "the date", default: today)
            return day.adding(days: -7)...day.adding(days: 7)
        }
        let day = try parseDate(date, option: "the date", default: context.today)
        let week = WeekView(containing: day, schedule: context.schedule,
                            options: .init(firstWeekday: context.firstWeekday, timeZone: context.zone, today: context.today, names: context.names))
        guard view.format == .text else { return try printJSON(week, command: "week", timeZone: context.clock.name) }
        let ids = context.shortIDs()
        context.printHeader()
        let last = week.start.adding(days: 6)
        print("\(context.names.dayText(week.start)) – \(context.names.dayText(last)) (\(context.names.isoWeek(week.isoWeek)))")
        let width = week.days.map(\.name.count).max() ?? 0
        func done(_ d: WeekView.Day) -> String {
            (d.done == 0 ? "" : "  ✓ \(d.done) \(context.names.words.done)") + (d.cancelled == 0 ? "" : "  ✗ \(d.cancelled) \(context.names.words.cancelled)")
        }
        for d in week.days {
            let title = context.painter.paint(d.name.padding(toLength: width, withPad: " ", startingAt: 0) + " " + (d.date.day < 10 ? " " : "") + "\(d.date.day)",
                                              color: nil, today: d.isToday)
            switch d.content {
            case .empty: print(title + done(d))
            case .one(let o):
                print("\(title)  \(context.painter.swatch(o.color)) \(span(o, names: context.names, clock: context.clock))  \(o.title.shown)  [\(ids.shown(o))]\(done(d))")
            case .several(let count):
                print("\(title)  \(context.painter.paint("\(d.label ?? context.names.severalItems) (\(count))", color: .red, bold: true))\(done(d))")
            }
        }
        noteCapped(week.cappedSeries, in: "week", limit: 7 * DayView.defaultLimitPerSeries, schedule: context.schedule)
    }
}

/// Says on standard error which series a view showed only the first
/// `limit` occurrences of (issue 42, 3: a day's is
/// ``DayView/defaultLimitPerSeries``, a week's seven times it): the view is
/// still true of what it shows, so the command succeeds.
func noteCapped(_ uids: [String]?, in view: String, limit count: Int, schedule: Schedule) {
    let limit = count.formatted(.number.locale(Locale(identifier: "en_US")))
    for uid in uids ?? [] {
        let title = schedule.item(uid: uid)?.title ?? uid
        FileHandle.standardError.write(Data("horari: ‘\(title)’ (\(uid)) repeats more than \(limit) times in this \(view); only the first \(limit) are shown\n".utf8))
    }
}

/// `horari day`: the hours of one day with its items laid out side by side.
struct Day: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "day",
        abstract: "Show a day hour by hour; overlapping items are laid out in columns.",
        discussion: """
            Each timed item shows its column in its cluster of overlapping items
            ([column/columns], with its width when it spans more than one).

            Examples:
              horari day 2026-11-25 --calendar Examples/Samples/gym.ics
            """
    )

    @Argument(help: "The date, YYYY-MM-DD (default: today on the calendar's clock).")
    var date: String?

    @OptionGroup var view: ViewOptions

    func run() async throws {
        let context = try await view.context { today in
            let date = try parseDate(self.date, option: "the date", default: today)
            return date...date
        }
        let date = try parseDate(self.date, option: "the date", default: context.today)
        let day = DayView(date: date, schedule: context.schedule, options: .init(timeZone: context.zone, today: context.today, names: context.names))
        guard view.format == .text else { return try printJSON(day, command: "day", timeZone: context.clock.name) }
        let ids = context.shortIDs()
        context.printHeader()
        print("\(day.name) \(day.date)")
        let painter = context.painter
        for o in day.allDay {
            print("\(context.names.allDay.padding(toLength: 8, withPad: " ", startingAt: 0))  \(painter.swatch(o.color)) \(painter.title(o.title, done: o.isDone, cancelled: o.isCancelled))  [\(ids.shown(o))]")
        }
        for slot in day.slots {
            let starting = slot.placements.filter { i in
                let p = day.timed[i]
                return p.startMinute / 60 == slot.hour || (slot.hour == 0 && p.continuesFromPreviousDay)
            }
            let hour = (slot.hour < 10 ? "0" : "") + "\(slot.hour):00"
            if starting.isEmpty {
                print(slot.placements.isEmpty ? hour : hour + "   │")
                continue
            }
            for (n, i) in starting.enumerated() {
                let p = day.timed[i]
                let from = p.continuesFromPreviousDay ? "…" : ""
                let to = p.continuesToNextDay ? "…" : ""
                let place = "[\(p.column + 1)/\(p.columnCount)" + (p.columnSpan > 1 ? " ×\(p.columnSpan)" : "") + "]"
                let lead = n == 0 ? hour : "     "
                print("\(lead)  \(painter.swatch(p.occurrence.color)) \(from)\(span(p.occurrence, names: context.names, clock: context.clock))\(to)  \(painter.title(p.occurrence.title, done: p.occurrence.isDone, cancelled: p.occurrence.isCancelled))  [\(ids.shown(p.occurrence))]  \(place)")
            }
        }
        noteCapped(day.cappedSeries, in: "day", limit: DayView.defaultLimitPerSeries, schedule: context.schedule)
    }
}

/// `horari list`: what is coming, grouped by month, a page at a time.
struct List: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the occurrences from a date onward, grouped by month, a page at a time.",
        discussion: """
            When there is more, the last line gives the --page token of the next page; \
            --before with a page's previousPage token (--format json) gives the page before it. \
            With --pending, the tasks still to do instead: the overdue first, marked, \
            then by due time, then those with no date (someday); with --done, the \
            tasks done, the latest first, each with when.

            Examples:
              horari list --calendar Examples/Samples/gym.ics --from 2026-11-23 --limit 10
              horari list --pending
              horari list --pending --category Maths --format json
              horari list --done
            """
    )

    @Option(help: "The first day, YYYY-MM-DD (default: today on the calendar's clock).")
    var from: String?

    @OptionGroup var paging: PageOptions

    @Flag(help: "The tasks still to do: overdue (marked), then by due time, then someday.")
    var pending = false

    @Flag(help: "The tasks done, the latest first, with when each was done.")
    var done = false

    @Option(help: "Only the items of this category (a subject), case ignored.")
    var category: String?

    @Option(help: "With --pending: the moment that decides what is overdue, 'YYYY-MM-DD HH:MM' (default: the clock's).")
    var now: String?

    @OptionGroup var view: ViewOptions

    func validate() throws {
        if pending && done { throw ValidationError("give --pending or --done, not both") }
        if paging.before != nil, paging.page != nil || from != nil { throw ValidationError("--before goes alone: not with --page or --from") }
        if let category {
            do { try CalendarItem.checkCategory(category) } catch { throw ValidationError("--category: \(error.message)") }
        }
        if pending || done {
            if paging.page != nil || paging.before != nil || from != nil {
                throw ValidationError("--page, --before and --from list occurrences; --\(pending ? "pending" : "done") lists tasks")
            }
        } else if now != nil {
            throw ValidationError("--now goes with --pending or --done")
        }
    }

    func run() async throws {
        guard paging.limit > 0 else { throw ValidationError("--limit must be at least 1") }
        var context = try await view.context()
        if pending || done {
            return try TaskOutput(context: context, format: view.format).print(pending: pending, category: category, limit: paging.limit, now: now)
        }
        // Parents and numbers are the whole calendar's, whatever is shown.
        let tree = ItemTree(context.schedule)
        if let category { context = try context.only(category: category) }
        let list = try paging.page(of: context.schedule, tree: tree, context: context, command: "list") { try parseDate(from, option: "--from", default: context.today) }
        guard view.format == .text else { return try printJSON(list, command: "list", timeZone: context.clock.name) }
        context.printPage(list, empty: category.map { "Nothing in ‘\($0.shown)’ from then on." } ?? "Nothing from then on.")
    }
}

/// `list`'s and `search`'s pages: how many a page holds, and the tokens that
/// go to the page after one or before it.
struct PageOptions: ParsableArguments {
    @Option(parsing: .unconditional, help: "The most occurrences to show.", transform: WholeNumber.limit)
    var limit = 20

    @Option(help: "Continue after a page: the token the previous page printed.")
    var page: String?

    @Option(help: "The page before a page: its previousPage token (--format json).")
    var before: String?

    /// The page of `schedule` these options ask for: after `--page`, before
    /// `--before`, else the first from the day `first` gives; each part of
    /// another numbered by `tree`, the whole calendar's (a filtered
    /// `schedule` would renumber them).
    func page(of schedule: Schedule, tree: ItemTree, context: ViewOptions.Context, command: String, first: () throws -> LocalDate) throws -> ListView {
        let options = ListView.Options(timeZone: context.zone, limit: limit, names: context.names, tree: tree)
        if let page {
            guard let cursor = ListView.Cursor(token: page) else { throw ValidationError("--page ‘\(page)’ is not a token printed by horari \(command)") }
            return ListView(after: cursor, schedule: schedule, options: options)
        }
        if let before {
            guard let cursor = ListView.Cursor(token: before) else { throw ValidationError("--before ‘\(before)’ is not a token printed by horari \(command)") }
            return ListView(before: cursor, schedule: schedule, options: options)
        }
        return ListView(from: try first(), schedule: schedule, options: options)
    }
}

extension ViewOptions.Context {
    /// A month's occurrences with each part of another (a match of a round)
    /// moved under its parent's first occurrence in the month, one level
    /// deeper; a part whose parent is not in the month keeps its place.
    static func nested(_ occurrences: [DisplayOccurrence]) -> [(DisplayOccurrence, depth: Int)] {
        var firstOf: [String: Int] = [:]
        for (i, o) in occurrences.enumerated() where firstOf[o.id.uid] == nil { firstOf[o.id.uid] = i }
        var under: [Int: [Int]] = [:]
        var roots: [Int] = []
        for (i, o) in occurrences.enumerated() {
            if let parent = o.parent, let at = firstOf[parent] { under[at, default: []].append(i) } else { roots.append(i) }
        }
        var out: [(DisplayOccurrence, depth: Int)] = []
        func visit(_ i: Int, _ depth: Int) {
            out.append((occurrences[i], depth))
            for child in under[i] ?? [] { visit(child, depth + 1) }
        }
        for i in roots { visit(i, 0) }
        return out
    }

    /// A page of ``ListView`` as `list` and `search` print it: by month, each
    /// occurrence with its day, times, colour, title, place and short ID
    /// (a part of another under it, with its number); `empty` when there is
    /// none, and the next page's token when there is one.
    func printPage(_ list: ListView, empty: String) {
        let ids = shortIDs()
        printHeader()
        for section in list.sections {
            Swift.print(section.title)
            for (o, depth) in Self.nested(section.occurrences) {
                let place = o.location.map { "  @ " + $0.shown } ?? ""
                let number = o.ordinal.map { " #\($0)" } ?? ""
                let indent = String(repeating: "  ", count: depth + 1)
                Swift.print("\(indent)\(names.dayText(o.start.date))  \(MonthGrid.pad(span(o, names: names, clock: clock), 11)) \(painter.swatch(o.color)) \(painter.title(o.title, done: o.isDone, cancelled: o.isCancelled))\(number)\(place)  [\(ids.shown(o))]")
            }
        }
        if list.sections.isEmpty { Swift.print(empty) }
        if let next = list.nextPage { Swift.print("More: --page \(next.token)") }
    }
}

struct Search: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "Find the items whose title, notes, location or categories hold every word given, case and accents ignored.",
        discussion: """
            What is found is listed as 'horari list' lists it, from the first day one of \
            them meets (or --from), grouped by month, a page at a time; --format json \
            gives list's JSON. A repeating item is found by its series or by any of its \
            dates, and listed whole.

            Examples:
              horari search yoga --calendar Examples/Samples/gym.ics
              horari search 'nuria sala' --from 2026-12-01
              horari search dentist --format json
            """
    )

    @Argument(help: "The words to find, each somewhere in an item.")
    var text: String

    @Option(help: "The first day, YYYY-MM-DD (default: the first day a found item meets).")
    var from: String?

    @OptionGroup var paging: PageOptions

    @OptionGroup var view: ViewOptions

    func validate() throws {
        do { _ = try ItemSearch(text) } catch { throw ValidationError("‘\(text.shown)’: \(error.message)") }
        if paging.before != nil, paging.page != nil || from != nil { throw ValidationError("--before goes alone: not with --page or --from") }
    }

    func run() async throws {
        guard paging.limit > 0 else { throw ValidationError("--limit must be at least 1") }
        let search = try ItemSearch(text)
        let context = try await view.context()
        let found = context.schedule.items.filter(search.matches)
        let narrowed: Schedule
        do { narrowed = try Schedule(items: found, timeZone: context.schedule.timeZone, zones: context.schedule.zones) } catch { throw CLIError(error.message) }
        let list = try paging.page(of: narrowed, tree: ItemTree(context.schedule), context: context, command: "search") {
            // The day before the earliest start, read on its own clock: on the display's it may be a day earlier.
            let first = found.filter(\.hasStart).map(\.start.localDate).min()?.adding(days: -1) ?? context.today
            return try parseDate(from, option: "--from", default: first)
        }
        guard view.format == .text else { return try printJSON(list, command: "search", timeZone: context.clock.name) }
        context.printPage(list, empty: found.isEmpty ? "Nothing holds ‘\(text.shown)’." : "Nothing that holds ‘\(text.shown)’ from then on.")
    }
}
