import ArgumentParser
import CalendarCore
import CalendarScheduling
import Foundation

// The weekly upkeep of a gym's people (issue 28, 18): list, edit and remove
// coaches, clients and members. The book's own rules decide what a removal
// takes with it (SchedulingBook+Removal.swift); each command says what it did.

/// Working hours from `--hours` lines: weekdays then ranges (`MO-FR 09:00-13:00 16:00-20:00`).
func parseHours(_ lines: [String], option: String = "--hours") throws -> WorkingHours {
    var working = WorkingHours()
    for line in lines {
        let words = line.split(separator: " ")
        guard let days = words.first else { throw ValidationError("\(option) is empty") }
        do {
            try working.set(words.dropFirst().map { r throws(SchedulingError) in try TimeRange(parsing: r) }, on: parseWeekdays(String(days), option: option))
        } catch let error as SchedulingError { throw ValidationError("\(option) ‘\(line.prefix(60))’: \(error.description)") }
    }
    return working
}

/// A coach's weekly hours as `MO 09:00-13:00 16:00-20:00, TU …`.
private func hoursText(_ hours: WorkingHours) -> String {
    let days = Weekday.allCases.compactMap { day in hours.weekly[day].map { "\(day.icalCode) " + $0.map(\.description).joined(separator: " ") } }
    return days.isEmpty ? "no hours" : days.joined(separator: ", ")
}

/// A list's row: each field in the same place on every line (one tab between
/// fields, and no field left empty, so a column never disappears).
func columns(_ fields: [String]) -> String { fields.map { $0.isEmpty ? "–" : $0 }.joined(separator: "\t") }

/// Asks on a terminal before a removal; without one, --yes is the only answer.
private func confirmRemoval(_ question: String, yes: Bool, what: String) throws -> Bool {
    try confirmOnTerminal(question, yes: yes, refusing: "removing \(what)")
}

/// Edits one record of the book and says what changed, field by field
/// (`name ‘a’ → ‘b’`). The edit is tried on a read first: one that changes
/// nothing writes nothing; else it is made again under the lock, on the book
/// as it is then.
/// - Parameters:
///   - label: how the record is named in what is printed (`Coach marc`).
///   - record: the record in a book (throws for one that is not there).
///   - edited: the record as the options change it.
///   - save: puts the edited record into the book.
///   - fields: each field's name and value as text, for the report.
private func editRecord<R: Equatable>(_ book: BookOptions, _ label: String, record: (SchedulingBook) throws -> R, edited: (R) -> R,
                                      save: (inout SchedulingBook, R) throws -> Void, fields: (R) -> [(String, String?)]) async throws {
    let current: R
    do { current = try record(try await book.read()) } catch let error as SchedulingError { throw CLIError(error.description) }
    guard edited(current) != current else { print("\(label): nothing changed."); return }
    let said = try await book.change { b in
        let old = try record(b)
        let new = edited(old)
        guard new != old else { return "nothing changed" }
        try save(&b, new)
        let changed = zip(fields(old), fields(new)).filter { $0.1 != $1.1 }.map { "\($0.0) ‘\($0.1 ?? "none")’ → ‘\($1.1 ?? "none")’" }
        return changed.joined(separator: ", ")
    }
    print("\(label): \(said).")
}

