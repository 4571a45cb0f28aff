import ArgumentParser
import CalendarCore
import CalendarScheduling
import CalendarStore
import Foundation
import ICalendarKit
import SchedulingICalendar

// `horari add`, `edit` and `delete`: events and tasks in a calendar file.
// Each change loads, changes and saves the file under its lock (atomic save),
// through the library's own checks (ICalendar.add/update/removeItem), and a
// refused change leaves the file exactly as it was.

extension BookOptions {
    /// Loads, changes and saves the calendar file under its lock (atomic
    /// save), so concurrent `horari` processes take turns; the library's
    /// refusals become plain messages. Every change of the CLI goes through here.
    ///
    /// A calendar that does not exist yet (or is empty and names no zone) is
    /// created on --time-zone, else on the system's zone (`X-WR-TIMEZONE`): the one time the machine's zone
    /// counts. From then on the calendar keeps that clock wherever it is used.
    func updateCalendar<T>(_ body: (inout ICalendar) throws -> T) async throws -> T {
        let place = try place
        // A calendar that names no zone and holds nothing yet (new, or an
        // empty file) takes its zone now.
        let newZone = try Clock(named: timeZone ?? Clock.systemZoneName).name
        try place.prepareFolder()
        let timeZone = timeZone
        do {
            return try await place.store().change(
                exporterFor: { calendar in try exporter(zone: timeZone ?? calendarZoneName(of: calendar), zones: calendar.zones) },
                whileWaiting: { sayWaiting(for: place) }, ifDamaged: damagePolicy(force: force)
            ) { calendar in
                if calendar.calendarZone(namedBy: ICalendar.bookZoneProperties) == nil, calendar.items.isEmpty { calendar.timeZone = newZone }
                return try body(&calendar)
            }
        } catch let error as SchedulingError {
            throw CLIError(error.description)
        } catch let error as CalendarItemError {
            throw CLIError(error.message)
        } catch let error as ICalendarError {
            throw damagedOrPlain(error, place)
        } catch let error as CalendarStoreError {
            throw storeError(error)
        }
    }

    /// ``updateCalendar(_:)`` for a change to the person's own events and
    /// tasks: on a CalDAV calendar whose server cannot be reached, made on
    /// this device and kept for the server (`CalendarStore.updateOwnItems`),
    /// which one line on standard error says.
    func updateOwnItems<T>(_ body: (inout ICalendar) throws -> T) async throws -> T {
        let place = try place
        guard case .collection = place.location else { return try await updateCalendar(body) }
        let timeZone = timeZone
        let newZone = try Clock(named: timeZone ?? Clock.systemZoneName).name
        let madeAt = (try? Self.instant(now, inZone: timeZone ?? Clock.systemZoneName)) ?? Date()
        let store = try await place.store()
        let update: OwnItemsUpdate<T>
        do {
            update = try await store.updateOwnItems(
                now: madeAt, exporterFor: { calendar in try exporter(zone: timeZone ?? calendarZoneName(of: calendar), zones: calendar.zones) },
                whileWaiting: { sayWaiting(for: place) }, ifDamaged: damagePolicy(force: force)
            ) { calendar in
                // As updateCalendar: a calendar that names no zone and holds nothing yet takes its zone now.
                if calendar.calendarZone(namedBy: ICalendar.bookZoneProperties) == nil, calendar.items.isEmpty { calendar.timeZone = newZone }
                return try body(&calendar)
            }
        } catch {
            switch error.underlying {
            case let error as SchedulingError: throw CLIError(error.description)
            case let error as CalendarItemError: throw CLIError(error.message)
            case let error as ICalendarError: throw damagedOrPlain(error, place)
            case let error as CalendarStoreError: throw storeError(error)
            default: throw error.underlying
            }
        }
        if update.isKept {
            let waiting = update.waiting == 1 ? "it is the only change waiting" : "\(update.waiting) changes wait"
            FileHandle.standardError.write(Data("\(place.location): the server cannot be reached; the change is kept on this device (\(waiting)) and sent by the next command that reaches the server\n".utf8))
        }
        return update.value
    }

    /// The clock typed times are on: --time-zone, else the calendar's own.
    func clock(of calendar: ICalendar) throws -> Clock {
        try Clock(named: timeZone ?? calendarZoneName(of: calendar), zones: calendar.zones)
    }

    /// The request's time, --now read in `zone` (one of `zones`, the
    /// calendar's own, or a system zone).
    func instant(inZone zone: String, zones: ZoneTable = ZoneTable()) throws -> Date {
        try Self.instant(now, inZone: zone, zones: zones)
    }

    /// A --now text read in `zone`; the system clock when there is none.
    static func instant(_ now: String?, inZone zone: String, zones: ZoneTable = ZoneTable()) throws -> Date {
        guard let now else { return Date() }
        return Date(timeIntervalSince1970: TimeInterval(try Clock(named: zone, zones: zones).instant(typed: now, option: "--now").instant))
    }
}

/// What a change does with a calendar file that did not import cleanly:
/// refuse, or with --force go on and keep the file as it was beside it.
func damagePolicy(force: Bool) -> CalendarFile.DamagePolicy {
    guard force else { return .refuse }
    return .keepCopy { copy in FileHandle.standardError.write(Data("the file as it was is kept in \(copy.path)\n".utf8)) }
}

/// A library error about the calendar at `path`, with the path in front
/// unless the message begins with it (a read-only file's does).
func aboutCalendar(_ path: String, _ error: ICalendarError) -> String {
    error.message.hasPrefix(path + " ") ? error.description : "\(path): \(error.description)"
}

