import ArgumentParser
import CalendarCore
import CalendarScheduling
import CalendarViews
import CalendarStore
import Foundation
import ICalendarKit
import SchedulingICalendar

/// The options every command that reads or changes a calendar file takes:
/// the file, the clock, and the time the request is made.
struct BookOptions: ParsableArguments {
    @Option(help: "The calendar: a file, a folder of one .ics per event, a CalDAV collection's https:// URL, an SQLite database (gym.sqlite) or a postgres://USER@HOST:PORT/DB URL (default: $XDG_DATA_HOME/horari/calendar.ics, else ~/.local/share/horari/calendar.ics).")
    var calendar: String?

    @Option(help: "The time of the request, 'YYYY-MM-DD HH:MM' on the calendar's clock (default: now; for scripts and tests).")
    var now: String?

    @Option(help: "The IANA time zone to show and type dated times in (default: the calendar's own; a new calendar is created in this zone, else the system's). A class's weekly time stays on the calendar's own clock.")
    var timeZone: String?

    @Flag(help: "Change a calendar file that did not import cleanly (a file cut short, an unclosed component); the file as it was is kept beside it as FILE.damaged.")
    var force = false

    /// The calendar: --calendar, or the XDG data directory's file.
    var place: CalendarPlace {
        get throws { try calendarPlace(calendar) }
    }

    /// The book in the calendar file, or an empty one on the zone a new
    /// calendar would get, for a command that may start the calendar.
    func readOrNew() async throws -> SchedulingBook {
        guard try place.exists else {
            return SchedulingBook(timeZone: try Clock(named: timeZone ?? Clock.systemZoneName).rules)
        }
        return try await read()
    }

    /// The book in the calendar, for reading; the calendar must exist.
    func read() async throws -> SchedulingBook {
        let place = try place
        guard place.exists else { throw noCalendarYet(place) }
        let (book, asOf) = try await scheduling(place) { gym async throws(SchedulingStoreError) in try await gym.loadAllowingCache() }
        if let asOf { sayReadFromCache(place.location, asOf: asOf) }
        return book
    }

    /// The clock times are shown and typed on: --time-zone, else the book's own.
    func clock(for book: SchedulingBook) throws -> BookClock {
        BookClock(book: book.timeZone, display: try Clock(named: timeZone ?? book.timeZone.identifier))
    }

    /// Loads, changes and saves the whole book, as the place allows
    /// (`SchedulingStore.change(_:)`): concurrent `horari` processes take turns.
    @discardableResult
    func change<T: Sendable>(_ body: (inout SchedulingBook) throws -> T) async throws -> T {
        let place = try place
        try place.prepareFolder()
        return try await scheduling(place) { gym async throws(SchedulingStoreError) in try await gym.change(body) }
    }

    /// Changes one occurrence of a class — its roster, or its time, or
    /// whether it meets — on the records it touches where the place allows
    /// (`SchedulingStore.changeOccurrence(of:on:members:_:)`), else on the whole book.
    ///
    /// - Parameters:
    ///   - classID: the class.
    ///   - date: the occurrence's date by the series.
    ///   - members: the members `body` reads besides those on the roster.
    ///   - body: the change, on a book of just those records.
    func changeOccurrence<T: Sendable>(classID: String, on date: LocalDate, members: [String] = [],
                                       _ body: (inout SchedulingBook) throws -> T) async throws -> T {
        let place = try place
        try place.prepareFolder()
        return try await scheduling(place) { gym async throws(SchedulingStoreError) in
            try await gym.changeOccurrence(of: classID, on: date, members: members, body)
        }
    }

    /// The scheduling store on the place: the request's time is --now read
    /// on --time-zone, else on the book's clock; a new calendar is made on
    /// --time-zone, else the system's; --force changes a damaged calendar.
    /// Its failures become the CLI's one-line messages.
    func scheduling<T>(_ place: CalendarPlace, _ call: (SchedulingStore) async throws(SchedulingStoreError) -> T) async throws -> T {
        let newZone = try Clock(named: timeZone ?? Clock.systemZoneName).name
        let (typed, timeZone) = (now, timeZone)
        let settings = SchedulingStore.Settings(
            now: { zone in try Self.instant(typed, inZone: timeZone ?? zone) }, newCalendarZone: newZone,
            ifDamaged: damagePolicy(force: force), whileWaiting: { sayWaiting(for: place) })
        let gym = SchedulingStore(try await place.store(), settings: settings)
        do {
            return try await call(gym)
        } catch {
            throw cliError(error, place)
        }
    }

    /// A scheduling store's failure as the CLI says it.
    private func cliError(_ error: SchedulingStoreError, _ place: CalendarPlace) -> any Error {
        switch error {
        case .refused(let error): CLIError(error.description)
        case .store(let error): storeError(error)
        case .calendar(let error): damagedOrPlain(error, place)
        case .unknownZone(let error, let line): CLIError("\(place.path)\(line.map { ":\($0)" } ?? ""): \(error.description)")
        case .unreadableBook(let problems, let line): unreadableBook(problems, line: line, place)
        case .failed(let error): error
        }
    }

    /// The exporter a change saves with: what it writes as `DTSTAMP` (for the
    /// book's records, which are written afresh) is the request's time, so a
    /// script that passes --now writes the same file every time.
    func exporter(zone: String, zones: ZoneTable = ZoneTable()) throws -> ICalendarExporter {
        ICalendarExporter(options: .init(timestamp: try instant(inZone: zone, zones: zones), includeRejected: true))
    }

    /// The date on the book's clocks at the request's time.
    func today(in book: SchedulingBook) throws -> LocalDate {
        LocalDate(try instant(in: book), in: book.timeZone)
    }

    /// The request's time, --now read on the clock times are typed on.
    func instant(in book: SchedulingBook) throws -> Date {
        try instant(inZone: timeZone ?? book.timeZone.identifier)
    }
}

/// The scheduling book a calendar file keeps. When the book cannot be read
/// (a roster that books someone who is not a member, a client of an unknown
/// coach…), the error names the record's line and the way out: `horari
/// validate` lists every problem, `--repair` removes what the book cannot read.
func readBook(_ read: ImportResult, in place: CalendarPlace) throws -> SchedulingBook {
    let check: (book: SchedulingBook, problems: [SchedulingBook.RecordProblem])
    do { check = try read.calendar.schedulingCheck(defaultTimeZone: calendarZoneName(of: read.calendar)) } catch {
        throw CLIError("\(place.path)\(read.sourceLines.line(of: error).map { ":\($0)" } ?? ""): \(error.description)")
    }
    let errors = check.problems.filter { $0.severity == .error }
    guard let first = errors.first else { return check.book }
    // A record's line, in a file; in a folder or a collection, the record names its resource.
    throw unreadableBook(errors, line: read.sourceLines.line(of: first.record), place)
}

/// The message for a book that cannot be read: the first record the book
/// refuses, with its line in a file, and the way out.
func unreadableBook(_ errors: [SchedulingBook.RecordProblem], line: Int?, _ place: CalendarPlace) -> CLIError {
    let at = line.map { ":\($0)" } ?? ""
    let more = errors.count <= 1 ? "" : " (and \(errors.count - 1) more)"
    return CLIError("""
        \(place.path)\(at): \(errors.first?.message ?? "the scheduling book cannot be read")\(more)
        The scheduling book cannot be read until this is mended. `horari validate \(place.path)` lists every problem with its line; \
        `horari validate \(place.path) --repair` removes what the book cannot read (keeping the calendar as it was in a copy).
        """)
}

/// A book's own clock and the clock its times are shown and typed on.
struct BookClock {
    /// The zone the book keeps its wall times in.
    let book: ZoneRules
    /// The zone times are shown and typed in.
    let display: Clock

    /// The instant of one of the book's wall times (the second of two equal ones where `later`).
    func instant(_ wall: LocalDateTime, later: Bool = false) -> Int64 {
        if later, case .repeated(_, let second) = book.reading(ofWall: wall.localSeconds) { return second }
        return book.instant(forWall: wall.localSeconds)
    }

    /// "Wed 2026-11-25 18:30–19:30" on the display clock, for a book time and a length.
    func span(_ start: LocalDateTime, minutes: Int, later: Bool = false) -> String {
        let t = instant(start, later: later)
        return display.span(from: t, to: t + Int64(minutes) * 60)
    }

