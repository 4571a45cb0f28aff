import ArgumentParser
import CalendarCore
import CalendarScheduling
import Foundation

// Closing the gym for a holiday, and its opening hours (issue 31, 3): the
// library decides (SchedulingBook.close/open, openingHours); these commands
// read the dates, say what was done and whom to tell.

/// "2026-12-24..2026-12-26", or one date.
func parseDateRange(_ text: String, option: String) throws -> (first: LocalDate, last: LocalDate) {
    let parts = text.components(separatedBy: "..")
    guard parts.count <= 2, let head = parts.first, !head.isEmpty, parts.last.map({ !$0.isEmpty }) ?? false else {
        throw ValidationError("\(option) ‘\(text.prefix(40))’ is not a date or a range of dates; write 2026-12-25 or 2026-12-24..2026-12-26")
    }
    let first = try parseDate(head, option: option)
    let last = parts.count == 2 ? try parseDate(parts[1], option: option) : first
    // A range typed backwards is a usage error wherever a range is typed (close and open alike).
    guard first <= last else { throw ValidationError("\(option) \(first)..\(last) ends before it starts; write the earlier date first") }
    return (first, last)
}

extension Classes {
    /// `horari classes close`.
    struct Close: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "close",
            abstract: "Close the gym on a date or a range: its classes are cancelled and the members booked on them listed.",
            discussion: """
                Every class occurrence on those dates is cancelled; the places held and \
                waited for are released, and the members listed so the gym can tell them. \
                No place can be booked, no class moved and no session started there until \
                `horari classes open`, which gives the classes back but not the places.

                Examples:
                  horari classes close 2026-12-24..2026-12-26 --reason Christmas
                  horari classes close 2027-08-15 --reason 'Works on the showers'
                """)
        @Argument(help: "The date, YYYY-MM-DD, or the first and last dates, YYYY-MM-DD..YYYY-MM-DD.") var dates: String
        @Option(help: "Why, for the members.") var reason: String
        @Option(help: "text or json.") var format: OutputFormat = .text
        @OptionGroup var book: BookOptions
        @OptionGroup var outbox: OutboxOptions

        func run() async throws {
            let (first, last) = try parseDateRange(dates, option: "DATES")
            let closure: GymClosure
            do {
                closure = try GymClosure(first: first, last: last, reason: reason)
            } catch .invalid(let field, let why) {
                throw ValidationError((field == .reason ? "--reason: " : "DATES ") + why)
            } catch {
                throw error  // a plain catch after it: without one, Swift 6.3.1 crashes here (Docs/Errors.md)
            }
            let options = book
            let (report, occurrences, people, clock) = try await book.change(telling: outbox.saying(onStandardError: format == .json), classes: true) { b in
                let before = b
                let report = try b.close(closure, now: try options.instant(in: b))
                // As they were before the closure: one moved on its date is shown at its moved time, as its members were told.
                let occurrences = try report.cancelled.map { id throws(SchedulingError) in try before.occurrence(classID: id.classID, on: id.date) }
                let people = report.members.map { id in (try? b.member(id)) ?? Member(id: id, name: id) }
                return (report, occurrences, people, try options.clock(for: b))
            }
            if format == .json {
                return try printJSON(ClosureJSON(report, occurrences: occurrences, people: people, clock: clock), command: "classes close", timeZone: clock.display.name)
            }
            if let header = clock.display.header() { print(header) }
            // Only the occurrences someone had a place in are listed: a long closure cancels hundreds.
            let count = occurrences.count
            print("Closed the gym \(closure.datesText) (\(closure.reason.shown)): \(count == 0 ? "no class meets then" : "\(count) class\(count == 1 ? "" : "es") cancelled").")
            let byID = Dictionary(report.affected.map { ($0.occurrence, $0) }, uniquingKeysWith: { a, _ in a })
            for o in occurrences {
                guard let a = byID[o.id] else { continue }
                let places = ["\(a.confirmed.count) booked"] + (a.waitlisted.isEmpty ? [] : ["\(a.waitlisted.count) waiting"])
                print("  \(clock.span(o.start, minutes: o.duration.wholeMinutes))  \(o.title.shown)  (\(places.joined(separator: ", ")))  [\(o.id.classID)]")
            }
            let unlisted = occurrences.filter { byID[$0.id] == nil }.count
            if unlisted > 0 && unlisted < count { print("  (and \(unlisted) with no one booked; --format json lists every one)") }
            if count > 0 && people.isEmpty { print("No member had a place in them.") }
            guard !people.isEmpty else { return }
            print(people.count == 1 ? "Tell this member their place is released:" : "Tell these \(people.count) members their places are released:")
            for m in people { print("  \(m.id)  \(m.name.shown)\(m.email.map { "  <\($0)>" } ?? "")") }
        }
    }

    /// `horari classes open`.
    struct Open: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "open",
            abstract: "Open the gym again on dates it was closed: the classes meet as the timetable says.",
            discussion: """
                The places released when it closed are not given back: the members were \
                told, and book again if they want to.

                Examples:
                  horari classes open 2026-12-26
                  horari classes open 2026-12-24..2026-12-26
                """)
        @Argument(help: "The date, YYYY-MM-DD, or the first and last dates, YYYY-MM-DD..YYYY-MM-DD.") var dates: String
        @OptionGroup var book: BookOptions

        func run() async throws {
            let (first, last) = try parseDateRange(dates, option: "DATES")
            let opened = try await book.change { b in try b.open(from: first, through: last) }
            for c in opened { print("Opened the gym again \(c.datesText) (it was closed: \(c.reason)); its classes meet, with no places booked.") }
        }
    }

    /// `horari classes closures`.
    struct Closures: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "closures",
            abstract: "List the dates the gym is closed, from today (with --all, every one).",
            discussion: "Examples:\n  horari classes closures\n  horari classes closures --all --format json")
        @Flag(help: "Every closure, past ones too.") var all = false
        @Option(help: "text or json.") var format: OutputFormat = .text
        @OptionGroup var book: BookOptions

        func run() async throws {
            let b = try await book.read()
            let today = try book.today(in: b)
            let shown = b.closures.filter { all || $0.last >= today }
            if format == .json {
                return try printJSON(ClosuresJSON(closures: shown.map(ClosureDatesJSON.init)), command: "classes closures", timeZone: try book.clock(for: b).display.name)
            }
            if shown.isEmpty { print(all ? "The gym has no closures." : "The gym is not closed on any date from \(today).") }
            for c in shown { print("\(c.datesText)  \(c.reason.shown)") }
        }
    }

    /// `horari classes hours`.
    struct Hours: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "hours",
            abstract: "Show or set the gym's opening hours, which new classes and sessions must fit.",
            discussion: """
                A weekday without hours is closed. Hours that would leave a class, a moved \
                occurrence or a session still to come outside them are refused, naming each; \
                move, end or cancel those first. What took place before now never counts.

                Examples:
                  horari classes hours
                  horari classes hours --set 'MO-FR 07:00-22:00' --set 'SA 09:00-14:00'
                  horari classes hours --none
                """)
        @Option(name: .customLong("set"), help: "Weekdays then ranges, such as 'MO-FR 07:00-14:00 16:00-22:00'; repeat for other days. Replaces all the hours.")
        var hours: [String] = []
        @Flag(help: "Remove the opening hours: any time is taken.") var none = false
        @Option(help: "text or json.") var format: OutputFormat = .text
        @OptionGroup var book: BookOptions

        func run() async throws {
            guard hours.isEmpty || !none else { throw ValidationError("give --set or --none, not both") }
            // The JSON envelope's zone is read from the book read or changed here, not from a second reading.
            let (book, format) = (book, format)
            func zone(of b: SchedulingBook) throws -> String { format == .json ? try book.clock(for: b).display.name : "" }
            let opening: WorkingHours?, zoneName: String
            if hours.isEmpty && !none {
                let b = try await book.read()
                (opening, zoneName) = (b.openingHours, try zone(of: b))
            } else {
                let new = none ? nil : try parseHours(hours, option: "--set")
                (opening, zoneName) = try await book.change { b in
                    try b.setOpeningHours(new, now: try book.instant(in: b))
                    return (new, try zone(of: b))
                }
            }
            if format == .json { return try printJSON(OpeningHoursJSON(openingHours: WeeklyHoursJSON.of(opening)), command: "classes hours", timeZone: zoneName) }
            guard let opening, !opening.weekly.isEmpty else { return print("No opening hours: classes and sessions may be at any time.") }
            for day in Weekday.allCases {
                print("\(day.icalCode)  \(opening.weekly[day].map { $0.map(\.description).joined(separator: " ") } ?? "closed")")
            }
        }
    }
}