/// A failed load or save as one message; a damaged file's with the way out.
func damagedOrPlain(_ error: ICalendarError, _ place: CalendarPlace) -> CLIError {
    guard error.code == .damaged else { return CLIError(aboutCalendar(place.path, error)) }
    let kept = switch place.location {
    case .file(let url): "the file as it is now is then kept beside it as \(url.lastPathComponent).damaged"
    case .folder: "each damaged file as it is now is then kept beside it as NAME.damaged"
    case .collection: "each damaged resource, as the server has it now, is then kept in horari's cache (its path is said)"
    case .database, .server: "the database is left as it is"
    }
    return CLIError("""
        \(error.message).
        `horari validate \(place.path)` lists every problem with its line. Mend them by hand, or make the change with --force: \
        \(kept).
        """)
}

/// "2026-11-27 18:00" (a time on `clock`) or "2026-11-28" (all day).
///
/// A time the clocks skip is refused; one they show twice needs its
/// abbreviation (`Clock.instant(typed:option:)`). The second of two equal
/// wall times cannot be written as a zoned time (RFC 5545 §3.3.5 reads that
/// as the first), so it is written as its UTC instant.
func parseTime(_ text: String, option: String, clock: Clock) throws -> CalendarTime {
    if text.contains(" ") || text.contains("T") {
        let (wall, t) = try clock.instant(typed: text, option: option)
        return clock.instant(wall) == t ? .zoned(wall, clock.name) : .utc(LocalDateTime(localSeconds: t))
    }
    guard text.count == 10 else {
        throw ValidationError("\(option) ‘\(text)’ is not 'YYYY-MM-DD HH:MM', or YYYY-MM-DD for all day (for example '2026-11-27 18:00')")
    }
    return .date(try parseDate(text, option: option))
}

/// A CSS3 colour name, `#RRGGBB` or `#RGB` (as CSS reads them); any other
/// word is a usage error (exit 2), as a date that does not exist is, in
/// every command. Whether red is refused is the library's call
/// (`CalendarItem.validate`), made when the item is added: a refusal (exit 1).
func parseColor(_ text: String) throws -> ItemColor {
    if text.hasPrefix("#") {
        guard let rgb = ItemColor.RGB(css: text) else { throw ValidationError("--color ‘\(text)’ is not #RRGGBB or #RGB (for example #1e90ff or #0a0)") }
        return ItemColor(rgb: rgb)
    }
    do { return try ItemColor.named(text) } catch { throw ValidationError("--color ‘\(text)’: \(error.message) or #RRGGBB") }
}

/// Whether `--color` asks for a colour chosen for the item (`auto`).
func isAutomaticColor(_ text: String?) -> Bool { text?.lowercased() == "auto" }

/// `--color auto`: a colour from the palette for the item's first category,
/// else its title (`ItemColor.automatic`), apart from the colours of the
/// items that meet on its first day on `clock` (its neighbours in the views).
func automaticColor(for item: CalendarItem, in calendar: ICalendar, clock: Clock) -> ItemColor {
    var neighbours: [ItemColor] = []
    if item.hasStart, let start = clock.seconds(item.start) {
        let wall = clock.rules.wall(atInstant: start)
        let dayStart = clock.rules.instant(forWall: (wall >= 0 ? wall / 86_400 : (wall - 86_399) / 86_400) * 86_400)
        let others = calendar.schedule(zoneNamedBy: ICalendar.bookZoneProperties)
        for o in others.occurrences(from: Date(timeIntervalSince1970: TimeInterval(dayStart)), to: Date(timeIntervalSince1970: TimeInterval(dayStart + 86_400)),
                                    floatingZone: clock.rules) where o.item.uid != item.uid {
            neighbours.append(o.item.color ?? .fallback)
        }
    }
    return ItemColor.automatic(for: item.categories.first ?? item.title, avoiding: neighbours)
}

/// "event ‘Yoga’ (Fri 2026-11-27 18:00–19:00)", its times on `clock`,
/// which is named when it is not the machine's (issue 43, 12): a date
/// alone is the same day on every clock.
func describe(_ item: CalendarItem, clock: Clock) -> String {
    let kind = item.kind == .task ? "task" : "event"
    return "\(kind) ‘\(item.title.shown)’ (\(describeTime(item, clock: clock, zoneNote: clock.zoneNote))\(item.color.map { ", \($0)" } ?? ""))"
}

/// An item's time on `clock`; `zoneNote` follows a time of day (not a date alone).
func describeTime(_ item: CalendarItem, clock: Clock, zoneNote: String = "") -> String {
    let start = item.start
    let day = dayText(start.localDate)
    let repeats = item.recurrenceRules.isEmpty ? "" : ", repeating \(item.recurrenceRules.map(\.icalValue).joined(separator: " "))"
    if item.isUndated { return "someday, no date" }
    if item.kind == .task {
        let due: String
        func at(_ t: CalendarTime) -> String {
            guard !t.isDate, let s = clock.seconds(t) else { return dayText(t.localDate) }
            return "\(dayText(clock.wall(s).date)) \(clock.time(s))"
        }
        if case .at(let time) = item.end { due = "due \(at(time))" } else { due = "no due date" }
        let timed = !start.isDate || { if case .at(let time) = item.end { return !time.isDate } else { return false } }()
        let note = timed ? zoneNote : ""
        guard item.hasStart else { return due + note + repeats }
        return "from \(at(start)), " + due + note + repeats
    }
    if start.isDate {
        if case .at(let end) = item.end, end.localDate > start.localDate.adding(days: 1) {
            return "\(day) to \(end.localDate.adding(days: -1)), all day" + repeats
        }
        return "\(day), all day" + repeats
    }
    guard let from = clock.seconds(start) else { return day + repeats }
    let to = from + item.length(floatingZone: clock.rules, zones: clock.zones)
    return (to > from ? clock.span(from: from, to: to) : "\(dayText(clock.wall(from).date)) \(clock.time(from))") + zoneNote + repeats
}