    /// A class occurrence's start and end as JSON writes instants: ISO 8601 on the display clock, with its offset.
    func instants(of o: ClassOccurrence) -> (start: String, end: String) {
        let t = instant(o.start), e = t + o.duration.components.seconds
        return (ISOText.instant(wall: display.wall(t), seconds: t), ISOText.instant(wall: display.wall(e), seconds: e))
    }

    /// A session's time on the display clock.
    func span(_ s: Session) -> String { span(s.start, minutes: s.duration.wholeMinutes, later: s.isLaterOfRepeatedTime) }

    /// A span as a confirmation says it: naming the clock when it is not
    /// the machine's, so a time typed on the gym's clock is not read on
    /// another (issue 43, 12). Lists and views say it once, in their header.
    func said(_ start: LocalDateTime, minutes: Int, later: Bool = false) -> String { span(start, minutes: minutes, later: later) + display.zoneNote }

    /// A session's span as a confirmation says it.
    func said(_ s: Session) -> String { span(s) + display.zoneNote }

    /// When a session was completed, `YYYY-MM-DD HH:MM` on the clock shown
    /// ('' for one that was not).
    func completed(_ s: Session) -> String {
        guard let done = s.completedAt else { return "" }
        let d = Int64(done.timeIntervalSince1970.rounded(.down))
        return "\(display.wall(d).date) \(display.time(d))"
    }

    /// A typed time (see `Clock.instant(typed:option:)`) as an instant, for
    /// the book's calls that take one: a session at the second of two equal
    /// wall times is booked as printed.
    func instant(typed text: String, option: String) throws -> Date {
        Date(timeIntervalSince1970: TimeInterval(try display.instant(typed: text, option: option).instant))
    }

    /// A typed time (see `Clock.instant(typed:option:)`) as one of the book's wall times.
    func bookWall(typed text: String, option: String) throws -> LocalDateTime {
        let (_, t) = try display.instant(typed: text, option: option)
        let wall = LocalDateTime(localSeconds: book.wall(atInstant: t))
        // The book keeps wall times, and a wall time the clocks show twice
        // stands for its first instant (RFC 5545 §3.3.5).
        guard book.instant(forWall: wall.localSeconds) == t else {
            throw CLIError("\(option) ‘\(text)’ is the second \(clock(wall)) of \(wall.date) in \(book.identifier); a class meets at the first, so pick another time")
        }
        return wall
    }
}

/// A date an option must give, YYYY-MM-DD.
func parseDate(_ text: String, option: String) throws -> LocalDate {
    try parseDate(text, option: option, default: LocalDate(dayNumber: 0))  // the default is never used: text is given
}

/// "2026-11-26 18:00" or "2026-11-26T18:00".
func parseDateTime(_ text: String, option: String) throws -> LocalDateTime {
    let parts = text.split(whereSeparator: { $0 == " " || $0 == "T" })
    guard parts.count == 2 else { throw ValidationError("\(option) ‘\(text)’ is not 'YYYY-MM-DD HH:MM' (for example '2026-11-26 18:00')") }
    let date = try parseDate(String(parts[0]), option: option)
    let time: TimeOfDay
    do { time = try TimeOfDay(parsing: parts[1]) } catch { throw ValidationError("\(option) ‘\(text)’: \(error.description)") }
    guard time.minutes < 1440 else { throw ValidationError("\(option) ‘\(text)’: use 00:00 of the next day") }
    return LocalDateTime(localSeconds: Int64(date.dayNumber) * 86_400 + Int64(time.minutes) * 60)
}

/// "MO,WE" or "monday,wednesday" or "MO-FR".
func parseWeekdays(_ text: String, option: String) throws -> [Weekday] {
    var days: [Weekday] = []
    for part in text.split(separator: ",") {
        let ends = part.split(separator: "-")
        guard (1...2).contains(ends.count), let a = try? parseWeekday(String(ends[0])), let b = try? parseWeekday(String(ends.last ?? ends[0])) else {
            throw ValidationError("\(option) ‘\(text)’: write weekdays as MO,WE or MO-FR")
        }
        var d = a
        while true {
            days.append(d)
            if d == b { break }
            d = d.advanced(by: 1)
        }
    }
    return days
}

/// "Wed 2026-11-25", as the CLI's messages name a day.
func dayText(_ date: LocalDate) -> String {
    let names = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    return "\(names[date.weekday.rawValue]) \(date)"
}


// MARK: - People

/// `horari coaches add|list|edit|remove`.
struct Coaches: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "coaches",
        abstract: "Add, list, edit and remove coaches, with their working hours.",
        discussion: """
            Examples:
              horari coaches add marc --name 'Marc Soler' \\
                  --hours 'MO-FR 09:00-13:00 16:00-20:00' --buffer 10
              horari coaches edit marc --buffer 15
            """,
        subcommands: [Add.self, ListCoaches.self, Edit.self, Remove.self])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: "Add a coach.",
            discussion: """
                Examples:
                  horari coaches add marc --name 'Marc Soler' --email marc@gym.example \\
                      --hours 'MO-FR 09:00-13:00 16:00-20:00' --buffer 10
                  horari coaches add laia --name 'Laia Vidal' \\
                      --hours 'MO,WE 08:00-14:00' --hours 'SA 09:00-12:00'
                """)
        @Argument(help: "The coach's ID.") var id: String
        @Option(help: "The coach's name.") var name: String
        @Option(help: "The coach's e-mail address.") var email: String?
        func validate() throws { try checkTypedEmail(email, of: "coach") }
        @Option(help: "Working hours: weekdays then ranges, such as 'MO-FR 09:00-13:00 16:00-20:00'; repeat for other days.") var hours: [String] = []
        @Option(parsing: .unconditional, help: "Minutes kept free between two sessions.", transform: WholeNumber.buffer) var buffer = 0
        @Option(help: "The colour of the coach's sessions (unless the client or session has one): a CSS name or #RRGGBB, not red.") var color: String?
        @OptionGroup var book: BookOptions

        func run() async throws {
            let coach = Coach(id: id, name: name, email: email, workingHours: try parseHours(hours), buffer: .minutes(buffer), color: try color.map(parseColor))
            try await book.change { b in try b.addCoach(coach) }
            print("Added coach \(id) (\(name)).")
        }
    }
}

/// `horari clients add|list|edit|remove`.
struct Clients: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "clients",
        abstract: "Add, list, edit and remove a coach's clients.",
        discussion: "Examples:\n  horari clients add anna --coach marc --name 'Anna Puig' \\\n      --email anna@example.com\n  horari clients list --coach marc",
        subcommands: [Add.self, ListClients.self, Edit.self, Remove.self])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: "Add a client to a coach.",
            discussion: "Example:\n  horari clients add anna --coach marc --name 'Anna Puig' \\\n      --email anna@example.com")
        @Argument(help: "The client's ID.") var id: String
        @Option(help: "The coach the client trains with.") var coach: String
        @Option(help: "The client's name.") var name: String
        @Option(help: "The client's e-mail address.") var email: String?
        func validate() throws { try checkTypedEmail(email, of: "client") }
        @Option(help: "The colour of the client's sessions (unless a session has its own): a CSS name or #RRGGBB, not red.") var color: String?
        @OptionGroup var book: BookOptions

        func run() async throws {
            let client = Client(id: id, coachID: coach, name: name, email: email, color: try color.map(parseColor))
            try await book.change { b in try b.addClient(client) }
            print("Added client \(id) (\(name)) to coach \(coach).")
        }
    }

    struct ListClients: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list", abstract: "List one coach's clients (never another coach's), each with when they last trained.",
            discussion: "Examples:\n  horari clients list --coach marc\n  horari clients list --coach marc --format json")
        @Option(help: "The coach.") var coach: String
        @Option(help: "text or json.") var format: OutputFormat = .text
        @OptionGroup var book: BookOptions

        func run() async throws {
            let b = try await book.read()
            let clock = try book.clock(for: b)
            var listed: [ClientsJSON.Client] = []
            do {
                for c in try b.clients(coach: coach) {
                    // The last completed session: a coach's "when did Anna last train?".
                    let last = try b.lastTrained(client: c.id, coach: coach).map { clock.display.wall(clock.instant($0.start, later: $0.isLaterOfRepeatedTime)).date }
                    listed.append(ClientsJSON.Client(id: c.id, name: c.name, email: c.email, color: c.color, lastTrained: last))
                }
            } catch { throw CLIError(error.description) }
            if format == .json { return try printJSON(ClientsJSON(coach: coach, clients: listed), command: "clients list", timeZone: clock.display.name) }
            for c in listed {
                print(columns([c.id, c.name, c.email ?? "no e-mail", c.lastTrained.map { "last trained \($0)" } ?? "not trained yet"]))
            }
        }
    }
}