extension Coaches {
    struct ListCoaches: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list", abstract: "List the coaches: ID, name, e-mail, buffer and weekly hours.",
            discussion: "Examples:\n  horari coaches list\n  horari coaches list --format json")
        @Option(help: "text or json.") var format: OutputFormat = .text
        @OptionGroup var book: BookOptions

        func run() async throws {
            let b = try await book.read()
            if format == .json { return try printJSON(CoachesJSON(b), command: "coaches list", timeZone: try book.clock(for: b).display.name) }
            for c in b.coaches {
                print(columns([c.id, c.name, c.email ?? "no e-mail", "buffer \(c.buffer.wholeMinutes) min", hoursText(c.workingHours)]))
            }
        }
    }

    struct Edit: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "edit",
            abstract: "Change a coach's name, e-mail, hours, buffer or colour; what is not given stays.",
            discussion: "Examples:\n  horari coaches edit marc --buffer 15\n  horari coaches edit laia --hours 'MO-FR 08:00-14:00'")
        @Argument(help: "The coach's ID.") var id: String
        @Option(help: "A new name.") var name: String?
        @Option(help: "A new e-mail address ('' for none).") var email: String?
        func validate() throws { try checkTypedEmail(email, of: "coach") }
        @Option(help: "New weekly hours, replacing all of them: weekdays then ranges; repeat for other days.") var hours: [String] = []
        @Option(parsing: .unconditional, help: "Minutes kept free between two sessions.", transform: WholeNumber.buffer) var buffer: Int?
        @Option(help: "A new colour (a CSS name or #RRGGBB, not red; '' for none).") var color: String?
        @OptionGroup var book: BookOptions

        func run() async throws {
            let hours = hours.isEmpty ? nil : try parseHours(hours)
            let color: ItemColor?? = try self.color.map { text -> ItemColor? in text.isEmpty ? nil : try parseColor(text) }
            let (id, name, email, buffer) = (id, name, email, buffer)
            try await editRecord(book, "Coach \(id)", record: { try $0.coach(id) }, edited: { old in
                var new = old
                if let name { new.name = name }
                if let email { new.email = email.isEmpty ? nil : email }
                if let hours { new.workingHours = hours }
                if let buffer { new.buffer = .minutes(buffer) }
                if let color { new.color = color }
                return new
            }, save: { try $0.updateCoach($1) }, fields: { c in
                [("name", c.name), ("e-mail", c.email), ("hours", hoursText(c.workingHours)), ("buffer", "\(c.buffer.wholeMinutes) min"),
                 ("colour", c.color?.description)]
            })
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "remove",
            abstract: "Remove a coach who has no clients left (remove or move their clients first).",
            discussion: "Example:\n  horari coaches remove laia --yes")
        @Argument(help: "The coach's ID.") var id: String
        @Flag(help: "Do not ask.") var yes = false
        @OptionGroup var book: BookOptions

        func run() async throws {
            let coach = try await book.read().coach(id)
            guard try confirmRemoval("Remove coach \(id) (\(coach.name))? [y/N] ", yes: yes, what: "coach ‘\(id)’") else {
                print("Nothing removed."); return
            }
            let id = id
            try await book.change { b in try b.removeCoach(id) }
            print("Removed coach \(id) (\(coach.name)).")
        }
    }
}

extension Clients {
    struct Edit: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "edit",
            abstract: "Change one of a coach's clients: name, e-mail or colour; what is not given stays.",
            discussion: "Example:\n  horari clients edit anna --coach marc --email anna.puig@example.com")
        @Argument(help: "The client's ID.") var id: String
        @Option(help: "The client's coach.") var coach: String
        @Option(help: "A new name.") var name: String?
        @Option(help: "A new e-mail address ('' for none).") var email: String?
        func validate() throws { try checkTypedEmail(email, of: "client") }
        @Option(help: "A new colour (a CSS name or #RRGGBB, not red; '' for none).") var color: String?
        @OptionGroup var book: BookOptions

        func run() async throws {
            let color: ItemColor?? = try self.color.map { text -> ItemColor? in text.isEmpty ? nil : try parseColor(text) }
            let (id, coach, name, email) = (id, coach, name, email)
            try await editRecord(book, "Client \(id) of coach \(coach)", record: { try $0.client(id, coach: coach) }, edited: { old in
                var new = old
                if let name { new.name = name }
                if let email { new.email = email.isEmpty ? nil : email }
                if let color { new.color = color }
                return new
            }, save: { try $0.updateClient($1, coach: coach) }, fields: { c in [("name", c.name), ("e-mail", c.email), ("colour", c.color?.description)] })
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "remove",
            abstract: "Remove one of a coach's clients, and every session they had.",
            discussion: "Example:\n  horari clients remove pau --coach marc --yes")
        @Argument(help: "The client's ID.") var id: String
        @Option(help: "The client's coach.") var coach: String
        @Flag(help: "Do not ask.") var yes = false
        @OptionGroup var book: BookOptions
        @OptionGroup var outbox: OutboxOptions

        func run() async throws {
            let b = try await book.read()
            let client: Client, count: Int
            do {
                client = try b.client(id, coach: coach)
                count = try b.sessions(coach: coach, client: id).count
            } catch { throw CLIError(error.description) }
            guard try confirmRemoval("Remove client \(id) (\(client.name)) of coach \(coach), and their \(count) session\(count == 1 ? "" : "s")? [y/N] ",
                                     yes: yes, what: "client ‘\(id)’") else { print("Nothing removed."); return }
            let (id, coach) = (id, coach)
            let gone = try await book.change(telling: outbox) { b in try b.removeClient(id, coach: coach) }
            print("Removed client \(id) (\(client.name)) of coach \(coach)" + (gone.isEmpty ? "." : ", and \(gone.count) session\(gone.count == 1 ? "" : "s"): " + gone.map(\.id).joined(separator: ", ") + "."))
        }
    }
}

