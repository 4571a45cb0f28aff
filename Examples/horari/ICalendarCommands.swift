import ArgumentParser
import CalendarCore
import CalendarScheduling
import CalendarStore
import CalendarViews
import Foundation
import ICalendarKit
import SchedulingICalendar

/// Reads a calendar file for a command, printing diagnostics to standard error.
/// On a terminal, a large file shows a progress line while it is read.
/// `libical` says whether libical reads each event and task as well
/// (`ImportOptions.checksWithLibICal`; Docs/ICalendar.md says which commands do);
/// `detail` how much of each item to keep (`.schedule` only for read-only commands).
func loadCalendar(_ path: String, strict: Bool = false, quiet: Bool = false, libical: Bool = ImportOptions.libicalIsAvailable,
                  detail: ImportOptions.ItemDetail = .complete, acceptingJCal: Bool = false) throws -> ImportResult {
    // A URL is not a file to read here: said without its password, never read as a path.
    if path.contains("://") {
        let named: String
        do { named = try CalendarLocation(path).description } catch { throw CLIError(error.description) }
        throw CLIError("\(named) is a URL, and this reads an .ics file; write the calendar to one first (`horari export \(named) --out FILE`)")
    }
    if acceptingJCal, isJCal(path) { return try loadJCal(path, strict: strict, quiet: quiet, libical: libical) }
    let result: ImportResult
    let progress = ProgressLine(file: path)
    let name = URL(fileURLWithPath: path).lastPathComponent
    defer { progress.finish() }
    do {
        result = try ICalendarImporter(options: ImportOptions(strict: strict, checksWithLibICal: libical, detail: detail))
            .importCalendar(contentsOf: URL(fileURLWithPath: path)) { progress.update("Reading", name, done: $0) }
    } catch {
        // A jCal file where an .ics is read: said so, with the command that reads it.
        if error.code == .notICalendar, isJCal(path) {
            throw CLIError("\(path) is jCal (iCalendar as JSON, RFC 7265), which only `horari import` reads; `horari import \(path) --into CAL` makes a calendar of it")
        }
        throw CLIError("\(path): \(error.description)")
    }
    if !quiet {
        for d in result.diagnostics { FileHandle.standardError.write(Data("\(path):\(d)\n".utf8)) }
    }
    return result
}

/// Whether a file holds JSON rather than iCalendar: its first character
/// that is not a space is `[` (a jCal document; an `.ics` file begins with
/// `BEGIN:`).
func isJCal(_ path: String) -> Bool {
    guard let handle = FileHandle(forReadingAtPath: path) else { return false }
    defer { try? handle.close() }
    let head = (try? handle.read(upToCount: 4096)) ?? Data()
    let start = head.starts(with: [0xEF, 0xBB, 0xBF]) ? head.dropFirst(3) : head[...]
    return start.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) } == UInt8(ascii: "[")
}

/// A jCal file (RFC 7265) read as the iCalendar it stands for; its
/// findings name lines of that text, and say so.
private func loadJCal(_ path: String, strict: Bool, quiet: Bool, libical: Bool) throws -> ImportResult {
    let options = ImportOptions(strict: strict, checksWithLibICal: libical)
    let data: Data
    do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch { throw CLIError("\(path): cannot be read (\(error.localizedDescription))") }
    let result: ImportResult
    do { result = try ICalendarImporter(options: options).importCalendar(jCal: data) } catch {
        throw CLIError("\(path): \(error.description)")
    }
    if !quiet {
        // The line is one of the iCalendar text the JSON stands for, which nobody sees: said as such.
        for d in result.diagnostics { FileHandle.standardError.write(Data("\(path): in the iCalendar it stands for, \(d)\n".utf8)) }
    }
    return result
}