/// The end an item gets from --end or --minutes.
func itemEnd(start: CalendarTime, end: String?, minutes: Int?, clock: Clock) throws -> CalendarItem.End? {
    if end != nil, minutes != nil { throw ValidationError("give --end or --minutes, not both") }
    if let minutes {
        guard minutes > 0 else { throw ValidationError("--minutes must be at least 1") }
        // Checked before any arithmetic: no length can overflow on its way to the file.
        let most = Int(CalendarItem.maximumLength / 60)
        guard minutes <= most else {
            throw ValidationError("--minutes \(minutes) is longer than \(most / 1440) days, the longest an item may last; give a shorter length")
        }
        guard !start.isDate else { throw ValidationError("--minutes needs a start with a time; an all-day item takes --end YYYY-MM-DD") }
        return .duration(ItemDuration(seconds: minutes * 60))
    }
    guard let end else { return nil }
    var time = try parseTime(end, option: "--end", clock: clock)
    // An all-day end typed as the last day is made exclusive, as RFC 5545 wants.
    if start.isDate, case .date(let last) = time { time = .date(last.adding(days: 1)) }
    // Backwards is a mistake in what was typed: a usage error (2), as a negative --minutes is.
    if let from = clock.seconds(start), let to = clock.seconds(time), to < from {
        throw ValidationError("--end ‘\(end)’ is before the start, \(dayText(clock.wall(from).date)) \(clock.time(from)); give an end after it")
    }
    return .at(time)
}

/// `horari add`.
struct Add: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add an event or a task to a calendar file.",
        discussion: """
            Times are typed on the calendar's clock (--time-zone, else the calendar's own \
            zone; a new calendar is created on --time-zone, else the system's zone). A \
            time the clocks skip is refused; one they show twice takes its abbreviation \
            ('2026-10-25 02:30 CET'). Items last at most 366 days. A date without a time makes an all-day event; --end \
            then names its last day. Red is refused: it marks days with several items.

            Examples:
              horari add Meeting --start '2026-11-24 13:00' --minutes 45 --color slateblue
              horari add 'Open day' --start 2026-11-28 --end 2026-11-29 --color gold
              horari add 'Order yoga mats' --task --due '2026-11-27 20:00' --color orchid
              horari add Physio --start '2026-11-25 12:00' --minutes 45 --alarm -PT30M
              horari add 'Essay plan' --task --due 2026-12-04 --category Philosophy
              horari add 'Read Kant' --someday --category Philosophy
              horari add 'Pilates' --start '2026-11-24 19:00' --minutes 50 \\
                  --repeat 'FREQ=WEEKLY;BYDAY=TU'
              horari add 'Sants v Gràcia' --start '2026-10-03 17:00' --minutes 90 \\
                  --parent round-1
            """)

    @Argument(help: "The title.") var title: String
    @Flag(help: "Make a task (VTODO) instead of an event.") var task = false
    @Flag(help: "Make a task with no date, for some day (a VTODO with neither DTSTART nor DUE).") var someday = false
    @Option(help: "The start: 'YYYY-MM-DD HH:MM', or YYYY-MM-DD for all day.") var start: String?
    @Option(help: "The end: 'YYYY-MM-DD HH:MM', or the last day of an all-day event.") var end: String?
    @Option(parsing: .unconditional, help: "The length in minutes, instead of --end.", transform: WholeNumber.minutes) var minutes: Int?
    @Option(help: "When a task is due, 'YYYY-MM-DD HH:MM' or YYYY-MM-DD.") var due: String?
    @Option(help: "Its colour: a CSS name or #RRGGBB (not red, which marks busy days), or auto: one chosen for its category or title, apart from its day's.") var color: String?
    @Option(help: "Notes (DESCRIPTION).") var notes: String?
    @Option(help: "Where.") var location: String?
    @Option(name: .customLong("repeat"), help: "A recurrence rule, such as 'FREQ=WEEKLY;BYDAY=MO,WE'.") var rule: String?
    @Option(help: "The UID (default: a new random one).") var id: String?
    @Option(help: "A category, such as a subject (CATEGORIES), repeatable.") var category: [String] = []
    @Option(parsing: .unconditionalSingleValue,
            help: "A reminder (VALARM), repeatable: an iCalendar length from the start, or from a task's due time when it has no start (-PT15M, -P1D).")
    var alarm: [String] = []
    @Option(help: "The item it is part of, by ID (RELATED-TO): a match's round, a task's project. list shows it there.") var parent: String?
    @OptionGroup var book: BookOptions

    func validate() throws {
        for name in category {
            do { try CalendarItem.checkCategory(name) } catch { throw ValidationError("--category: \(error.message)") }
        }
        if someday {
            let dated = [("--start", start), ("--due", due), ("--end", end), ("--repeat", rule)].first { $0.1 != nil }?.0 ?? (minutes != nil ? "--minutes" : nil)
            if let dated { throw ValidationError("--someday is a task with no date; leave out \(dated), or leave out --someday") }
            if !alarm.isEmpty { throw ValidationError("--alarm needs a date to count from; a task for some day has none") }
            return
        }
        if due != nil && !task { throw ValidationError("--due is for tasks; add --task, or give an event's --end") }
        if start == nil && due == nil {
            throw ValidationError(task ? "a task needs --due (or --start): for example --due '2026-11-27 20:00', or --someday for a task with no date" : "an event needs --start: for example --start '2026-11-27 18:00', or --start 2026-11-28 for all day")
        }
    }

    func run() async throws {
        let added = try await book.updateOwnItems { calendar in
            let clock = try book.clock(of: calendar)
            var item = try makeItem(clock: clock)
            if let parent, calendar.item(uid: item.uid) == nil { item.parentUID = try parentUID(parent, of: item.uid, in: calendar, place: try book.place) }
            if isAutomaticColor(color) { item.color = automaticColor(for: item, in: calendar, clock: clock) }
            try calendar.add(item, at: try book.instant(inZone: clock.name, zones: clock.zones), rules: try calendarRules(of: calendar).rules)
            // A generated UID is named as the views name it (its short ID
            // among the calendar's items); an --id as it was typed.
            let shown = id ?? ShortIDs(calendar.schedule(zoneNamedBy: ICalendar.bookZoneProperties).items.map(\.uid)).short(for: item.uid)
            let within = item.parentUID.flatMap { uid in calendar.item(uid: uid).map { "‘\($0.title.shown)’ (\(ShortIDs(calendar.items.map(\.uid)).short(for: uid)))" } }
            return (item, clock, shown, within)
        }
        let within = added.3.map { ", part of \($0)" } ?? ""
        print("Added \(describe(added.0, clock: added.1)) as \(added.2.shown)\(within).")
    }

    private func makeItem(clock: Clock) throws -> CalendarItem {
        let uid = id ?? UUID().uuidString.lowercased() + "@horari"
        if someday {
            var item = CalendarItem(undatedTask: uid, title: title, notes: notes, categories: category)
            item.location = location
            if let color, !isAutomaticColor(color) { item.color = try parseColor(color) }
            return item
        }
        let dueTime = try due.map { try parseTime($0, option: "--due", clock: clock) }
        let startTime = try start.map { try parseTime($0, option: "--start", clock: clock) } ?? dueTime
        guard let startTime else { throw ValidationError("a start or due time is needed") }
        var end = try itemEnd(start: startTime, end: self.end, minutes: minutes, clock: clock)
        if let dueTime {
            guard end == nil || start == nil else { throw ValidationError("a task has --due instead of --end or --minutes") }
            end = .at(dueTime)
        }
        var item = CalendarItem(
            uid: uid, kind: task ? .task : .event, title: title,
            start: startTime, end: end, notes: notes, location: location, categories: category, hasStart: start != nil)
        if let color, !isAutomaticColor(color) { item.color = try parseColor(color) }
        if let rule {
            do { item.recurrenceRules = [try RecurrenceRule(parsing: rule)] } catch { throw ValidationError("--repeat ‘\(rule)’: \(error.description)") }
        }
        if task { item.status = .needsAction }
        // A task with only a due time has no start to count from (RFC 5545
        // §3.8.6.3): its reminders count from the due time.
        let edge: CalendarCore.Alarm.Edge = start == nil && task ? .end : .start
        for text in alarm { try item.addAlarm(try Alarms.reminder(text, option: "--alarm", from: edge, title: title)) }
        return item
    }
}