/// `horari members add|list|edit|remove`.
struct Members: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "members",
        abstract: "Add, list, edit and remove gym members.",
        discussion: "Example:\n  horari members add marta --name 'Marta Roig' --email marta@example.com",
        subcommands: [Add.self, ListMembers.self, Edit.self, Remove.self])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: "Add a member.", discussion: "Example:\n  horari members add marta --name 'Marta Roig' --email marta@example.com")
        @Argument(help: "The member's ID.") var id: String
        @Option(help: "The member's name.") var name: String
        @Option(help: "The member's e-mail address.") var email: String?
        func validate() throws { try checkTypedEmail(email, of: "member") }
        @OptionGroup var book: BookOptions

        func run() async throws {
            let member = Member(id: id, name: name, email: email)
            try await book.change { b in try b.addMember(member) }
            print("Added member \(id) (\(name)).")
        }
    }
}

// MARK: - Sessions

/// `horari sessions add|list|move|cancel|mark|free`.
struct Sessions: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sessions",
        abstract: "A coach's training sessions: book, list, move, cancel, and find free slots.",
        discussion: """
            Every command names the coach; a coach only ever sees their own clients and sessions.

            Examples:
              horari sessions add --coach marc --client anna --start '2026-11-26 18:00'
              horari sessions list --coach marc
              horari sessions history --client anna
              horari sessions free --coach marc --from 2026-11-26 --to 2026-11-27
            """,
        subcommands: [Add.self, Log.self, ListSessions.self, History.self, Move.self, Cancel.self, Mark.self, Free.self, Policy.self])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: "Book a session of a coach with one of their clients; a clash is refused.",
            discussion: """
                With --repeat, a session on --start and every later date the rule gives \
                on the book's clocks (it must end, COUNT or UNTIL, within a year): each \
                date is a session of its own, booked or refused by date with why, and --id \
                names the series (each session's ID is the series' with its date). Move or \
                cancel one date alone, or it and every later one with --and-following.

                Examples:
                  horari sessions add --coach marc --client anna --start '2026-11-26 18:00' \\
                      --minutes 45 --location 'Gimnàs Sants'
                  horari sessions add --coach marc --client anna --start '2026-12-01 18:00' \\
                      --repeat 'FREQ=WEEKLY;COUNT=8' --id anna-tue
                """)
        @Option(help: "The coach.") var coach: String
        @Option(help: "The client (one of the coach's).") var client: String
        @Option(help: "When it starts, 'YYYY-MM-DD HH:MM' (with --repeat, the first).") var start: String
        @Option(parsing: .unconditional, help: "How long it lasts.", transform: WholeNumber.minutes) var minutes = 60
        @Option(name: .customLong("repeat"), help: "Book it on every date a rule gives, such as 'FREQ=WEEKLY;COUNT=8' (COUNT or UNTIL, within a year).") var rule: String?
        @OptionGroup var details: SessionDetails
        @OptionGroup var busy: BusyOptions
        @OptionGroup var book: BookOptions
        @OptionGroup var outbox: OutboxOptions

        func validate() throws {
            if let rule {
                do { _ = try RecurrenceRule(parsing: rule) } catch { throw ValidationError("--repeat: \(error.description); write a rule such as 'FREQ=WEEKLY;COUNT=8'") }
            }
        }

        func run() async throws {
            if let rule { return try await addRepeating(try RecurrenceRule(parsing: rule)) }
            let (coach, client, minutes, typed, book, d) = (coach, client, minutes, start, book, details)
            let color = try d.color.map(parseColor)
            let elsewhere = try await busy.around(typed, coach: coach, book: book)
            let (s, clock) = try await book.change(telling: outbox) { b in
                let clock = try book.clock(for: b)
                let start = try clock.instant(typed: typed, option: "--start")
                try elsewhere.map { try b.setBusyElsewhere($0, coach: coach) }
                return (try b.addSession(id: d.id, coach: coach, client: client, startingAt: start, duration: .minutes(minutes), location: d.location, notes: d.notes,
                                         color: color, workoutType: d.type, now: try book.instant(in: b)), clock)
            }
            print("Booked session \(s.id): \(client) with \(coach), \(clock.said(s))\(s.workoutType.map { ", " + $0.shown } ?? "")\(s.location.map { " at " + $0.shown } ?? "").")
        }

        /// `--repeat`: every date the rule gives, each booked or refused.
        private func addRepeating(_ rule: RecurrenceRule) async throws {
            let (coach, client, minutes, typed, book, d) = (coach, client, minutes, start, book, details)
            let color = try d.color.map(parseColor)
            let elsewhere = try await busy.around(typed, coach: coach, book: book, days: SchedulingBook.repeatingSessionMaxDays + 1)
            let (dates, clock) = try await book.change(telling: outbox) { b in
                let clock = try book.clock(for: b)
                let start = b.reading(Int64(try clock.instant(typed: typed, option: "--start").timeIntervalSince1970))
                try elsewhere.map { try b.setBusyElsewhere($0, coach: coach) }
                let dates = try b.addRepeatingSession(series: d.id, coach: coach, client: client, start: start.wall, isLaterOfRepeatedTime: start.isLater,
                                                      duration: .minutes(minutes), repeating: rule,
                                                      location: d.location, notes: d.notes, color: color, workoutType: d.type, now: try book.instant(in: b))
                // Nothing booked is a refusal: the book is left as it was.
                guard dates.contains(where: { $0.session != nil }) else { throw RepeatRefused(dates: dates, clock: clock, done: "booked") }
                return (dates, clock)
            }
            let series = dates.compactMap(\.session).first?.series ?? ""
            print("Booked \(RepeatRefused.count(dates)) of series \(series): \(client) with \(coach).")
            for line in RepeatRefused.lines(dates, clock: clock) { print(line) }
        }
    }

    /// A repeating session none of whose dates could be booked (or moved).
    struct RepeatRefused: Error, CustomStringConvertible {
        let dates: [RepeatedSession]
        let clock: BookClock
        /// What was asked: "booked" or "moved".
        let done: String

        var description: String {
            (dates.count == 1 ? "the session could not be \(done)" : "none of the \(dates.count) sessions could be \(done)")
                + "; nothing was \(done):\n" + Self.lines(dates, clock: clock).joined(separator: "\n")
        }

        /// "3 of 4 sessions", "1 of 1 session".
        static func count(_ dates: [RepeatedSession]) -> String {
            "\(dates.compactMap(\.session).count) of \(dates.count) session\(dates.count == 1 ? "" : "s")"
        }

        /// One line a date: its session booked or moved, or which stayed unbooked or unmoved and why.
        static func lines(_ dates: [RepeatedSession], clock: BookClock) -> [String] {
            dates.map { date in
                switch date.outcome {
                case .done(let s): "  \(s.id)  \(clock.said(s))"
                case .refused(let error): "  \(date.id)  refused \(clock.said(date.start, minutes: date.duration.wholeMinutes)): \(error.description)"
                }
            }
        }
    }

    struct Log: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "log",
            abstract: "Record a training that already took place, unbooked, as completed.",
            discussion: """
                The session must have ended by now, and may not overlap another of the \
                coach's or the client's; the rules for booking time to come (hours, buffer, \
                notice) do not apply, and nobody is invited. It is completed when it ended, \
                or at --at.

                Example:
                  horari sessions log --coach marc --client anna --start '2026-11-17 19:00' \\
                      --minutes 45 --type Strength --notes '5x5 squat 80 kg'
                """)
        @Option(help: "The coach.") var coach: String
        @Option(help: "The client (one of the coach's).") var client: String
        @Option(help: "When it started, 'YYYY-MM-DD HH:MM'.") var start: String
        @Option(parsing: .unconditional, help: "How long it lasted.", transform: WholeNumber.minutes) var minutes = 60
        @Option(help: "When it was completed, 'YYYY-MM-DD HH:MM' (default: when it ended).") var at: String?
        @OptionGroup var details: SessionDetails
        @OptionGroup var book: BookOptions

        func run() async throws {
            let (coach, client, minutes, typed, at, book, d) = (coach, client, minutes, start, at, book, details)
            let color = try d.color.map(parseColor)
            let (s, clock) = try await book.change { b in
                let clock = try book.clock(for: b)
                let start = try clock.instant(typed: typed, option: "--start")
                let done = try at.map { try clock.instant(typed: $0, option: "--at") }
                return (try b.logSession(id: d.id, coach: coach, client: client, startingAt: start, duration: .minutes(minutes), location: d.location, notes: d.notes,
                                         color: color, workoutType: d.type, completedAt: done, now: try book.instant(in: b)), clock)
            }
            print("Logged session \(s.id): \(client) with \(coach), \(clock.said(s))\(s.workoutType.map { ", " + $0.shown } ?? ""), completed \(clock.completed(s)).")
        }
    }

    struct Policy: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "policy",
            abstract: "Show or set the rules every new or moved session keeps besides clashes.",
            discussion: """
                The rules are kept with the book, so every program booking into it keeps them. \
                A new book refuses a session outside its coach's hours, one that starts in the \
                past and one at a wall time the clocks skip, and asks no notice.

                Examples:
                  horari sessions policy
                  horari sessions policy --notice 120
                  horari sessions policy --past allow --outside-hours allow
                """)
        enum Allowance: String, ExpressibleByArgument, CaseIterable { case refuse, allow }
        @Option(parsing: .unconditional, help: "How many minutes ahead of its start a session must be booked or moved (0 for none).",
                transform: WholeNumber.notice) var notice: Int?
        @Option(help: "A session that starts before now: refuse or allow.") var past: Allowance?
        @Option(help: "A session outside its coach's working hours: refuse or allow.") var outsideHours: Allowance?
        @Option(help: "A session at a wall time the clocks skip: refuse, or allow (it moves forward by the gap).") var skippedTimes: Allowance?
        @Option(help: "text or json.") var format: OutputFormat = .text
        @OptionGroup var book: BookOptions

        func run() async throws {
            let (notice, past, outsideHours, skippedTimes) = (notice, past, outsideHours, skippedTimes)
            let b: SchedulingBook
            if notice == nil, past == nil, outsideHours == nil, skippedTimes == nil {
                b = try await book.read()
            } else {
                b = try await book.change { b in
                    var p = b.policy ?? .nothingRefused
                    if let notice { p.minimumNotice = .seconds(notice * 60) }
                    if let past { p.notInPast = past == .refuse }
                    if let outsideHours { p.withinWorkingHours = outsideHours == .refuse }
                    if let skippedTimes { p.refuseSkippedTimes = skippedTimes == .refuse }
                    b.policy = p
                    return b
                }
            }
            let p = b.policy ?? .nothingRefused
            if format == .json { return try printJSON(SessionPolicyJSON(p), command: "sessions policy", timeZone: try book.clock(for: b).display.name) }
            func said(_ refused: Bool) -> String { refused ? "refused" : "allowed" }
            let minutes = p.minimumNotice.components.seconds / 60
            print("A session outside its coach's hours: \(said(p.withinWorkingHours))")
            print("A session that starts in the past: \(said(p.notInPast))")
            print("Notice: " + (minutes > 0 ? "\(minutes) minute\(minutes == 1 ? "" : "s") before the start" : "none"))
            print("A wall time the clocks skip: \(p.refuseSkippedTimes ? "refused" : "moved forward by the gap")")
        }
    }

    struct ListSessions: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list", abstract: "List a coach's upcoming sessions (or, with --past, their history, newest first).",
            discussion: "Example:\n  horari sessions list --coach marc --limit 5")
        @Option(help: "The coach.") var coach: String
        @Flag(help: "Past sessions, newest first, whatever their status.") var past = false
        @Option(parsing: .unconditional, help: "The most sessions to show.", transform: WholeNumber.limit) var limit = 10
        @OptionGroup var output: SessionOutput
        @OptionGroup var book: BookOptions

        func run() async throws {
            let b = try await book.read()
            let now = try book.instant(in: b)
            let clock = try book.clock(for: b)
            let sessions: [Session]
            do {
                sessions = past ? try b.pastSessions(coach: coach, before: now, limit: limit) : try b.upcomingSessions(coach: coach, after: now, limit: limit)
            } catch { throw CLIError(error.description) }
            try output.print(sessions, book: b, clock: clock, command: "sessions list", none: past ? "No past sessions." : "No upcoming sessions.")
        }
    }

    struct Move: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "move",
            abstract: "Move a session to another time; a clash is refused.",
            discussion: """
                With --and-following (a session of a repeating one): it and every later \
                one of its series, each by the same shift on the clock (from Tuesdays \
                18:00 to Wednesdays 19:00), each moved or left with why.

                Examples:
                  horari sessions move s1 --coach marc --start '2026-11-27 10:00'
                  horari sessions move anna-tue-20261215 --coach marc \\
                      --start '2026-12-16 19:00' --and-following
                """)
        @Argument(help: "The session's ID.") var id: String
        @Option(help: "The coach.") var coach: String
        @Option(help: "The new start, 'YYYY-MM-DD HH:MM'.") var start: String
        @Flag(help: "Move every later session of its repeating series by the same shift too.") var andFollowing = false
        @Option(parsing: .unconditional, help: "A new length.", transform: WholeNumber.minutes) var minutes: Int?
        @Option(help: "A new colour: a CSS name or #RRGGBB, not red ('' takes the client's or coach's again).") var color: String?
        @Option(help: "A new kind of workout ('' removes it).") var type: String?
        @OptionGroup var busy: BusyOptions
        @OptionGroup var book: BookOptions
        @OptionGroup var outbox: OutboxOptions

        func validate() throws {
            if andFollowing && (color != nil || type != nil) { throw ValidationError("--and-following moves sessions; change their colour or type one by one") }
        }

        func run() async throws {
            if andFollowing { return try await moveFollowing() }
            let (id, coach, minutes, typed, book, type) = (id, coach, minutes, start, book, type)
            let color: ItemColor?? = try self.color.map { $0.isEmpty ? nil : try parseColor($0) }
            let elsewhere = try await busy.around(typed, coach: coach, book: book)
            let (s, clock) = try await book.change(telling: outbox) { b in
                let clock = try book.clock(for: b)
                let start = try clock.instant(typed: typed, option: "--start")
                try elsewhere.map { try b.setBusyElsewhere($0, coach: coach) }
                var s = try b.moveSession(id, coach: coach, toInstant: start, duration: minutes.map { .minutes($0) }, now: try book.instant(in: b))
                if color != nil || type != nil {
                    s = try b.styleSession(id, coach: coach, color: color ?? s.color, workoutType: type.map { $0.isEmpty ? nil : $0 } ?? s.workoutType)
                }
                return (s, clock)
            }
            print("Moved session \(s.id) to \(clock.said(s)).")
        }

        /// `--and-following`: the session and every later one of its series.
        private func moveFollowing() async throws {
            let (id, coach, minutes, typed, book) = (id, coach, minutes, start, book)
            let elsewhere = try await busy.around(typed, coach: coach, book: book, days: SchedulingBook.repeatingSessionMaxDays + 1)
            let (dates, clock) = try await book.change(telling: outbox) { b in
                let clock = try book.clock(for: b)
                let start = b.reading(Int64(try clock.instant(typed: typed, option: "--start").timeIntervalSince1970))
                try elsewhere.map { try b.setBusyElsewhere($0, coach: coach) }
                let dates = try b.moveSessions(from: id, coach: coach, to: start.wall, isLaterOfRepeatedTime: start.isLater,
                                               duration: minutes.map { .minutes($0) }, now: try book.instant(in: b))
                guard dates.contains(where: { $0.session != nil }) else { throw RepeatRefused(dates: dates, clock: clock, done: "moved") }
                return (dates, clock)
            }
            print("Moved \(RepeatRefused.count(dates)) from \(id) on:")
            for line in RepeatRefused.lines(dates, clock: clock) { print(line) }
        }
    }

    struct Cancel: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "cancel",
            abstract: "Cancel a session; its time is free again.",
            discussion: """
                With --and-following (a session of a repeating one): it and every later \
                one of its series still scheduled; the earlier ones stay.

                Examples:
                  horari sessions cancel s1 --coach marc
                  horari sessions cancel anna-tue-20261222 --coach marc --and-following
                """)
        @Argument(help: "The session's ID.") var id: String
        @Option(help: "The coach.") var coach: String
        @Flag(help: "Cancel every later session of its repeating series too.") var andFollowing = false
        @OptionGroup var book: BookOptions
        @OptionGroup var outbox: OutboxOptions

        func run() async throws {
            let (id, coach) = (id, coach)
            if andFollowing {
                let cancelled = try await book.change(telling: outbox) { b in try b.cancelSessions(from: id, coach: coach, now: try book.instant(in: b)) }
                print("Cancelled \(cancelled.count) session\(cancelled.count == 1 ? "" : "s"): \(cancelled.map(\.id).joined(separator: ", ")).")
                return
            }
            try await book.change(telling: outbox) { b in try b.setStatus(.cancelled, ofSession: id, coach: coach, now: try book.instant(in: b)) }
            print("Cancelled session \(id).")
        }
    }

    struct Mark: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "mark",
            abstract: "Mark a session completed or a no-show once it has started, or undo a mark.",
            discussion: """
                Examples:
                  horari sessions mark s1 --coach marc --status completed
                  horari sessions mark s1 --coach marc --status completed \\
                      --at '2026-11-17 19:45'
                  horari sessions mark s1 --coach marc --status scheduled
                """)
        @Argument(help: "The session's ID.") var id: String
        @Option(help: "completed, no-show, or scheduled (undoes a mark).") var status: String
        @Option(help: "The coach.") var coach: String
        @Option(help: "With --status completed: when it really ended, 'YYYY-MM-DD HH:MM', from its start to now (default: now).") var at: String?
        @OptionGroup var book: BookOptions

        func run() async throws {
            guard let status = SessionStatus(rawValue: status), status != .cancelled else {
                throw ValidationError("--status ‘\(self.status)’: use completed, no-show or scheduled (to undo a mark); `horari sessions cancel` cancels one")
            }
            guard at == nil || status == .completed else { throw ValidationError("--at is when a session was completed; give it with --status completed") }
            let (id, coach, at) = (id, coach, at)
            let (was, s, clock) = try await book.change { b in
                let old = try b.session(id, coach: coach).status
                let clock = try book.clock(for: b)
                let done = try at.map { try clock.instant(typed: $0, option: "--at") }
                let s = try b.setStatus(status, ofSession: id, coach: coach, now: try book.instant(in: b), completedAt: done)
                return (old, s, clock)
            }
            if status == .scheduled {
                print(was == .scheduled ? "Session \(id) is scheduled already; nothing changed." : "Session \(id) is scheduled again (it was \(was.rawValue)).")
            } else if status == .completed {
                print("Marked session \(id) completed \(clock.completed(s)).")
            } else {
                print("Marked session \(id) \(status.rawValue).")
            }
        }
    }

    struct Free: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "free",
            abstract: "List a coach's free slots of a length, from their working hours and sessions.",
            discussion: "Example:\n  horari sessions free --coach marc --from 2026-11-23 --to 2026-11-29")
        @Option(help: "The coach.") var coach: String
        @Option(help: "The first date, YYYY-MM-DD (default: today).") var from: String?
        @Option(help: "The last date, included (default: a week on).") var to: String?
        @Option(parsing: .unconditional, help: "The slot's length.", transform: WholeNumber.minutes) var minutes = 60
        @Option(help: "Minutes between offered starts (default: the length).") var step: Int?
        @Option(parsing: .unconditional, help: "Start every slot on this many minutes past the hour (15: :00, :15, :30, :45); 1 for any minute.", transform: WholeNumber.minutes) var align = 15
        @Option(help: "text: the free slots; ics: the coach's free and busy time as a VFREEBUSY (sessions with their buffers BUSY, hours not worked BUSY-UNAVAILABLE).")
        var format: FreeFormat = .text
        @OptionGroup var busy: BusyOptions
        @OptionGroup var book: BookOptions

        enum FreeFormat: String, ExpressibleByArgument, CaseIterable { case text, ics }

        func run() async throws {
            var b = try await book.read()
            let now = try book.instant(in: b)
            let today = try book.today(in: b)
            let clock = try book.clock(for: b)
            let first = try parseDate(from, option: "--from", default: today)
            let last = try parseDate(to, option: "--to", default: first.adding(days: 6))
            guard first <= last else { throw ValidationError("--to \(last) is before --from \(first)") }
            let (start, end) = (first.start(in: b.timeZone), last.adding(days: 1).start(in: b.timeZone))
            if !busy.busy.isEmpty {
                let periods = try await busy.periods(from: start, to: end, zone: b.timeZone)
                do { try b.setBusyElsewhere(periods, coach: coach) } catch { throw CLIError(error.description) }
            }
            if format == .ics {
                let c: Coach, periods: [FreeBusyPeriod]
                do { (c, periods) = (try b.coach(coach), try b.freeBusy(coach: coach, in: DateInterval(start: start, end: end))) } catch { throw CLIError(error.description) }
                let calendar = ICalendar.freeBusy(periods, from: start, to: end, uid: "freebusy-\(coach)-\(first.basicISO)@horari",
                                                  organizer: c.email.map { (c.name, $0) }, method: c.email == nil ? nil : "PUBLISH")
                return print(ICalendarExporter(options: .init(timestamp: now)).export(calendar), terminator: "")
            }
            do {
                let slots = try b.freeSlots(coach: coach, from: first, through: last, length: .minutes(minutes), step: step.map { .minutes($0) }, alignedTo: .minutes(align), notBefore: now)
                if slots.isEmpty { print("No free slots of \(minutes) minutes.") }
                for s in slots { print(clock.display.span(from: s.startSeconds, to: s.endSeconds)) }
            } catch { throw CLIError(error.description) }
        }
    }
}