/// `horari validate`: a file's problems.
struct Validate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check an .ics file and print every problem with its line.",
        discussion: """
            Exit code 0 when there is no error (warnings and notes may be printed), 1 \
            when there is an error, or with --strict when there is a warning too. A \
            note is valid iCalendar worth knowing about, and never fails.

            A file that keeps a gym's scheduling book is also checked as the book \
            reads it: a roster that books someone who is not a member, a client of \
            an unknown coach, a class the book cannot read (errors, which stop the \
            book's commands), a class with more bookings than places (a warning). \
            --repair removes what the book cannot read and keeps the file as it was \
            beside it (FILE.before-repair).

            Examples:
              horari validate invitation.ics
              horari validate export.ics --strict
              horari validate gym.ics --repair
            """
    )

    @Argument(help: "The .ics file (default: --calendar, else the default calendar).")
    var file: String?

    @Option(help: "The calendar, instead of FILE: a file, a folder of one .ics per event, a CalDAV collection's https:// URL, an SQLite database (gym.sqlite) or a postgres://USER@HOST:PORT/DB URL (default: $XDG_DATA_HOME/horari/calendar.ics, else ~/.local/share/horari/calendar.ics).")
    var calendar: String?

    @Flag(help: "Treat warnings as errors (notes still pass).")
    var strict = false

    @Flag(help: "Remove the scheduling records the book cannot read, keeping the file as it was beside it.")
    var repair = false

    @Flag(help: "With --repair: repair a file that did not import cleanly too (it is kept beside it as FILE.damaged).")
    var force = false

    func run() async throws {
        let place = try calendarPlace(file: self.file, option: calendar)
        // A server is named as its place says it: never with the password the argument held.
        let file = if case .server = place.location { place.path } else { self.file ?? place.path }
        // libical always reads the file here: its findings are what validation is for
        // (a build without the LibICal trait says, as a warning, that they did not run).
        // Checking is not starting: a missing file is named, with no advice to create one.
        guard place.exists else { throw CLIError("\(file): no such file to check") }
        let result = try await loadExistingCalendar(place, quiet: true, libical: true)
        for d in result.diagnostics { print("\(file):\(d)") }
        // The rules the calendar asks for (`horari rules`), checked on every item.
        // A calendar that names no rules keeps the default ones, whose reserved
        // red every item meets (an import with --force can take one in).
        var broken = 0
        let namesRules = result.calendar.rulesName != nil
        let (name, rules) = try calendarRules(of: result.calendar)
        if namesRules { print("\(file): rules: \(name)") }
        for (uid, message) in itemsBreaking(rules, in: result.calendar, structure: namesRules) {
            print("\(file): error: ‘\(uid)’: \(message)")
            broken += 1
        }
        // The scheduling book, as its commands read it.
        var bookErrors = 0, bookWarnings = 0
        do {
            for (line, p) in try schedulingProblems(of: result) {
                print("\(file):\(line.map { "line \($0): " } ?? "")\(p.severity.rawValue): \(p.message)\(p.repair.map { " (--repair: \($0))" } ?? "")")
                if p.severity == .error { bookErrors += 1 } else { bookWarnings += 1 }
            }
        } catch let error as SchedulingError {
            // The book's zone is unknown, or a rule of the gym's cannot be read: said like every other problem.
            print("\(file):\(result.sourceLines.line(of: error).map { "line \($0): " } ?? "")error: \(error.description)")
            bookErrors += 1
        }
        // The true totals: a summary of problems past the report's bound counts as all it stands for.
        let errors = result.problemCount(.error) + broken + bookErrors
        let warnings = result.problemCount(.warning) + bookWarnings
        let notes = result.problemCount(.note)
        print("\(file): \(result.calendar.items.count) item\(result.calendar.items.count == 1 ? "" : "s"), \(errors) error\(errors == 1 ? "" : "s"), \(warnings) warning\(warnings == 1 ? "" : "s")" + (notes > 0 ? ", \(notes) note\(notes == 1 ? "" : "s")" : ""))
        if repair {
            if bookErrors > 0 {
                try await repairBook(at: place, file: file)
            } else {
                print("\(file): nothing to repair in the scheduling book")
            }
            // What --repair does not mend (the file's own iCalendar problems) still counts.
            if errors - bookErrors > 0 || (strict && warnings - bookWarnings > 0) { throw ExitCode(1) }
            return
        }
        if errors > 0 || (strict && warnings > 0) { throw ExitCode(1) }
    }

    /// The book's problems with their lines, for a calendar that keeps a book.
    private func schedulingProblems(of read: ImportResult) throws -> [(Int?, SchedulingBook.RecordProblem)] {
        let calendar = read.calendar
        guard calendar.items.contains(where: SchedulingBook.isSchedulingItem) || calendar.components.contains(where: SchedulingBook.isSchedulingComponent) else {
            return []
        }
        let check: (book: SchedulingBook, problems: [SchedulingBook.RecordProblem])
        check = try calendar.schedulingCheck(defaultTimeZone: calendarZoneName(of: calendar))
        return check.problems.map { (read.sourceLines.line(of: $0.record), $0) }.sorted { ($0.0 ?? 0) < ($1.0 ?? 0) }
    }

    /// Saves the book as it can be read, after keeping the calendar as it
    /// was: a file's copy beside it, byte for byte; a folder's or a
    /// collection's as one .ics in the current folder. The copy is made
    /// under the lock (for a collection, of what the change is made on), so
    /// it is the text repaired.
    private func repairBook(at place: CalendarPlace, file: String) async throws {
        let done: (removed: Int, copy: URL)
        // The copy is made once: on a collection the change may be made again, on another client's version.
        var kept: URL?
        do {
            done = try await place.store().change(exporterFor: { _ in ICalendarExporter(options: .init(includeRejected: true)) },
                                            whileWaiting: { sayWaiting(for: place) }, ifDamaged: damagePolicy(force: force)) { calendar in
                let check = try calendar.schedulingCheck(defaultTimeZone: calendarZoneName(of: calendar))
                let copy: URL
                if let kept {
                    copy = kept
                } else if let url = place.file {
                    copy = try keptCopy(of: url, suffix: "before-repair")
                } else {
                    copy = try savedCopy(of: calendar, named: place.name.replacingOccurrences(of: "/", with: "") + ".before-repair.ics")
                }
                kept = copy
                place.setScheduling(check.book, in: &calendar, year: LocalDate(Date(), in: check.book.timeZone).year)
                return (check.problems.filter { $0.severity == .error }.count, copy)
            }
        } catch let error as ICalendarError {
            throw damagedOrPlain(error, place)
        } catch let error as SchedulingError {
            throw CLIError("\(place.path): \(error.description)")
        } catch let error as CalendarStoreError {
            throw storeError(error)
        }
        print("\(file): repaired \(done.removed) problem\(done.removed == 1 ? "" : "s") in the scheduling book; the \(place.file == nil ? "calendar" : "file") as it was is kept in \(done.copy.path)")
    }
}