/// `horari edit`.
struct Edit: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit",
        abstract: "Change an event or a task in a calendar file.",
        discussion: """
            Only the options given change. A new --start keeps the item's length unless \
            --end or --minutes is given too. Each edit raises the item's SEQUENCE and \
            stamps LAST-MODIFIED, so calendars that sync by UID take the new version.
            Classes and sessions belong to the gym's book: change them with \
            `horari classes` and `horari sessions`.

            Examples:
              horari edit staff-meeting --start '2026-11-24 13:30'
              horari edit order-mats --title 'Order new yoga mats (12)' --color plum
              horari edit staff-meeting --no-color --notes ''
            """)

    @Argument(help: "The item's ID as list, week and day print it, or its whole UID.") var id: String
    @Option(help: "A new title.") var title: String?
    @Option(help: "A new start: 'YYYY-MM-DD HH:MM', or YYYY-MM-DD for all day.") var start: String?
    @Option(help: "A new end.") var end: String?
    @Option(parsing: .unconditional, help: "A new length in minutes.", transform: WholeNumber.minutes) var minutes: Int?
    @Option(help: "A new due time for a task.") var due: String?
    @Option(help: "A new colour: a CSS name or #RRGGBB (not red), or auto: one chosen for its category or title, apart from its day's.") var color: String?
    @Flag(help: "Remove the colour.") var noColor = false
    @Option(help: "New notes ('' removes them).") var notes: String?
    @Option(help: "A new place ('' removes it).") var location: String?
    @Option(name: .customLong("repeat"), help: "A new recurrence rule ('' stops the repetition).") var rule: String?
    @Option(help: "The item it is part of, by ID (RELATED-TO), in place of any it had.") var parent: String?
    @Flag(help: "Make it part of no other item.") var noParent = false
    @Option(help: "Change one occurrence of a repeating item: its date by the series, YYYY-MM-DD (with its time, 'YYYY-MM-DD HH:MM', when it meets more than once that day).") var occurrence: String?
    @Flag(help: "With --occurrence: change that occurrence and every later one (the series is split there).") var andFollowing = false
    @OptionGroup var book: BookOptions

    func validate() throws {
        if andFollowing && occurrence == nil { throw ValidationError("--and-following goes with --occurrence DATE") }
        if occurrence != nil && !andFollowing && rule != nil {
            throw ValidationError("--repeat changes a series, not one occurrence; add --and-following to change the rule from that occurrence on")
        }
        if color != nil && noColor { throw ValidationError("give --color or --no-color, not both") }
        if parent != nil && noParent { throw ValidationError("give --parent or --no-parent, not both") }
        if occurrence != nil && (parent != nil || noParent) {
            throw ValidationError("--parent and --no-parent change the whole item, not one occurrence; leave out --occurrence")
        }
        if [title, start, end, due, color, notes, location, rule, parent].allSatisfy({ $0 == nil }) && minutes == nil && !noColor && !noParent {
            throw ValidationError("nothing to change: give --title, --start, --end, --minutes, --due, --color, --no-color, --notes, --location, --repeat, --parent or --no-parent")
        }
    }

    /// An edit that leaves the item as it was: nothing is written.
    private struct Unchanged: Error {
        let item: CalendarItem
        let clock: Clock
    }

    func run() async throws {
        guard try book.place.exists else { throw noCalendarYet(try book.place) }
        if let occurrence { return try await editOccurrence(occurrence) }
        let old: CalendarItem, new: CalendarItem, clock: Clock, within: String
        do {
            (old, new, clock, within) = try await change()
        } catch let same as Unchanged {
            print("Nothing to change: \(describe(same.item, clock: same.clock)) is already so; the calendar was not written.")
            return
        }
        print("Changed \(describe(old, clock: clock))\n     to \(describe(new, clock: clock))\(within).")
    }

    /// Revises the item under the file's lock; throws ``Unchanged`` (so
    /// that nothing is saved) when the revision is the item as it was.
    private func change() async throws -> (CalendarItem, CalendarItem, Clock, String) {
        try await book.updateOwnItems { calendar in
            let uid = try resolveID(id, in: calendar, place: try book.place)
            guard let old = calendar.item(uid: uid) else { throw CLIError("there is no event or task with the UID ‘\(uid.shown)’") }
            if SchedulingBook.isSchedulingItem(old) {
                let isClass = SchedulingBook.isClassItem(old)
                throw CLIError("‘\(uid)’ is a \(isClass ? "class" : "session") of the gym's book; change it with `horari \(isClass ? "classes" : "sessions")`")
            }
            let clock = try book.clock(of: calendar)
            var new = try revise(old, clock: clock)
            let newParent = try parent.map { try parentUID($0, of: uid, in: calendar, place: try book.place) }
            if isAutomaticColor(color) { new.color = automaticColor(for: new, in: calendar, clock: clock) }
            let (now, rules) = (try book.instant(inZone: clock.name, zones: clock.zones), try calendarRules(of: calendar).rules)
            // A new parent (or none) whichever side stated the old one: the
            // item's own PARENT, in each changed occurrence too, and a CHILD
            // another item wrote naming it (not the gym's records, which
            // only `horari classes` and `sessions` change).
            var holders: [CalendarItem] = []
            if newParent != nil || noParent {
                setParent(newParent, of: &new)
                holders = calendar.items.filter {
                    $0.uid != uid && $0.uid != newParent && !SchedulingBook.isSchedulingItem($0) && $0.relations.contains(.init(uid: uid, type: .child))
                }
            }
            guard new != old || !holders.isEmpty else { throw Unchanged(item: old, clock: clock) }
            for var holder in holders {
                holder.relations.removeAll { $0 == .init(uid: uid, type: .child) }
                try calendar.update(holder, at: now, rules: rules)
            }
            if new != old { try calendar.update(new, at: now, rules: rules) }
            let within: String
            if let parent = newParent, parent != old.parentUID {
                within = ", part of ‘\(calendar.item(uid: parent)?.title.shown ?? parent.shown)’ (\(ShortIDs(calendar.items.map(\.uid)).short(for: parent)))"
            } else {
                within = noParent ? ", part of no other item" : ""
            }
            return (old, calendar.item(uid: uid) ?? new, clock, within)
        }
    }

    /// One occurrence changed (an override), or it and every later one (the
    /// series split there; Docs/WhereCalendarsMeet.md says why a split).
    private func editOccurrence(_ text: String) async throws {
        let said = try await book.updateOwnItems { calendar -> String in
            let uid = try resolveID(id, in: calendar, place: try book.place)
            guard let old = calendar.item(uid: uid) else { throw CLIError("there is no event or task with the UID ‘\(uid.shown)’") }
            if SchedulingBook.isSchedulingItem(old) {
                throw CLIError("‘\(uid)’ belongs to the gym's book; change a class's date with `horari classes move`, a session with `horari sessions`")
            }
            let clock = try book.clock(of: calendar)
            let now = try book.instant(inZone: clock.name, zones: clock.zones)
            let rules = try calendarRules(of: calendar).rules
            let instance = try occurrenceOf(old, text, clock: clock)
            if andFollowing {
                let (head, tail) = try calendar.splitSeries(uid: old.uid, at: instance.recurrenceID, floatingZone: clock.rules)
                var (newUID, revised) = (tail.uid, try revise(tail, clock: clock))
                if isAutomaticColor(color) { revised.color = automaticColor(for: revised, in: calendar, clock: clock) }
                if let head { try calendar.update(head, at: now, rules: rules) } else { try calendar.removeItem(uid: old.uid) }
                try calendar.add(revised, at: now, rules: rules)
                let ids = ShortIDs(calendar.items.map(\.uid))
                return "Changed ‘\(old.title.shown)’ from \(dayText(instance.recurrenceID.localDate)) on: \(describe(revised, clock: clock)), as \(ids.short(for: newUID))"
                    + (head == nil ? "." : "; the series before it is kept as \(ids.short(for: old.uid)).")
            }
            let one = old.item(for: instance)
            var changed = try revise(one, clock: clock)
            if isAutomaticColor(color) { changed.color = automaticColor(for: changed, in: calendar, clock: clock) }
            do throws(CalendarItemError) { try changed.validate(rules, zones: calendar.zones) } catch { throw CLIError(error.message) }
            var series = old
            series.changeOccurrence(instance.recurrenceID, to: changed)
            try calendar.update(series, at: now, rules: rules)
            return "Changed one occurrence of ‘\(old.title.shown)’: \(describe(one, clock: clock))\n     to \(describe(changed, clock: clock)); the rest of the series is as it was."
        }
        print(said)
    }

    private func revise(_ old: CalendarItem, clock: Clock) throws -> CalendarItem {
        var item = old
        if let title { item.title = title }
        if let start {
            let time = try parseTime(start, option: "--start", clock: clock)
            if case .at(let oldEnd) = old.end, end == nil, minutes == nil, old.hasStart || old.kind == .event {
                // Keep the length: an all-day end moves by as many days as the
                // start; a timed one keeps its length in seconds, whatever kind
                // of time either start is (a zoned one, or the UTC instant of a
                // repeated hour).
                if time.isDate, old.start.isDate {
                    let shift = time.wallTime.localSeconds - old.start.wallTime.localSeconds
                    item.end = .at(oldEnd.withWallTime(LocalDateTime(localSeconds: oldEnd.wallTime.localSeconds + shift)))
                } else if !time.isDate, !old.start.isDate, let newStart = clock.seconds(time) {
                    let t = newStart + old.length(floatingZone: clock.rules, zones: clock.zones)
                    let wall = clock.wall(t)
                    item.end = .at(clock.instant(wall) == t ? .zoned(wall, clock.name) : .utc(LocalDateTime(localSeconds: t)))
                } else {
                    item.end = nil
                }
            }
            item.start = time
            item.hasStart = true
        }
        if end != nil || minutes != nil {
            item.end = try itemEnd(start: item.start, end: end, minutes: minutes, clock: clock)
        }
        if let due {
            guard old.kind == .task else { throw ValidationError("--due is for tasks; ‘\(id)’ is an event, change its --end") }
            let time = try parseTime(due, option: "--due", clock: clock)
            item.end = .at(time)
            if !item.hasStart { item.start = time }
        }
        if let color, !isAutomaticColor(color) { item.color = try parseColor(color) }
        if noColor { item.color = nil }
        if let notes { item.notes = notes.isEmpty ? nil : notes }
        if let location { item.location = location.isEmpty ? nil : location }
        if let rule {
            if rule.isEmpty {
                item.recurrenceRules = []
            } else {
                do { item.recurrenceRules = [try RecurrenceRule(parsing: rule)] } catch { throw ValidationError("--repeat ‘\(rule)’: \(error.description)") }
            }
        }
        return item
    }
}