extension Members {
    struct ListMembers: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list", abstract: "List the members: ID, name and e-mail.", discussion: "Examples:\n  horari members list\n  horari members list --format json")
        @Option(help: "text or json.") var format: OutputFormat = .text
        @OptionGroup var book: BookOptions

        func run() async throws {
            let b = try await book.read()
            if format == .json { return try printJSON(MembersJSON(b), command: "members list", timeZone: try book.clock(for: b).display.name) }
            for m in b.members { print(columns([m.id, m.name, m.email ?? "no e-mail"])) }
        }
    }

    struct Edit: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "edit",
            abstract: "Change a member's name or e-mail; their places stay theirs.",
            discussion: "Example:\n  horari members edit marta --email marta.roig@example.com")
        @Argument(help: "The member's ID.") var id: String
        @Option(help: "A new name.") var name: String?
        @Option(help: "A new e-mail address ('' for none).") var email: String?
        func validate() throws { try checkTypedEmail(email, of: "member") }
        @OptionGroup var book: BookOptions

        func run() async throws {
            let (id, name, email) = (id, name, email)
            try await editRecord(book, "Member \(id)", record: { try $0.member(id) }, edited: { old in
                var new = old
                if let name { new.name = name }
                if let email { new.email = email.isEmpty ? nil : email }
                return new
            }, save: { try $0.updateMember($1) }, fields: { m in [("name", m.name), ("e-mail", m.email)] })
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "remove",
            abstract: "Remove a member: each place still to come passes to the first on its waitlist.",
            discussion: "Example:\n  horari members remove pol --yes")
        @Argument(help: "The member's ID.") var id: String
        @Flag(help: "Do not ask.") var yes = false
        @OptionGroup var book: BookOptions
        @OptionGroup var outbox: OutboxOptions

        func run() async throws {
            let member = try await book.read().member(id)
            guard try confirmRemoval("Remove member \(id) (\(member.name)) and every place they hold? [y/N] ", yes: yes, what: "member ‘\(id)’") else {
                print("Nothing removed."); return
            }
            let id = id, options = book
            let released = try await book.change(telling: outbox, classes: true) { b in try b.removeMember(id, now: try options.instant(in: b)) }
            print("Removed member \(id) (\(member.name)).")
            for (key, outcome) in released.sorted(by: { $0.key < $1.key }) {
                let place = outcome.heldPlace ? "their place" : "their place on the waitlist"
                print("  \(key.classID) on \(key.date): \(place) is given up" + (outcome.promoted.map { "; \($0) moves up from the waitlist" } ?? ""))
            }
        }
    }
}

/// Lists the bookings a change released, so the gym can tell the members.
private func sayReleased(_ released: [AffectedBookings]) {
    for r in released {
        if !r.confirmed.isEmpty { print("  \(r.occurrence.classID) on \(r.occurrence.date): tell \(r.confirmed.joined(separator: ", ")) their place is gone") }
        if !r.waitlisted.isEmpty { print("  \(r.occurrence.classID) on \(r.occurrence.date): tell \(r.waitlisted.joined(separator: ", ")) the waitlist is gone") }
    }
}