/// Saves a calendar as a new file in the current folder (`NAME`, else `NAME-2`, …).
func savedCopy(of calendar: ICalendar, named name: String) throws -> URL {
    let here = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    var copy = here.appendingPathComponent(name)
    var n = 1
    while FileManager.default.fileExists(atPath: copy.path) {
        n += 1
        copy = here.appendingPathComponent("\(name)-\(n)")
    }
    do { try CalendarFile.save(calendar, to: copy, exporter: ICalendarExporter(options: .init(includeRejected: true))) } catch {
        throw CLIError("cannot keep a copy of the calendar at \(copy.path): \(error.description); nothing was changed")
    }
    return copy
}

/// Copies a file byte for byte beside it as `NAME.suffix` (else `NAME.suffix-2`, …).
func keptCopy(of url: URL, suffix: String) throws -> URL {
    var copy = url.appendingPathExtension(suffix)
    var n = 1
    while FileManager.default.fileExists(atPath: copy.path) {
        n += 1
        copy = url.deletingLastPathComponent().appendingPathComponent("\(url.lastPathComponent).\(suffix)-\(n)")
    }
    do { try FileManager.default.copyItem(at: url, to: copy) } catch {
        throw CLIError("cannot keep a copy of \(url.path) at \(copy.path): \(error.localizedDescription); nothing was changed")
    }
    return copy
}