/// `horari delete`.
struct Delete: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete an event or a task from a calendar file.",
        discussion: """
            On a terminal it asks first; elsewhere (a script, a pipe) it needs --yes. \
            A series goes with all its changed instances. With --category, every item \
            of that category (a subject) goes: they are listed, and asked about once.

            Examples:
              horari delete staff-meeting
              horari delete order-mats --yes
              horari delete --category Philosophy
            """)

    @Argument(help: "The item's ID as list, week and day print it, or its whole UID.") var id: String?
    @Option(help: "Delete every item of this category (a subject), case ignored, instead of one item.") var category: String?
    @Flag(name: [.customShort("y"), .long], help: "Do not ask; delete.") var yes = false
    @Option(help: "Delete one occurrence of a repeating item: its date by the series, YYYY-MM-DD (with its time when it meets more than once that day).") var occurrence: String?
    @Flag(help: "With --occurrence: delete that occurrence and every later one (the series ends before it).") var andFollowing = false
    @OptionGroup var book: BookOptions

    func validate() throws {
        if andFollowing && occurrence == nil { throw ValidationError("--and-following goes with --occurrence DATE") }
        if let category {
            if id != nil { throw ValidationError("give an item's ID or --category, not both") }
            if occurrence != nil { throw ValidationError("--occurrence goes with an item's ID, not with --category") }
            do { try CalendarItem.checkCategory(category) } catch { throw ValidationError("--category: \(error.message)") }
        } else if id == nil {
            throw ValidationError("name the item to delete by its ID (as list, week and day print it), or give --category")
        }
    }

    func run() async throws {
        if let category { return try await deleteCategory(category) }
        let id = self.id ?? ""
        if let occurrence { return try await deleteOccurrence(occurrence, id: id) }
        // Ask before taking the file's lock: a person thinking must not hold up
        // other processes. The item is then deleted only if it is still the one
        // that was shown.
        let calendar = try await loadExistingCalendar(try book.place, quiet: true).calendar
        let clock = try book.clock(of: calendar)
        let uid = try resolveID(id, in: calendar, place: try book.place)
        let shown = try item(uid, in: calendar)
        guard try confirm("Delete \(describe(shown, clock: clock))? [y/N] ") else {
            print("Nothing deleted.")
            return
        }
        let (removed, parts) = try await book.updateOwnItems { calendar in
            guard try item(uid, in: calendar) == shown else {
                throw CLIError("‘\(uid)’ changed while you were asked; nothing was deleted, run the command again")
            }
            let parts = ItemTree(calendar.schedule(compilingSeries: false)).children(of: uid)
            return (try calendar.removeItem(uid: uid), parts.count)
        }
        print("Deleted \(describe(removed, clock: clock)).")
        // Its parts are not changed behind the user's back: their RELATED-TO
        // stays, and holds them again if the item comes back (an import).
        if parts > 0 {
            print("\(parts == 1 ? "The item that was part of it stays" : "The \(parts) items that were part of it stay"), listed on \(parts == 1 ? "its" : "their") own; edit ID --parent puts one under another.")
        }
    }

    /// One occurrence deleted (an EXDATE), or it and every later one (the
    /// series ends before it; from its first, the whole item goes).
    private func deleteOccurrence(_ text: String, id: String) async throws {
        let calendar = try await loadExistingCalendar(try book.place, quiet: true).calendar
        let seriesClock = try book.clock(of: calendar)
        let uid = try resolveID(id, in: calendar, place: try book.place)
        let shown = try item(uid, in: calendar)
        let instance = try occurrenceOf(shown, text, clock: seriesClock)
        let when = "\(dayText(instance.recurrenceID.localDate))\(instance.recurrenceID.isDate ? "" : " " + clock(instance.recurrenceID.wallTime) + seriesClock.zoneNote)"
        let what = andFollowing ? "‘\(shown.title.shown)’ from \(when) on" : "the occurrence of ‘\(shown.title.shown)’ on \(when)"
        guard try confirm("Delete \(what)? [y/N] ") else {
            print("Nothing deleted.")
            return
        }
        let (andFollowing, now) = (andFollowing, try book.instant(inZone: seriesClock.name, zones: seriesClock.zones))
        let whole = try await book.updateOwnItems { calendar -> Bool in
            guard try item(uid, in: calendar) == shown else {
                throw CLIError("‘\(uid)’ changed while you were asked; nothing was deleted, run the command again")
            }
            var series = shown
            if andFollowing {
                guard try series.removeOccurrences(from: instance.recurrenceID, floatingZone: seriesClock.rules, zones: seriesClock.zones) else {
                    try calendar.removeItem(uid: uid)
                    return true
                }
            } else {
                series.removeOccurrence(instance.recurrenceID)
            }
            try calendar.update(series, at: now, rules: try calendarRules(of: calendar).rules)
            return false
        }
        if whole {
            print("Deleted \(describe(shown, clock: seriesClock)): \(when) was its first occurrence.")
        } else {
            print("Deleted \(what)" + (andFollowing ? "; the series ends before it." : "; the rest of the series is as it was."))
        }
    }

    /// Every item of a category, listed and asked about once; the gym's
    /// book is left alone (its sessions and classes have commands of their own).
    private func deleteCategory(_ category: String) async throws {
        let calendar = try await loadExistingCalendar(try book.place, quiet: true).calendar
        let clock = try book.clock(of: calendar)
        let shown = calendar.items.filter { $0.isInCategory(category) && !SchedulingBook.isSchedulingItem($0) }
        guard !shown.isEmpty else {
            let known = Set(calendar.items.flatMap(\.categories)).sorted()
            let hint = known.isEmpty ? "no item has a category" : "the categories are " + known.prefix(8).map { "‘\($0.shown)’" }.joined(separator: ", ") + (known.count > 8 ? ", …" : "")
            throw CLIError("no item is in the category ‘\(category.shown)’ (\(hint)); nothing was deleted")
        }
        print("In ‘\(category.shown)’:")
        for item in shown { print("  \(describe(item, clock: clock))") }
        let what = shown.count == 1 ? "this item" : "these \(shown.count) items"
        guard try confirmOnTerminal("Delete \(what)? [y/N] ", yes: yes, refusing: "deleting \(what)") else {
            print("Nothing deleted.")
            return
        }
        let removed = try await book.updateOwnItems { calendar in
            let now = calendar.items.filter { $0.isInCategory(category) && !SchedulingBook.isSchedulingItem($0) }
            guard now == shown else {
                throw CLIError("the items in ‘\(category.shown)’ changed while you were asked; nothing was deleted, run the command again")
            }
            return calendar.removeItems(inCategory: category, keeping: SchedulingBook.isSchedulingItem)
        }
        print("Deleted \(removed.count) item\(removed.count == 1 ? "" : "s") in ‘\(category.shown)’.")
    }

    private func item(_ uid: String, in calendar: ICalendar) throws -> CalendarItem {
        guard let item = calendar.item(uid: uid) else {
            throw CLIError("there is no event or task with the UID ‘\(uid)’ in \(try book.place.path)")
        }
        if SchedulingBook.isSchedulingItem(item) {
            throw CLIError("‘\(uid)’ belongs to the gym's book; cancel a session with `horari sessions cancel`, a class's date with `horari classes cancel`")
        }
        return item
    }

    private func confirm(_ question: String) throws -> Bool {
        try confirmOnTerminal(question, yes: yes, refusing: "deleting ‘\(id ?? "")’")
    }
}