// MARK: - Classes and bookings

/// `horari classes add|timetable|cancel`.
struct Classes: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "classes",
        abstract: "The gym's weekly classes: add one, show the timetable, cancel or move an occurrence.",
        discussion: """
            Examples:
              horari classes add yoga --title Yoga --days MO,WE --time 18:30 --capacity 12
              horari classes edit yoga --description 'Hatha yoga for every level'
              horari classes timetable --week 2026-11-23
              horari classes cancel yoga --date 2026-12-07
            """,
        subcommands: [Add.self, Edit.self, Timetable.self, CancelOccurrence.self, MoveOccurrence.self, Change.self, End.self, Policy.self,
                      Close.self, Open.self, Closures.self, Hours.self])

    /// `horari classes policy`: the gym's rules for booking its classes.
    struct Policy: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "policy",
            abstract: "Show or set the gym's booking rules: a booking window, a cancellation cut-off, a weekly limit.",
            discussion: """
                The rules are kept in the calendar, so every booking into it keeps them. \
                A place cannot be given up within the cut-off (a waiting place always \
                can); 'none' removes a rule.

                Examples:
                  horari classes policy
                  horari classes policy --window 14 --cutoff 12 --weekly-limit 3
                  horari classes policy --cutoff none
                """)
        // `.unconditional`: a mistyped -3 reaches the command's own check ("cannot be negative"), not "missing value".
        @Option(parsing: .unconditional, help: "How many days ahead a place can be booked, or 'none'.") var window: String?
        @Option(parsing: .unconditional, help: "How many hours before the start a place can no longer be given up, or 'none'.") var cutoff: String?
        @Option(parsing: .unconditional, help: "The most places a member may hold in one week, or 'none'.") var weeklyLimit: String?
        @Option(help: "text or json.") var format: OutputFormat = .text
        @OptionGroup var book: BookOptions

        func run() async throws {
            func number(_ text: String?, _ option: String, _ range: ClosedRange<Int>) throws -> Int?? {
                guard let text else { return .none }
                if text == "none" { return .some(nil) }
                guard let n = Int(text), range.contains(n) else {
                    throw ValidationError("\(option) ‘\(text.prefix(20))’ is not a whole number from \(range.lowerBound) to \(range.upperBound), nor 'none'")
                }
                return .some(n)
            }
            let window = try number(self.window, "--window", 0...3660)
            let cutoff = try number(self.cutoff, "--cutoff", 0...720)
            let limit = try number(self.weeklyLimit, "--weekly-limit", 1...1000)
            // The JSON envelope's zone is read from the calendar read or changed here, not from a second reading.
            let (format, timeZone) = (format, book.timeZone)
            func zone(of calendar: ICalendar) throws -> String { format == .json ? try Clock(option: timeZone, calendar: calendar).name : "" }
            let policy: ClassBookingPolicy?, zoneName: String
            if window == nil, cutoff == nil, limit == nil {
                guard try book.place.exists else { throw noCalendarYet(try book.place) }
                let calendar = try await loadExistingCalendar(try book.place, quiet: true).calendar
                do throws(SchedulingError) { policy = try calendar.classBookingPolicy() } catch { throw CLIError(error.description) }
                zoneName = try zone(of: calendar)
            } else {
                (policy, zoneName) = try await book.updateCalendar { calendar in
                    var policy: ClassBookingPolicy
                    do throws(SchedulingError) {
                        policy = try calendar.classBookingPolicy() ?? ClassBookingPolicy()
                        if let window { policy.bookingWindowDays = window }
                        if let cutoff { policy.cancellationCutoff = cutoff.map { .seconds($0 * 3600) } }
                        if let limit { policy.weeklyLimit = limit }
                        try calendar.setClassBookingPolicy(policy == ClassBookingPolicy() ? nil : policy)
                    } catch { throw CLIError(error.description) }
                    return (policy, try zone(of: calendar))
                }
            }
            let p = policy ?? ClassBookingPolicy()
            if format == .json { return try printJSON(PolicyJSON(p), command: "classes policy", timeZone: zoneName) }
            print("Booking window: " + (p.bookingWindowDays.map { "\($0) day\($0 == 1 ? "" : "s") ahead" } ?? "none"))
            print("Cancellation cut-off: " + (p.cancellationCutoff.map { "\($0.components.seconds / 3600) hours before the start" } ?? "none"))
            print("Weekly limit: " + (p.weeklyLimit.map { "\($0) place\($0 == 1 ? "" : "s") a week" } ?? "none"))
        }
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: "Add a weekly class with a number of places.",
            discussion: "Example:\n  horari classes add yoga --title Yoga --days MO,WE --time 18:30 \\\n      --minutes 60 --capacity 12 --location 'Sala 2' --from 2026-09-07 \\\n      --description 'Hatha yoga for every level' --url https://gym.example/yoga")
        @Argument(help: "The class's ID.") var id: String
        @Option(help: "Its name.") var title: String
        @Option(help: "The weekdays it meets, such as MO,WE or MO-FR.") var days: String
        @Option(help: "When it starts, HH:MM.") var time: String
        @Option(parsing: .unconditional, help: "How long it lasts.", transform: WholeNumber.minutes) var minutes = 60
        @Option(parsing: .unconditional, help: "How many members it takes.", transform: WholeNumber.places) var capacity: Int
        @Option(help: "Where.") var location: String?
        @Option(help: "Who teaches it.") var instructor: String?
        @Option(help: "Its colour: a CSS name or #RRGGBB (not red, which marks busy days).") var color: String?
        @Option(help: "What it is, for people choosing a class (exported as DESCRIPTION).") var description: String?
        @Option(help: "A page about it: an http or https address (exported as URL).") var url: String?
        @Option(help: "A picture of it: an http or https address (exported as IMAGE).") var image: String?
        @Option(help: "The first date, YYYY-MM-DD (default: today).") var from: String?
        @Option(help: "The last date, YYYY-MM-DD (default: no end).") var until: String?
        @OptionGroup var book: BookOptions

        func run() async throws {
            let current = try await book.readOrNew()
            let today = try book.today(in: current)
            let start: TimeOfDay
            do { start = try TimeOfDay(parsing: time) } catch { throw ValidationError("--time ‘\(time)’: \(error.description)") }
            let colour = try color.map(parseColor)
            let series = ClassSeries(
                id: id, title: title, weekdays: try parseWeekdays(days, option: "--days"), time: start, duration: .minutes(minutes), capacity: capacity,
                location: location, instructor: instructor, color: colour, firstDate: try parseDate(from, option: "--from", default: today),
                lastDate: try until.map { try parseDate($0, option: "--until", default: today) },
                description: description.flatMap { $0.isEmpty ? nil : $0 }, url: url.flatMap { $0.isEmpty ? nil : $0 }, image: image.flatMap { $0.isEmpty ? nil : $0 })
            let added = try await book.change { b in
                try b.addClass(series)
                return try b.classSeries(series.id)
            }
            print("Added class \(id): \(title), \(added.weekdays.map(\.icalCode).joined(separator: ",")) at \(added.time) for \(minutes) minutes, \(capacity) places, from \(added.firstDate).")
        }
    }

    struct Timetable: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "timetable",
            abstract: "Show the weekly timetable; with --week, that week's classes and places left.",
            discussion: "Examples:\n  horari classes timetable\n  horari classes timetable --week 2026-11-23")
        @Option(help: "A date in the week whose occurrences to show, YYYY-MM-DD.") var week: String?
        @Option(help: "text or json.") var format: OutputFormat = .text
        @OptionGroup var book: BookOptions

        func run() async throws {
            let b = try await book.read()
            let shown = try book.clock(for: b)
            if format == .json {
                var body = TimetableJSON()
                if let week {
                    let day = try parseDate(week, option: "--week")
                    let monday = day.adding(days: -day.weekday.rawValue)
                    body.occurrences = b.occurrences(from: monday, through: monday.adding(days: 6)).map { ClassOccurrenceJSON($0, clock: shown) }
                } else {
                    let today = try book.today(in: b)
                    body.classes = b.classes.filter { $0.lastDate.map { $0 >= today } ?? true }.map(ClassJSON.init)
                }
                return try printJSON(body, command: "classes timetable", timeZone: shown.display.name)
            }
            if let week {
                let day = try parseDate(week, option: "--week")
                let monday = day.adding(days: -day.weekday.rawValue)
                if let header = shown.display.header() { print(header) }
                for o in b.occurrences(from: monday, through: monday.adding(days: 6)) {
                    let words = CalendarNames.english
                    let state = o.closure.map { "closed: \($0.reason.shown)" } ?? (o.isCancelled ? words.words.cancelled : nil)
                        ?? (o.placesLeft == 0 ? "\(words.words.full), \(words.waiting(o.waiting))" : words.placesLeft(o.placesLeft, of: o.capacity))
                    print("\(shown.span(o.start, minutes: o.duration.wholeMinutes))  \(o.title.shown)  (\(state))\(o.isMoved ? "  moved from \(o.id.date) \((try? b.classSeries(o.id.classID).time.description) ?? "")" : "")  [\(o.id.classID)]")
                }
                return
            }
            // The weekly times are the book's own wall times, whatever --time-zone says.
            if !b.classes.isEmpty, let header = try Clock(named: b.timeZone.identifier).header() { print(header) }
            let names = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
            // A class that ended before today (an earlier part of a class
            // changed from a date on, a class ended) is off the timetable.
            let today = try book.today(in: b)
            // Whether the class meets on this weekday from today on.
            func ahead(_ c: ClassSeries, _ weekday: Weekday) -> Bool {
                let from = max(today, c.firstDate)
                let next = from.adding(days: (weekday.rawValue - from.weekday.rawValue + 7) % 7)
                return c.lastDate.map { next <= $0 } ?? true
            }
            for day in b.timetable where day.classes.contains(where: { ahead($0, day.weekday) }) {
                print(names[day.weekday.rawValue])
                for c in day.classes where ahead(c, day.weekday) {
                    let end = clock(LocalDateTime(localSeconds: Int64(c.time.minutes + c.duration.wholeMinutes) * 60))
                    // A class that begins later, or ends, says when (a class changed from a date on is two).
                    let dates = (c.firstDate > today ? ["from \(c.firstDate)"] : []) + (c.lastDate.map { ["until \($0)"] } ?? [])
                    let details = ["\(c.capacity) places"] + [c.location, c.instructor].compactMap { $0 } + dates
                    print("  \(c.time)–\(end)  \(c.title.shown)  (\(details.joined(separator: ", ")))  [\(c.id)]")
                }
            }
            if b.classes.isEmpty { print("No classes yet; add one with `horari classes add`.") }
        }
    }

    struct CancelOccurrence: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "cancel", abstract: "Cancel one occurrence of a class; its bookings are removed and listed.",
            discussion: "Example:\n  horari classes cancel yoga --date 2026-12-07")
        @Argument(help: "The class's ID.") var id: String
        @Option(help: "The occurrence's date, YYYY-MM-DD.") var date: String
        @OptionGroup var book: BookOptions
        @OptionGroup var outbox: OutboxOptions

        func run() async throws {
            let date = try parseDate(self.date, option: "--date")
            let id = id
            let cancel = { (b: inout SchedulingBook) throws in try b.cancelOccurrence(classID: id, on: date) }
            let affected = try await book.changeOccurrence(classID: id, on: date, telling: outbox, cancel)
            print("Cancelled \(id) on \(date).")
            if !affected.confirmed.isEmpty { print("Tell these members their place is gone: \(affected.confirmed.joined(separator: ", ")).") }
            if !affected.waitlisted.isEmpty { print("Tell these members the waitlist is gone: \(affected.waitlisted.joined(separator: ", ")).") }
        }
    }
}