/// `horari import`: merge a file into a calendar file by UID.
struct Import: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Merge an .ics file into a calendar file, by UID.",
        discussion: """
            New items are added, newer versions (SEQUENCE, then LAST-MODIFIED) replace \
            older ones, nothing is duplicated, and items the file no longer has are \
            listed but kept. The calendar file is written atomically under a lock.

            Example:
              horari import invitation.ics --into ~/calendars/work.ics
            """
    )

    @Argument(help: "The .ics file to import, or a jCal (RFC 7265) .json file.")
    var file: String

    @Option(help: "The calendar to merge into, created when missing: a file, a folder of one .ics per event, a CalDAV collection's https:// URL, an SQLite database (gym.sqlite) or a postgres://USER@HOST:PORT/DB URL (default: $XDG_DATA_HOME/horari/calendar.ics, else ~/.local/share/horari/calendar.ics).")
    var into: String?

    @Option(help: "The zone a new calendar keeps (default: the file's X-WR-TIMEZONE, else the system's).")
    var timeZone: String?

    @Flag(help: "Take items that break the calendar's rules as written (validate lists them), import what could be read of a damaged file with exit 0, and merge into a calendar file that did not import cleanly (kept beside it as FILE.damaged).")
    var force = false

    @OptionGroup var outbox: OutboxOptions

    @Option(help: "The time an answer (METHOD:REPLY) is applied, 'YYYY-MM-DD HH:MM' on the calendar's clock (default: now; for scripts and tests).")
    var now: String?

    func run() async throws {
        // libical reads the incoming file, beside the import: this is where
        // foreign data enters, and its findings are printed (Docs/ICalendar.md).
        let read = try loadCalendar(file, libical: ImportOptions.libicalIsAvailable, acceptingJCal: true)
        // An answer to the book's invitation is applied to the book, not merged (issue 32, 3).
        // (An answer about an event only: a free/busy REPLY, or a task's, is merged as before.)
        if read.calendar.isAnswerAboutAnEvent { return try await applyReply(read.calendar) }
        var incoming = read.calendar
        // An alarm outside any event or task is nobody's (a bare VALARM file): left out, and said (issue 41, 4).
        let strays = incoming.removeStrayAlarms()
        if strays > 0 {
            guard !incoming.items.isEmpty || !incoming.components.isEmpty else {
                throw CLIError("\(file) holds nothing to import: its \(strays == 1 ? "VALARM is" : "\(strays) VALARMs are") outside any event or task, and an alarm belongs inside one; nothing was changed")
            }
            FileHandle.standardError.write(Data("\(file): left out \(strays) VALARM\(strays == 1 ? "" : "s") outside any event or task (an alarm belongs inside one)\n".utf8))
        }
        // What the reader could not take (a component past a limit, a line
        // too long, a value it could not read): said in the summary, and the
        // import fails unless --force (issue 28, 15; Docs/ICalendar.md).
        let notImported = read.damage.count
        // The lines of the incoming items, for the refusals, as the import noted them.
        func line(of uid: String) -> Int? { read.sourceLines.line(ofItem: uid) }
        var refused: [String] = []
        var occurrences: [ClassOccurrence.ID] = []
        var left: [RecordLeft] = []
        let target = try calendarPlace(into)
        // A new calendar is created on one clock, once (Docs/TimeZones.md).
        let newZone = try Clock(named: timeZone ?? incoming.calendarZone(namedBy: ICalendar.bookZoneProperties) ?? Clock.systemZoneName, zones: incoming.zones).name
        try target.prepareFolder()
        let report: MergeReport
        let progress = ProgressLine(file: file)
        defer { progress.finish() }
        do {
            // The calendar merged into is read without libical: `update` shows
            // none of its diagnostics, and it was written by horari.
            report = try await target.store(ImportOptions(checksWithLibICal: false)).change(
                exporterFor: { _ in ICalendarExporter(options: .init(includeRejected: true)) },
                whileWaiting: { sayWaiting(for: target) }, ifDamaged: damagePolicy(force: force)
            ) { calendar in
                let isNew = calendar.calendarZone(namedBy: ICalendar.bookZoneProperties) == nil && calendar.items.isEmpty
                progress.show("Merging \(incoming.items.count) items into \(target.name)…")
                // The library's import policy (rules, a member's export, messages
                // about the book, the book's records kept): --force takes items
                // that break the rules as written.
                let done: BookImportReport
                do {
                    done = try calendar.importKeepingBook(incoming, takingRuleBreakers: force)
                } catch let error as BookImportError {
                    if case .unknownRules = error { throw unknownRules(error) }
                    throw CLIError("\(file) \(error.problem); bookings change with `horari book` and `horari cancel`, and a person's answer is imported as it comes back (METHOD:REPLY); nothing was changed in \(target.name)")
                }
                refused = done.refused.map { item in
                    let at = line(of: item.uid).map { "\(file):\($0): " } ?? "\(file): "
                    return "\(at)refused ‘\(item.title.shown)’ (the \(done.rulesName) rules of \(target.name)): " + item.breaks.map(\.message).joined(separator: "; ")
                }
                occurrences = done.classOccurrences
                left = done.recordsLeft
                let report = done.merge
                // The new calendar's clock. Not as X-WR-TIMEZONE unless it is the
                // file's own: Google, Apple, x-wr-timezone and this library read
                // floating times in an X-WR-TIMEZONE, so writing one the file did
                // not have would move every floating event of it. The book's zone
                // sets the clock the views show, and other calendars ignore it.
                if isNew, calendar.calendarZone(namedBy: ICalendar.bookZoneProperties) != newZone {
                    calendar.setBookZone(newZone)
                }
                progress.show("Saving \(target.name)…")
                return report
            }
        } catch let error as ICalendarError {
            throw damagedOrPlain(error, target)
        } catch let error as CalendarStoreError {
            throw storeError(error)
        }
        progress.finish()
        for line in refused { FileHandle.standardError.write(Data((line + "\n").utf8)) }
        print("added \(report.added.count), updated \(report.updated.count), unchanged \(report.unchanged.count), kept newer \(report.keptNewer.count), conflicts \(report.conflicts.count), not in the file \(report.missing.count)"
              + (refused.isEmpty ? "" : ", refused \(refused.count)") + (notImported == 0 ? "" : ", not imported \(notImported)"))
        if !report.addedComponents.isEmpty {
            let names = Dictionary(report.addedComponents.map { ($0, 1) }, uniquingKeysWith: +).sorted { $0.key < $1.key }
            print("kept \(report.addedComponents.count) other component\(report.addedComponents.count == 1 ? "" : "s") as written: " + names.map { "\($0.value) \($0.key)" }.joined(separator: ", "))
        }
        if !occurrences.isEmpty {
            print("merged \(occurrences.count) class occurrence\(occurrences.count == 1 ? "" : "s") (a member's export) into \(occurrences.count == 1 ? "its class" : "their classes"); who holds a place is as \(target.name)'s book says")
        }
        if !report.calendarPropertiesNotTaken.isEmpty {
            print("kept \(target.name)'s own \(report.calendarPropertiesNotTaken.joined(separator: ", ")); the file's differ")
        }
        let owed = left.filter(\.isOwedMessage).count
        if owed > 0 {
            print("left out \(owed) message\(owed == 1 ? "" : "s") \(file) owes people: \(owed == 1 ? "it is" : "they are") delivered from where \(owed == 1 ? "it was" : "they were") made (horari outbox DIR --calendar \(file))")
        }
        let differing = left.filter { !$0.sameAsBook && !$0.isOwedMessage }
        if !differing.isEmpty {
            let names = differing.prefix(5).map(\.uid).joined(separator: ", ") + (differing.count > 5 ? ", …" : "")
            print("left \(differing.count) record\(differing.count == 1 ? "" : "s") of the file out of \(target.name)'s book, which keeps its own (\(names)): "
                  + "classes, sessions, rosters and people change only through horari's own commands, which check the rules and tell who is concerned")
        }
        for uid in report.conflicts { print("conflict (same SEQUENCE and timestamps, kept ours): \(uid)") }
        for (tzid, renamed) in report.renamedZones.sorted(by: { $0.key < $1.key }) {
            print("zone ‘\(tzid)’: \(file) defines it otherwise than the calendar does; its times keep their own rules as ‘\(renamed)’")
        }
        if !refused.isEmpty || (notImported > 0 && !force) {
            var why: [String] = []
            if !refused.isEmpty { why.append("\(refused.count) item\(refused.count == 1 ? "" : "s") broke the calendar's rules (listed above)") }
            if notImported > 0 { why.append("\(notImported) part\(notImported == 1 ? "" : "s") of \(file) could not be read (its lines are above)") }
            FileHandle.standardError.write(Data("Error: the rest is imported, but \(why.joined(separator: " and ")); mend the file, or import with --force to take \(refused.isEmpty ? "what could be read" : "them as written")\n".utf8))
            throw ExitCode(1)
        }
    }
}