/// `horari done`.
struct Done: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "done",
        abstract: "Mark a task done, or with --undo still to do.",
        discussion: """
            A done task is written as RFC 5545 says (STATUS:COMPLETED, COMPLETED with \
            the time, PERCENT-COMPLETE:100), so other calendars tick it too. The views \
            show it with a check mark and leave it out of a day's count: a day is red \
            only when several items are still to do.

            Examples:
              horari done essay-1
              horari done 7f3c9a --undo
            """)

    @Argument(help: "The task's ID as list, week and day print it, or its whole UID.") var id: String
    @Flag(help: "Reopen the task: still to do.") var undo = false
    @OptionGroup var book: BookOptions

    /// What marking did.
    private enum Outcome {
        case done, reopened, alreadyDone, notDone
        /// One instance of a repeating task done, and the next to do (if any).
        case instanceDone(CalendarTime, next: CalendarTime?)
        /// One instance reopened.
        case instanceReopened(CalendarTime)
        /// A repeating task with no instance to do, or none done to undo.
        case noInstance
    }

    func run() async throws {
        guard try book.place.exists else { throw noCalendarYet(try book.place) }
        let (task, outcome, clock) = try await book.updateOwnItems { calendar -> (CalendarItem, Outcome, Clock) in
            let uid = try resolveID(id, in: calendar, place: try book.place)
            guard let item = calendar.item(uid: uid) else { throw CLIError("there is no event or task with the UID ‘\(uid.shown)’") }
            if SchedulingBook.isSchedulingItem(item) {
                throw CLIError("‘\(id.shown)’ belongs to the gym's book; mark a session with `horari sessions mark`")
            }
            let clock = try book.clock(of: calendar)
            guard item.kind == .task else { throw CLIError("‘\(id.shown)’ is an event (\(item.title.shown)); only a task can be done") }
            let now = try book.instant(inZone: clock.name, zones: clock.zones)
            let rules = try calendarRules(of: calendar).rules
            // A repeating task is done one instance at a time (CalendarItem+Tasks.swift says why).
            if item.isRecurring && !item.isDone {
                let (zone, zones) = (calendar.calendarZone.flatMap { try? calendar.zones.rules(forTZID: $0) } ?? .utc, calendar.zones)
                if undo {
                    guard let latest = item.doneInstances(floatingZone: zone, zones: zones).first else { return (item, .noInstance, clock) }
                    return (try calendar.reopen(uid: uid, at: now, rules: rules), .instanceReopened(latest), clock)
                }
                let instance: RecurrenceSet.Instance?
                do throws(CalendarItemError) { instance = try item.pendingInstance(floatingZone: zone, zones: zones) } catch { throw CLIError(error.message) }
                guard let instance else { return (item, .noInstance, clock) }
                let task = try calendar.markDone(uid: uid, at: now, rules: rules)
                let next = try? task.pendingInstance(floatingZone: zone, zones: zones)
                return (task, .instanceDone(instance.recurrenceID, next: next?.recurrenceID), clock)
            }
            guard item.isDone == undo else { return (item, undo ? .notDone : .alreadyDone, clock) }
            let task = undo ? try calendar.reopen(uid: uid, at: now, rules: rules) : try calendar.markDone(uid: uid, at: now, rules: rules)
            return (task, undo ? .reopened : .done, clock)
        }
        let what = describe(task, clock: clock)
        func day(_ t: CalendarTime) -> String { occurrenceText(t) }
        switch outcome {
        case .done: print("Done: \(what).")
        case .reopened: print("Still to do: \(what).")
        case .alreadyDone:
            let when = task.completed.flatMap { clock.seconds($0) }.map { " on \(dayText(clock.wall($0).date)) at \(clock.time($0))" }
            print("Already done\(when ?? ""): \(what).")
        case .notDone: print("Not done, nothing to undo: \(what).")
        case .instanceDone(let done, let next):
            print("Done: ‘\(task.title.shown)’ of \(day(done)).")
            print(next.map { "Next: \(day($0))." } ?? "That was the last; the series has nothing left to do.")
        case .instanceReopened(let instance):
            print("Still to do: ‘\(task.title.shown)’ of \(day(instance)).")
        case .noInstance:
            print(undo ? "No instance of ‘\(task.title.shown)’ is done, nothing to undo." : "Every instance of ‘\(task.title.shown)’ is done already: \(what).")
        }
    }
}