extension Classes {
    struct MoveOccurrence: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "move", abstract: "Move one occurrence of a class to another time; its bookings go with it.",
            discussion: "Example:\n  horari classes move yoga --date 2026-11-25 --start '2026-11-25 19:30'")
        @Argument(help: "The class's ID.") var id: String
        @Option(help: "The occurrence's date by the timetable, YYYY-MM-DD.") var date: String
        @Option(help: "The new start, 'YYYY-MM-DD HH:MM'.") var start: String
        @Option(parsing: .unconditional, help: "A new length.", transform: WholeNumber.minutes) var minutes: Int?
        @OptionGroup var book: BookOptions
        @OptionGroup var outbox: OutboxOptions

        func run() async throws {
            let date = try parseDate(self.date, option: "--date")
            let (id, minutes, typed, book) = (id, minutes, start, book)
            let move = { (b: inout SchedulingBook) throws -> (ClassOccurrence, BookClock) in
                let clock = try book.clock(for: b)
                let start = try clock.bookWall(typed: typed, option: "--start")
                return (try b.moveOccurrence(classID: id, on: date, to: start, duration: minutes.map { .minutes($0) }), clock)
            }
            let (o, clock) = try await book.changeOccurrence(classID: id, on: date, telling: outbox, move)
            print("Moved \(o.title.shown) of \(date) to \(clock.said(o.start, minutes: o.duration.wholeMinutes)); its \(o.booked) booking(s) and \(o.waiting) waiting stay.")
        }
    }
}