extension Import {
    /// Applies an iTIP REPLY to the book in --into; another method is refused by name.
    private func applyReply(_ calendar: ICalendar) async throws {
        let reply: SchedulingReply
        do { reply = try SchedulingReply(reading: calendar) } catch { throw CLIError("\(file): \(error.description); nothing was changed") }
        var arguments = ["--calendar", try calendarPlace(into).path]
        if let timeZone { arguments += ["--time-zone", timeZone] }
        if force { arguments.append("--force") }
        if let now { arguments += ["--now", now] }
        let book = try BookOptions.parse(arguments)
        let gym = try outbox.gymPerson()
        let place = try book.place
        guard place.exists else { throw CLIError("\(place.path): no calendar there to answer; nothing was changed") }
        // The book's own address stands in for --gym; read only when it is needed.
        if reply.recurrenceID != nil, gym == nil, try await book.read().gymAddress == nil {
            throw CLIError("\(file): an answer about a class names the gym as organizer, and the calendar keeps no address for it; give --gym 'Name <address>', or keep one with `horari gym address` (nothing was changed)")
        }
        let folder = try outbox.folder()
        let told: Told<ReplyOutcome>
        do {
            told = try await book.scheduling(place) { store async throws(SchedulingStoreError) in try await store.apply(reply, gym: gym) }
        } catch let error as ReplyError {
            throw CLIError("\(file): \(error.description); nothing was changed")
        }
        let o = told.result
        switch (o.answer, o.gaveUpPlace) {
        case (.declined, true): print("\(o.name.shown) declined \(o.about): the place is given up.")
        case (.declined, false) where reply.recurrenceID != nil: print("\(o.name.shown) declined \(o.about): off the waitlist.")
        case (.declined, false): print("\(o.name.shown) declined session \(o.about); it keeps its time until the coach moves or cancels it.")
        case (let answer, _): print("\(o.name.shown) answered \(answer.rawValue.lowercased()) for \(reply.recurrenceID == nil ? "session " : "")\(o.about).")
        }
        if let promoted = o.promoted { print("\(promoted) moved up from the waitlist and has the place.") }
        if let folder {
            try await book.scheduling(place) { store async throws(SchedulingStoreError) in try await outbox.deliverOwed(by: store, into: folder) }
            outbox.sayUntold(told.notices.untold)
        } else if !told.notices.notices.isEmpty {
            let n = told.notices.notices.count
            print("\(n) message\(n == 1 ? " is" : "s are") owed; \(place.name) keeps \(n == 1 ? "it" : "them") until `horari outbox DIR --calendar \(place.path)` delivers \(n == 1 ? "it" : "them").")
        }
    }
}