/// "Mon 2026-11-30" or "Mon 2026-11-30 09:00": an occurrence by its
/// recurrence ID, as the series writes it (what --occurrence takes).
func occurrenceText(_ t: CalendarTime) -> String {
    dayText(t.localDate) + (t.isDate ? "" : " " + clock(t.wallTime))
}

/// Makes `item` part of `parent` (or of none): its own `PARENT`, and each
/// changed occurrence's, which carries the series' lines.
func setParent(_ parent: String?, of item: inout CalendarItem) {
    item.parentUID = parent
    for i in item.overrides.indices where item.overrides[i].item.parentUID != nil || parent != nil {
        item.overrides[i].item.parentUID = parent
    }
}

/// The UID `--parent` names for the item `uid`: a plain event or task of
/// the calendar (not a record of the gym's book) that is not the item itself
/// nor one of its parts (which would make it its own ancestor).
func parentUID(_ typed: String, of uid: String, in calendar: ICalendar, place: CalendarPlace) throws -> String {
    guard !typed.isEmpty else { throw CLIError("--parent needs the ID of the item this one is part of; to make it part of none, give --no-parent") }
    let parent: String
    do { parent = try resolveID(typed, in: calendar, place: place) } catch let error as CLIError { throw CLIError("--parent: \(error.description)") }
    guard parent != uid else { throw CLIError("--parent ‘\(typed.shown)’ is the item itself; name the item it is part of") }
    if let record = calendar.item(uid: parent), SchedulingBook.isSchedulingItem(record) {
        throw CLIError("--parent ‘\(typed.shown)’ is a \(SchedulingBook.isClassItem(record) ? "class" : "session") of the gym's book; an event or task can be part of another event or task only")
    }
    if ItemTree(calendar.schedule(compilingSeries: false)).ancestors(of: parent).contains(uid) {
        throw CLIError("--parent ‘\(typed.shown)’ is part of this item already, so it cannot hold it; give it another parent first (edit \(typed.shown) --no-parent)")
    }
    return parent
}