extension Classes {
    struct Edit: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "edit",
            abstract: "Say what a class is: its description, a page and a picture, on every date.",
            discussion: """
                The public and member exports carry them (DESCRIPTION, URL and RFC 7986's \
                IMAGE), and so do the views' JSON; '' removes one. Its times, places, room \
                and instructor change from a date on with 'classes change'.

                Examples:
                  horari classes edit yoga --description 'Hatha yoga for every level'
                  horari classes edit yoga --url https://gym.example/yoga \\
                      --image https://gym.example/yoga.jpg
                """)
        @Argument(help: "The class's ID.") var id: String
        @Option(help: "What it is ('' for none).") var description: String?
        @Option(help: "A page about it, http or https ('' for none).") var url: String?
        @Option(help: "A picture of it, http or https ('' for none).") var image: String?
        @OptionGroup var book: BookOptions

        func validate() throws {
            guard description != nil || url != nil || image != nil else {
                throw ValidationError("nothing to change: give --description, --url or --image")
            }
        }

        func run() async throws {
            let (id, description, url, image) = (id, description, url, image)
            let edited: ClassSeries? = try await book.change { b in
                var series = try b.classSeries(id)
                let before = series
                if let description { series.description = description.isEmpty ? nil : description }
                if let url { series.url = url.isEmpty ? nil : url }
                if let image { series.image = image.isEmpty ? nil : image }
                guard series != before else { return nil }
                try b.updateClass(series)
                return series
            }
            guard let edited else { return print("\(id) already says so; nothing changed.") }
            let said = [edited.description.map { "‘\($0.shown)’" }, edited.url, edited.image].compactMap { $0 }
            print("Edited class \(id)" + (said.isEmpty ? ": no description, page or picture." : ": " + said.joined(separator: ", ") + "."))
        }
    }

    struct Change: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "change",
            abstract: "Change a class from a date on: its time, length, places, room, instructor or days.",
            discussion: """
                The class keeps its ID from --from on; its earlier dates stay as they were, as a \
                class of their own (ID-until-YYYYMMDD). Bookings from --from on are kept when they \
                still fit; those on a date it no longer meets, or past fewer places, are released \
                and listed.

                Examples:
                  horari classes change yoga --from 2026-12-07 --time 19:00
                  horari classes change pilates --from 2026-12-03 --capacity 3
                """)
        @Argument(help: "The class's ID.") var id: String
        @Option(help: "The first date the change applies to, YYYY-MM-DD.") var from: String
        @Option(help: "A new start, HH:MM.") var time: String?
        @Option(parsing: .unconditional, help: "A new length in minutes.", transform: WholeNumber.minutes) var minutes: Int?
        // `.unconditional`: -3 reaches the book's own refusal, as 0 does (issue 28, 19).
        @Option(parsing: .unconditional, help: "A new number of places.") var capacity: Int?
        @Option(help: "A new room ('' for none).") var location: String?
        @Option(help: "A new instructor ('' for none).") var instructor: String?
        @Option(help: "New weekdays, such as MO,WE.") var days: String?
        @OptionGroup var book: BookOptions
        @OptionGroup var outbox: OutboxOptions

        func run() async throws {
            let date = try parseDate(from, option: "--from")
            var change = ClassChange(duration: minutes.map { .minutes($0) }, capacity: capacity,
                                     location: location.map { $0.isEmpty ? nil : $0 }, instructor: instructor.map { $0.isEmpty ? nil : $0 })
            if let time {
                do { change.time = try TimeOfDay(parsing: time) } catch { throw ValidationError("--time ‘\(time)’: \(error.description)") }
            }
            if let days { change.weekdays = try parseWeekdays(days, option: "--days") }
            guard !change.isEmpty else { throw ValidationError("nothing to change: give --time, --minutes, --capacity, --location, --instructor or --days") }
            let (id, c) = (id, change)
            let (report, series) = try await book.change(telling: outbox, classes: true) { b in
                let report = try b.changeClass(id, from: date, c)
                return (report, try b.classSeries(id))
            }
            let end = clock(LocalDateTime(localSeconds: Int64(series.time.minutes + series.duration.wholeMinutes) * 60))
            print("Changed \(id) from \(series.firstDate) on: \(series.weekdays.map(\.icalCode).joined(separator: ",")) \(series.time)–\(end), \(series.capacity) places"
                  + ([series.location, series.instructor].compactMap { $0 }.map { ", " + $0 }.joined()) + ".")
            if let earlier = report.earlierPart { print("Its earlier dates are kept as \(earlier).") }
            if report.released.isEmpty { print("Every booking still fits.") } else { print("Released:"); sayReleased(report.released) }
            for p in report.promoted {
                print("  \(p.occurrence.classID) on \(p.occurrence.date): \(p.confirmed.joined(separator: ", ")) moved up from the waitlist")
            }
        }
    }

    struct End: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "end",
            abstract: "End a class on a date; the bookings of later dates are released and listed.",
            discussion: "Example:\n  horari classes end spin --on 2026-12-18")
        @Argument(help: "The class's ID.") var id: String
        @Option(help: "The last date it meets, YYYY-MM-DD.") var on: String
        @OptionGroup var book: BookOptions
        @OptionGroup var outbox: OutboxOptions

        func run() async throws {
            let date = try parseDate(on, option: "--on")
            let id = id
            let released = try await book.change(telling: outbox, classes: true) { b in try b.endClass(id, on: date) }
            print("\(id) ends on \(date).")
            if released.isEmpty { print("No booking was after it.") } else { print("Released:"); sayReleased(released) }
        }
    }
}