/// `horari export`: a calendar file as strict RFC 5545.
struct Export: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write a calendar file out as strict RFC 5545 iCalendar.",
        discussion: """
            CRLF line ends, 75-octet folding, a VTIMEZONE for every TZID (plain IANA \
            names), every unknown property kept. Writing to --out is atomic.

            With --for, only what one audience may see of the gym's scheduling book:
              public        the class timetable with its capacities, no one's name
                            (--name-instructors adds each class's instructor)
              member ID     that member's booked classes, each as its own event
              coach ID      that coach's sessions with their clients
              client ID     with --coach: that client's sessions with her coach, as
                            her invitations name them (not the coach's notes)
              all           everything: the file with the whole book, to restore from
            The public, member, coach and client exports are feeds to subscribe to: they say \
            how often to read them again (REFRESH-INTERVAL and X-PUBLISHED-TTL, an \
            hour unless --refresh-interval says otherwise).

            Examples:
              horari export gym.ics --out backup.ics
              horari export gym.ics --for member marta > marta.ics
              horari export gym.ics --for client anna --coach marc > anna.ics
              horari export gym.ics --for public --refresh-interval PT15M
              horari export gym.ics --format jcal > gym.json
            """
    )

    @Argument(help: "The calendar: a file, a folder, or a CalDAV collection's URL (default: --calendar, else the default calendar).")
    var file: String?

    @Option(help: "The calendar, instead of FILE: a file, a folder of one .ics per event, a CalDAV collection's https:// URL, an SQLite database (gym.sqlite) or a postgres://USER@HOST:PORT/DB URL (default: $XDG_DATA_HOME/horari/calendar.ics, else ~/.local/share/horari/calendar.ics).")
    var calendar: String?

    @Option(help: "Write here instead of standard output.")
    var out: String?

    @Option(name: .customLong("for"), parsing: .upToNextOption, help: "public, member ID, coach ID, client ID (with --coach) or all.")
    var audience: [String] = []

    @Option(help: "With --for client: the client's coach (each coach's clients have IDs of their own).")
    var coach: String?

    @Flag(help: "With --for public: name each class's instructor (staff are not named by default).")
    var nameInstructors = false

    /// The forms an export is written in.
    enum ExportFormat: String, ExpressibleByArgument, CaseIterable { case ics, jcal }

    @Option(help: "ics (iCalendar, the default) or jcal (RFC 7265, iCalendar as JSON; `horari import` reads it back).")
    var format: ExportFormat = .ics

    // `.unconditional`: a mistyped -PT5M reaches the command's own check ("a positive length"), not "missing value".
    @Option(parsing: .unconditional, help: "With --for public, member, coach or client: how often a subscriber should read the feed again, as ISO 8601 (PT15M, PT2H, P1D), or 'none' (default: PT1H).")
    var refreshInterval: String?

    func validate() throws {
        try refuseDatabaseName(out, option: "--out")
        let forClient = audience.first?.lowercased() == "client"
        if forClient, coach == nil { throw ValidationError("--for client needs --coach: each coach's clients have IDs of their own") }
        if coach != nil, !forClient { throw ValidationError("--coach goes with --for client") }
        if refreshInterval != nil {
            guard let first = audience.first?.lowercased(), ["public", "member", "coach", "client"].contains(first) else {
                throw ValidationError("--refresh-interval goes with --for public, member, coach or client (a backup is not a feed)")
            }
            _ = try feedRefreshInterval()
        }
    }

    /// `--refresh-interval` read: `nil` for `none`.
    func feedRefreshInterval() throws -> Duration? {
        guard let refreshInterval else { return ICalendar.defaultRefreshInterval }
        if refreshInterval.lowercased() == "none" { return nil }
        let length: Duration
        do { length = try ISOText.duration(refreshInterval) } catch {
            throw ValidationError("--refresh-interval ‘\(refreshInterval)’: \(error.message); or 'none'")
        }
        guard length >= .seconds(1) else {
            throw ValidationError("--refresh-interval ‘\(refreshInterval)’: a refresh interval is a positive length of at least a second (RFC 7986); or 'none'")
        }
        return length
    }

    func run() async throws {
        let place = try calendarPlace(file: file, option: self.calendar)
        let file = place.path
        // No libical: the export is written from the model, which libical's
        // reading does not change (Docs/ICalendar.md, “When libical runs”).
        // What the calendar owes people is its own to deliver, never exported (Docs/Storage.md).
        let read = try await loadExistingCalendar(place, libical: false)
        var calendar = read.calendar.withoutOwedMessages
        let exporter = ICalendarExporter()
        if nameInstructors, audience.isEmpty {
            throw ValidationError("--name-instructors goes with --for public")
        }
        if !audience.isEmpty {
            let book = try readBook(read, in: place)
            let who: ExportAudience
            switch (audience.first?.lowercased(), audience.count) {
            case ("public", 1): who = nameInstructors ? .publicTimetableNamingInstructors : .publicTimetable
            case ("all", 1): who = .everything
            case ("member", 2): who = .member(audience[1])
            case ("coach", 2): who = .coach(audience[1])
            case ("client", 2): who = .client(audience[1], coach: coach ?? "")
            default:
                throw ValidationError("--for ‘\(audience.joined(separator: " "))’: use public, member ID, coach ID, client ID --coach ID or all (put the file before --for)")
            }
            if nameInstructors, who != .publicTimetableNamingInstructors {
                throw ValidationError("--name-instructors goes with --for public (the other exports do not change)")
            }
            if who == .everything {
                calendar.setScheduling(book)
            } else {
                let interval = try feedRefreshInterval()
                do { calendar = try ICalendar(book, for: who, name: calendar.name, refreshInterval: interval) } catch { throw CLIError(error.description) }
            }
        }
        let progress = ProgressLine(file: file)
        defer { progress.finish() }
        progress.show("Writing \(calendar.items.count) items…")
        if format == .jcal {
            let json = Data((exporter.exportJCal(calendar) + "\n").utf8)
            progress.finish()
            guard let out else { return writeToStandardOutput(json) }
            do { try json.write(to: URL(fileURLWithPath: out), options: .atomic) } catch {
                throw CLIError("\(out) could not be written (\(error.localizedDescription)); nothing was written")
            }
            return
        }
        if let out {
            do { try CalendarFile.save(calendar, to: URL(fileURLWithPath: out), exporter: exporter) } catch {
                throw CLIError(error.description)
            }
        } else {
            progress.finish()
            exporter.export(calendar) { writeToStandardOutput(Data($0)) }
        }
    }
}