/// The UID a typed ID names in a calendar: a whole UID, or a short ID as
/// the views print it (`ShortIDs`). An ambiguous one lists its candidates.
func resolveID(_ typed: String, in calendar: ICalendar, place: CalendarPlace) throws -> String {
    let ids = ShortIDs(calendar.items.map(\.uid))
    switch ids.resolve(typed) {
    case .found(let uid): return uid
    case .notFound: throw CLIError("there is no event or task with the ID ‘\(typed.shown)’ in \(place.path)")
    case .ambiguous(let uids):
        let shown = uids.prefix(10).map { ids.short(for: $0).shown }
        let width = shown.map(\.count).max() ?? 0
        let lines = zip(uids.prefix(10), shown).map { uid, id in
            "  \(id)\(String(repeating: " ", count: width - id.count))  \(calendar.item(uid: uid)?.title.shown ?? "")"
        }
        let more = uids.count > 10 ? "\n  … and \(uids.count - 10) more" : ""
        throw CLIError("the ID ‘\(typed.shown)’ is the start of \(uids.count) items; type more of one of them:\n\(lines.joined(separator: "\n"))\(more)")
    }
}

/// The occurrence `--occurrence` names: `YYYY-MM-DD`, or `YYYY-MM-DD HH:MM`
/// when the series meets more than once that day, as the series writes its
/// dates (its recurrence ID, whatever a changed instance says).
func occurrenceOf(_ item: CalendarItem, _ text: String, clock: Clock) throws -> RecurrenceSet.Instance {
    let date: LocalDate, time: LocalDateTime?
    if text.contains(" ") || text.contains("T") {
        let wall = try parseDateTime(text, option: "--occurrence")
        (date, time) = (wall.date, wall)
    } else {
        (date, time) = (try parseDate(text, option: "--occurrence"), nil)
    }
    do { return try item.occurrence(on: date, at: time, floatingZone: clock.rules, zones: clock.zones) } catch { throw CLIError(error.message) }
}

/// `base`, or `base-2`, `base-3`… when the calendar holds that UID.
/// Asks a yes/no question on a terminal (standard error); without one,
/// `--yes` is the only answer, and `refusing` says what was not done.
func confirmOnTerminal(_ question: String, yes: Bool, refusing: String) throws -> Bool {
    if yes { return true }
    guard isatty(STDIN_FILENO) == 1 else { throw CLIError("not \(refusing) without a question answered: run it at a terminal, or add --yes") }
    FileHandle.standardError.write(Data(question.utf8))
    let answer = readLine()?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
    return answer == "y" || answer == "yes"
}