/// `horari book`.
struct Book: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "book",
        abstract: "Book a member a place in one dated occurrence of a class, or in every date of a range.",
        discussion: """
            A full class is refused (exit 1) unless --waitlist is given; then the member \
            joins the waitlist and is told their place in it.

            With --from and --until, a standing booking: every date the class meets in \
            the range (--until included, up to a year) is booked as one booking is, and \
            each date says what happened (booked, waitlisted, full, or why not). \
            `horari cancel --from` gives them up from a date on.

            Examples:
              horari book --member marta --class yoga --date 2026-11-23
              horari book --member marta --class yoga --date 2026-11-23 --waitlist
              horari book --member marta --class yoga --from 2026-11-30 --until 2026-12-31
              horari book --member marta --list
            """)
    @Option(help: "The member.") var member: String
    @Option(name: .customLong("class"), help: "The class's ID.") var classID: String?
    @Option(help: "The occurrence's date, YYYY-MM-DD.") var date: String?
    @Option(help: "A standing booking's first date, YYYY-MM-DD (with --until).") var from: String?
    @Option(help: "A standing booking's last date, included, YYYY-MM-DD (with --from).") var until: String?
    @Flag(help: "Join the waitlist when the class is full.") var waitlist = false
    @Flag(help: "List the member's bookings and waitlists instead.") var list = false
    @Option(help: "With --list: text or json.") var format: OutputFormat = .text
    @OptionGroup var book: BookOptions
    @OptionGroup var outbox: OutboxOptions

    func validate() throws {
        if list, from != nil || until != nil { throw ValidationError("--list shows every booking; give it without --from and --until") }
        // A range typed the wrong way round, or too long, is a usage error, as a negative length is.
        if let from, let until {
            let (first, last) = (try parseDate(from, option: "--from"), try parseDate(until, option: "--until"))
            if last < first { throw ValidationError("--until \(last) is before --from \(first); the last date comes after the first") }
            if last.dayNumber - first.dayNumber >= SchedulingBook.standingBookingMaxDays {
                throw ValidationError("--from \(first) --until \(last): a standing booking covers at most \(SchedulingBook.standingBookingMaxDays) days; book a year at a time")
            }
        }
    }

    func run() async throws {
        if list { return try await printBookings() }
        if from != nil || until != nil { return try await bookStanding() }
        guard let classID, let dateText = date else { throw ValidationError("give --class and --date, or --from and --until (or --list)") }
        let date = try parseDate(dateText, option: "--date")
        let member = member, whenFull: WhenFull = waitlist ? .joinWaitlist : .refuse
        let options = book
        func booking(_ b: inout SchedulingBook, now: Date) throws -> (BookingOutcome, ClassOccurrence, BookClock) {
            let outcome = try b.book(member: member, classID: classID, on: date, now: now, whenFull: whenFull)
            return (outcome, try b.occurrence(classID: classID, on: date), try options.clock(for: b))
        }
        let (outcome, occurrence, clock) = try await book.changeOccurrence(classID: classID, on: date, members: [member], telling: outbox) { b in
            try booking(&b, now: try options.instant(in: b))
        }
        switch outcome {
        case .confirmed:
            print("Booked \(member) into \(occurrence.title.shown), \(clock.said(occurrence.start, minutes: occurrence.duration.wholeMinutes)) (\(occurrence.placesLeft) of \(occurrence.capacity) places left).")
        case .waitlisted(let position):
            print("\(occurrence.title.shown), \(clock.said(occurrence.start, minutes: occurrence.duration.wholeMinutes)) is full; \(member) is number \(position) on the waitlist.")
        }
    }

    /// `--from … --until …`: every date of the range, reported by date.
    private func bookStanding() async throws {
        guard date == nil else { throw ValidationError("give --date for one occurrence, or --from and --until for every date of a range, not both") }
        guard let classID, let fromText = from, let untilText = until else { throw ValidationError("a standing booking needs --class, --from and --until") }
        let (first, last) = (try parseDate(fromText, option: "--from"), try parseDate(untilText, option: "--until"))
        let member = member, whenFull: WhenFull = waitlist ? .joinWaitlist : .refuse, options = book
        let (dates, clock, title) = try await book.change(telling: outbox, classes: true) { b in
            let dates = try b.bookStanding(member: member, classID: classID, from: first, through: last, now: try options.instant(in: b), whenFull: whenFull)
            return (dates, try options.clock(for: b), try b.classSeries(classID).title)
        }
        guard !dates.isEmpty else { throw CLIError("\(title.shown) does not meet from \(first) to \(last); nothing was booked") }
        if let header = clock.display.header() { print(header) }
        // The range is of the book's dates; said when the times are shown on another clock.
        let dated = clock.display.name == clock.book.identifier ? "" : " (dates on \(clock.book.identifier)'s calendar)"
        print("Standing booking of \(member) into \(title.shown), \(first) to \(last)\(dated):")
        var counts: [String: Int] = [:]
        for d in dates {
            let when = d.occurrence.map { clock.span($0.start, minutes: $0.duration.wholeMinutes) } ?? "\(d.date)"
            let (said, kind): (String, String)
            switch d.outcome {
            case .booked: (said, kind) = ("booked", "booked")
            case .waitlisted(let position): (said, kind) = ("full; waitlist #\(position)", "waitlisted")
            case .alreadyHeld: (said, kind) = ("held already", "held already")
            case .alreadyWaiting(let position): (said, kind) = ("waiting already, #\(position)", "waiting already")
            case .cancelled: (said, kind) = ("given up", "given up")
            case .refused(let why): (said, kind) = ("not booked: \(why.description)", "not booked")
            }
            counts[kind, default: 0] += 1
            print("  \(when)  \(said)")
        }
        let summary = ["booked", "waitlisted", "held already", "waiting already", "not booked"].compactMap { k in counts[k].map { "\($0) \(k)" } }
        print(summary.joined(separator: ", ") + ".")
        // Nothing booked and nothing held: the request did nothing, and says so as every refusal does.
        if counts["not booked"] == dates.count { throw CLIError("no date from \(first) to \(last) could be booked (each says why above)") }
    }

    private func printBookings() async throws {
        let b = try await book.read()
        let clock = try book.clock(for: b)
        let booked: [ClassOccurrence], waiting: [(ClassOccurrence, Int)]
        do { (booked, waiting) = (try b.bookings(member: member), try b.waitlists(member: member)) } catch { throw CLIError(error.description) }
        if format == .json {
            return try printJSON(BookingsJSON(member: member, booked: booked, waiting: waiting, clock: clock), command: "book --list", timeZone: clock.display.name)
        }
        if booked.isEmpty && waiting.isEmpty { print("\(member) has no bookings.") }
        for o in booked { print("\(clock.span(o.start, minutes: o.duration.wholeMinutes))  \(o.title.shown)  booked") }
        for (o, p) in waiting { print("\(clock.span(o.start, minutes: o.duration.wholeMinutes))  \(o.title.shown)  waitlist #\(p)") }
    }
}