/// The body of `classes close --format json`.
struct ClosureJSON: Encodable {
    struct Occurrence: Encodable {
        let uid: String
        let date: LocalDate
        let title: String
        let start: String
        let end: String
        let booked: [String]
        let waiting: [String]
    }

    struct Person: Encodable {
        let id: String
        let name: String
        let email: String?
    }

    let closure: ClosureDatesJSON
    let cancelled: [Occurrence]
    let members: [Person]

    init(_ report: ClosureReport, occurrences: [ClassOccurrence], people: [Member], clock: BookClock) {
        closure = ClosureDatesJSON(report.closure)
        let byID = Dictionary(report.affected.map { ($0.occurrence, $0) }, uniquingKeysWith: { a, _ in a })
        cancelled = occurrences.map { o in
            let (start, end) = clock.instants(of: o)
            return Occurrence(uid: o.id.classID, date: o.id.date, title: o.title, start: start, end: end,
                              booked: byID[o.id]?.confirmed ?? [], waiting: byID[o.id]?.waitlisted ?? [])
        }
        members = people.map { Person(id: $0.id, name: $0.name, email: $0.email) }
    }
}

/// One closure in JSON: its dates and reason.
struct ClosureDatesJSON: Encodable {
    let first: LocalDate
    let last: LocalDate
    let reason: String

    init(_ c: GymClosure) { (first, last, reason) = (c.first, c.last, c.reason) }
}

/// The body of `classes closures --format json`.
struct ClosuresJSON: Encodable {
    let closures: [ClosureDatesJSON]
}