/// `horari cancel`.
struct CancelBooking: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cancel",
        abstract: "Give up a member's place (or place on the waitlist); the first on the waitlist moves up.",
        discussion: """
            With --from, gives up every place (and waiting place) the member holds in \
            the class from that date on: a standing booking ended. A date that cannot be \
            given up (started, or within the cancellation cut-off) is said and kept.

            Examples:
              horari cancel --member marta --class yoga --date 2026-11-23
              horari cancel --member marta --class yoga --from 2026-12-14
            """)
    @Option(help: "The member.") var member: String
    @Option(name: .customLong("class"), help: "The class's ID.") var classID: String
    @Option(help: "The occurrence's date, YYYY-MM-DD.") var date: String?
    @Option(help: "Give up every date from this one on, YYYY-MM-DD.") var from: String?
    @OptionGroup var book: BookOptions
    @OptionGroup var outbox: OutboxOptions

    func validate() throws {
        guard (date == nil) != (from == nil) else { throw ValidationError("give --date for one occurrence, or --from for every date from one on") }
    }

    func run() async throws {
        if let from { return try await cancelFrom(try parseDate(from, option: "--from")) }
        let date = try parseDate(self.date ?? "", option: "--date")
        let (member, classID, options) = (member, classID, book)
        let result = try await book.changeOccurrence(classID: classID, on: date, members: [member], telling: outbox) { b in
            try b.cancelBooking(member: member, classID: classID, on: date, now: try options.instant(in: b))
        }
        print(result.heldPlace ? "Cancelled \(member)'s place in \(classID) on \(date)." : "Took \(member) off the waitlist of \(classID) on \(date).")
        if let promoted = result.promoted { print("\(promoted) moved up from the waitlist and has the place.") }
    }

    /// `--from`: every date the member holds or waits for, from one on.
    private func cancelFrom(_ first: LocalDate) async throws {
        let (member, classID, options) = (member, classID, book)
        let (dates, clock) = try await book.change(telling: outbox, classes: true) { b in
            (try b.cancelStanding(member: member, classID: classID, from: first, now: try options.instant(in: b)), try options.clock(for: b))
        }
        if dates.isEmpty { throw CLIError("\(member) holds no place in \(classID) from \(first) on; nothing was changed") }
        if let header = clock.display.header() { print(header) }
        for d in dates {
            let when = d.occurrence.map { clock.span($0.start, minutes: $0.duration.wholeMinutes) } ?? "\(d.date)"
            switch d.outcome {
            case .cancelled(let c):
                print("  \(when)  \(c.heldPlace ? "place given up" : "off the waitlist")\(c.promoted.map { "; \($0) moved up and has the place" } ?? "")")
            case .refused(let why): print("  \(when)  kept: \(why.description)")
            default: print("  \(when)")
            }
        }
        let given = dates.filter { if case .cancelled = $0.outcome { true } else { false } }.count
        print("Gave up \(given) of \(member)'s \(dates.count) date\(dates.count == 1 ? "" : "s") in \(classID) from \(first) on.")
        if given == 0 { throw CLIError("none of \(member)'s dates in \(classID) from \(first) on could be given up (each says why above)") }
    }
}

extension Sessions {
    struct History: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "history",
            abstract: "A client's sessions, newest first, with their status, colour, type and notes.",
            discussion: """
                With --coach, only that coach's clients answer: another coach's client is \
                refused as an unknown one.

                Examples:
                  horari sessions history --client anna
                  horari sessions history --client anna --coach marc --format json
                """)
        @Option(help: "The client.") var client: String
        @Option(help: "The coach asking (default: the client's own view).") var coach: String?
        @Option(parsing: .unconditional, help: "The most sessions to show.", transform: WholeNumber.limit) var limit = 50
        @OptionGroup var output: SessionOutput
        @OptionGroup var book: BookOptions

        func run() async throws {
            guard limit > 0 else { throw ValidationError("--limit must be at least 1") }
            let b = try await book.read()
            let clock = try book.clock(for: b)
            let sessions: [Session]
            do { sessions = try b.history(client: client, coach: coach, limit: limit) } catch { throw CLIError(error.description) }
            try output.print(sessions, book: b, clock: clock, command: "sessions history", none: "\(client.shown) has no sessions yet.")
        }
    }
}

/// What `sessions add` and `sessions log` record besides the time: where,
/// notes, a colour, the kind of workout and the ID.
struct SessionDetails: ParsableArguments {
    @Option(help: "Where.") var location: String?
    @Option(help: "Notes (for a logged session: what was done, the results).") var notes: String?
    @Option(help: "Its colour: a CSS name or #RRGGBB, not red (default: the client's, else the coach's).") var color: String?
    @Option(help: "The kind of workout, such as Strength (exported as CATEGORIES).") var type: String?
    @Option(help: "The session's ID (default: made up).") var id: String?
}

/// How `sessions list` and `sessions history` print.
struct SessionOutput: ParsableArguments {
    @Option(help: "text or json.") var format: OutputFormat = .text
    @Option(help: "auto (colour on a terminal unless NO_COLOR is set), always or never.") var color: ColorChoice = .auto

    /// One line a session: time, colour, client, type, place, ID, status;
    /// the notes on the next line. "Times in ZONE" comes first when the
    /// zone shown is not the machine's, as in the views.
    func print(_ sessions: [Session], book: SchedulingBook, clock: BookClock, command: String, none: String) throws {
        if format == .json {
            return try printJSON(SessionsJSON(sessions: sessions.map { SessionJSON($0, book: book, clock: clock) }), command: command, timeZone: clock.display.name)
        }
        if let header = clock.display.header() { Swift.print(header) }
        let painter = Painter(choice: color)
        if sessions.isEmpty { Swift.print(none) }
        for s in sessions {
            let name = (try? book.client(s.clientID, coach: s.coachID).name) ?? s.clientID
            let color = book.color(of: s)
            var status = s.status == .scheduled ? "" : "  (\(s.status.rawValue))"
            if s.status == .scheduled, let answer = s.answer { status = "  (client \(answer.rawValue.lowercased()))" }
            if s.completedAt != nil { status = "  (completed \(clock.completed(s)))" }
            let details = [s.workoutType, s.location.map { "@ " + $0 }].compactMap { $0?.shown }
            Swift.print("\(clock.span(s))  \(painter.swatch(color)) \(name.shown)\(details.map { "  " + $0 }.joined())\(color.map { "  (\($0))" } ?? "")  [\(s.id)]\(status)")
            if let notes = s.notes, !notes.isEmpty { Swift.print("    \(notes.shown)") }
        }
    }
}
