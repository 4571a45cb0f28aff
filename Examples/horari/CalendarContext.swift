import ArgumentParser
import CalendarCore
import CalendarViews
import CalendarScheduling
import CalendarStore
import Foundation
import ICalendarKit
import SchedulingICalendar

// One calendar and one clock for every command (Docs/TimeZones.md):
// - the calendar is --calendar (a file, a folder of one .ics per UID, or a
//   CalDAV collection's http(s) URL: CalendarPlace), else
//   $XDG_DATA_HOME/horari/calendar.ics, else ~/.local/share/horari/calendar.ics;
// - times are shown and typed on the calendar's own zone (X-WR-TIMEZONE)
//   unless --time-zone names another; the machine's zone only seeds a new
//   calendar, once, when it is created.

/// The one line a read command says when its calendar does not exist yet.
func noCalendarYet(_ place: CalendarPlace) -> CLIError {
    var isFolder: ObjCBool = false
    if let url = place.file, FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), isFolder.boolValue {
        return CLIError("\(url.path) is a folder, not a calendar file; give --calendar the path of an .ics file, or of the folder")
    }
    return CLIError("there is no calendar at \(place.path) yet; start one with `horari add 'Title' --start 'YYYY-MM-DD HH:MM'`, or try `horari sample --write \(place.file?.path ?? "gym.ics")`")
}

/// Reads a calendar that must exist, printing its diagnostics to standard error.
func loadExistingCalendar(_ place: CalendarPlace, strict: Bool = false, quiet: Bool = false, libical: Bool = ImportOptions.libicalIsAvailable,
                          detail: ImportOptions.ItemDetail = .complete) async throws -> ImportResult {
    try await loadExistingCalendar(place, window: nil, strict: strict, quiet: quiet, libical: libical, detail: detail).result
}

/// Reads a calendar that must exist, for a view of `window` when it is
/// kept in a database (`CalendarStore.load(touching:)`: only the items
/// that can touch it, and the UIDs of the others for the short IDs);
/// whole otherwise, as ``loadExistingCalendar(_:strict:quiet:libical:detail:)``.
func loadExistingCalendar(_ place: CalendarPlace, window: DateInterval?, strict: Bool = false, quiet: Bool = false,
                          libical: Bool = ImportOptions.libicalIsAvailable, detail: ImportOptions.ItemDetail = .complete) async throws -> WindowedRead {
    if let url = place.file {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), !isFolder.boolValue else { throw noCalendarYet(place) }
        return WindowedRead(result: try loadCalendar(url.path, strict: strict, quiet: quiet, libical: libical, detail: detail), unreadUIDs: [])
    }
    guard place.exists else { throw noCalendarYet(place) }
    let read: WindowedRead
    do {
        let store = try await place.store(ImportOptions(strict: strict, checksWithLibICal: libical, detail: detail))
        if let window, place.isDatabase {
            do { read = try await store.load(touching: window) } catch { throw error.underlying }
        } else {
            read = WindowedRead(result: try await store.readAllowingCache(), unreadUIDs: [])
        }
    } catch let error as CalendarStoreError {
        throw storeError(error)
    } catch let error as ICalendarError {
        throw CLIError("\(place.path): \(error.description)")
    }
    if !quiet {
        for d in read.result.diagnostics { FileHandle.standardError.write(Data("\(place.path):\(d)\n".utf8)) }
    }
    return read
}

/// The zone a calendar keeps: its own (`ICalendar.calendarZone(namedBy:)`, the book's first), else the
/// zone most of its items start in, else UTC (a calendar of only all-day,
/// floating and UTC times reads the same on every clock).
func calendarZoneName(of calendar: ICalendar) -> String {
    calendar.timesZoneName
}

/// The clock a command shows and reads times on: a zone, and how its times are written.
struct Clock {
    /// The zone's IANA name.
    let name: String
    /// Its rules.
    let rules: ZoneRules
    /// The zones the calendar defines for itself (`ICalendar.zones`): its
    /// items' times are read with these, and the clock may be one of them.
    let zones: ZoneTable

    /// The machine's zone (the library's `ZoneRules.currentIdentifier`: `TZ` first).
    static var systemZoneName: String { ZoneRules.currentIdentifier }

    init(named name: String, option: String = "--time-zone", zones: ZoneTable = ZoneTable()) throws {
        do { rules = try zones.rules(forTZID: name) } catch { throw ValidationError("\(option) ‘\(name)’: \(error.message)") }
        self.name = zones[name] != nil ? name : ZoneRules.ianaIdentifier(forTZID: name) ?? name
        self.zones = zones
    }

    /// `--time-zone`, else the calendar's own zone (`calendarZoneName(of:)`).
    /// Never the machine's zone.
    init(option: String?, calendar: ICalendar) throws {
        if let option { try self.init(named: option, zones: calendar.zones) } else {
            try self.init(named: calendarZoneName(of: calendar), option: "the calendar's zone (X-WR-TIMEZONE)", zones: calendar.zones)
        }
    }

    /// The instant of an item's time: a date or floating time on this clock,
    /// a zoned one with the calendar's rules for its zone (``zones``).
    func seconds(_ t: CalendarTime) -> Int64? { try? t.epochSeconds(floatingZone: rules, zones: zones) }

    /// Whether this is the machine's zone, which views need not name.
    var isSystem: Bool { ZoneRules.namesTheSameZone(name, Self.systemZoneName) }

    /// The line a view's header carries when its zone is not the machine's,
    /// in the view's language ("Times in Europe/Madrid").
    /// - Parameter names: the view's names (English for a command without `--locale`, whose
    ///   messages and day names are English).
    func header(_ names: CalendarNames = .english) -> String? { isSystem ? nil : names.timesIn(name) }

    /// What a confirmation adds after a time when its zone is not the
    /// machine's (` Europe/Madrid`, as the library writes a zoned time);
    /// nothing when it is.
    var zoneNote: String { isSystem ? "" : " \(name)" }

    func wall(_ t: Int64) -> LocalDateTime { LocalDateTime(localSeconds: rules.wall(atInstant: t)) }

    /// The instant of a wall reading on this clock (the first, where the clocks repeat it).
    func instant(_ wall: LocalDateTime) -> Int64 { rules.instant(forWall: wall.localSeconds) }

    /// Today's date on this clock.
    func today(now: Date = Date()) -> LocalDate { wall(Int64(now.timeIntervalSince1970.rounded(.down))).date }

    /// "09:30", or "02:30 CEST" where the clocks show that time twice.
    func time(_ t: Int64) -> String {
        let text = clock(wall(t))
        return rules.isRepeatedWall(atInstant: t) ? text + " " + label(t) : text
    }

    /// What tells the two sides of a repeated time apart: the tz database's
    /// abbreviation (`CEST`, `CET`), or the numeric offset where both sides
    /// share one name (Moscow's `MSK` in 2014).
    func label(_ t: Int64) -> String {
        if case .repeated(let a, let b) = rules.reading(ofWall: rules.wall(atInstant: t)),
            rules.databaseAbbreviation(atInstant: a) == rules.databaseAbbreviation(atInstant: b)
        {
            return ZoneRules.numericAbbreviation(rules.offset(atInstant: t))
        }
        return rules.databaseAbbreviation(atInstant: t)
    }

    /// "Wed 2026-11-25 18:30–19:30"; across midnight "Wed 2026-11-25 22:00 – Thu 08:00";
    /// over several days "Wed 2026-11-25 22:00 – Sat 2026-11-28 08:00".
    func span(from start: Int64, to end: Int64) -> String {
        let a = wall(start), b = wall(end)
        let head = "\(dayText(a.date)) \(time(start))"
        if b.date == a.date { return head + "–" + time(end) }
        if b.date == a.date.adding(days: 1) { return head + " – " + String(dayText(b.date).prefix(3)) + " " + time(end) }
        return head + " – " + dayText(b.date) + " " + time(end)
    }

    /// A date and time typed on this clock: `YYYY-MM-DD HH:MM`, with the
    /// zone's abbreviation or offset after it where the clocks show that time
    /// twice (`2026-10-25 02:30 CET`), exactly as ``time(_:)`` prints it.
    ///
    /// A time the clocks skip is refused, naming the change; so is a repeated
    /// time without its abbreviation. (Typed times are refused rather than
    /// moved, so that what is booked is always what was typed; the RFC 5545
    /// rule that moves a skipped time applies to times read from files and to
    /// recurring instances, see Docs/TimeZones.md.)
    func instant(typed text: String, option: String) throws -> (wall: LocalDateTime, instant: Int64) {
        let words = text.split(separator: " ", omittingEmptySubsequences: true)
        let suffix = words.count == 3 ? String(words[2]) : nil
        let wall = try parseDateTime(suffix == nil ? text : words[0...1].joined(separator: " "), option: option)
        let dayAndTime = "\(clock(wall)) on \(wall.date)"
        switch rules.reading(ofWall: wall.localSeconds) {
        case .unique(let t):
            if let suffix, !matches(suffix, t) {
                throw ValidationError("\(option) ‘\(text)’: \(name) is on \(rules.databaseAbbreviation(atInstant: t)) at \(dayAndTime), not \(suffix)")
            }
            return (wall, t)
        case .skipped(let before, let after):
            throw ValidationError("\(option) ‘\(text)’: \(clock(wall)) does not exist on \(wall.date) in \(name): clocks go from \(clock(LocalDateTime(localSeconds: before))) to \(clock(LocalDateTime(localSeconds: after))); pick a time outside that gap")
        case .repeated(let first, let second):
            let a = label(first), b = label(second)
            if let suffix {
                if matches(suffix, first) { return (wall, first) }
                if matches(suffix, second) { return (wall, second) }
                throw ValidationError("\(option) ‘\(text)’: \(dayAndTime) in \(name) is either \(a) or \(b), not \(suffix)")
            }
            throw ValidationError("\(option) ‘\(text)’: \(dayAndTime) happens twice in \(name), as the clocks go back; write ‘\(wall.date) \(clock(wall)) \(a)’ for the first or ‘\(wall.date) \(clock(wall)) \(b)’ for the second")
        }
    }

    /// Whether a typed abbreviation or offset (`CET`, `+01`, `+01:00`, `+0100`) names the offset at `t`.
    private func matches(_ suffix: String, _ t: Int64) -> Bool {
        if suffix.uppercased() == rules.databaseAbbreviation(atInstant: t).uppercased() { return true }
        let offset = rules.offset(atInstant: t)
        let digits = suffix.filter(\.isNumber)
        guard let sign = suffix.first, sign == "+" || sign == "-", [2, 4].contains(digits.count), let v = Int(digits) else { return false }
        let seconds = digits.count == 2 ? v * 3600 : v / 100 * 3600 + v % 100 * 60
        return (sign == "-" ? -seconds : seconds) == offset
    }
}

/// The events and tasks of a calendar that break a set of rules (the gym's
/// classes and sessions follow the book's own rules), with why.
/// Every rule an item breaks is listed (a title "1st thing" in red is named
/// for both); `structure` adds the first of `validate`'s other findings (an
/// empty title, an end before the start), which a calendar that names its
/// rules asks for and a plain calendar of other programs' events does not.
func itemsBreaking(_ rules: ValidationRules, in calendar: ICalendar, structure: Bool = true) -> [(uid: String, message: String)] {
    calendar.items.filter { !SchedulingBook.isSchedulingItem($0) }.flatMap { item in
        var found = item.ruleBreaks(rules).map { (item.uid, $0.message) }
        if structure {
            do throws(CalendarItemError) { try item.validate(rules, zones: calendar.zones) } catch {
                if !found.contains(where: { $0.1 == error.message }) { found.append((item.uid, error.message)) }
            }
        }
        return found
    }
}

/// The rules a calendar asks for (`ICalendar.rulesName`, default `default`).
func calendarRules(of calendar: ICalendar) throws -> (name: String, rules: ValidationRules) {
    do { return try calendar.validationRules() } catch { throw unknownRules(error) }
}

/// A window typed backwards (`--to` before `--from`): a usage error, said alike in every command.
func backwardsWindow(from: String, to: String) -> ValidationError {
    ValidationError("--to ‘\(to)’ is before --from ‘\(from)’; give the earlier date first")
}

/// The library's refusal of a calendar's unknown rules, with horari's remedy.
func unknownRules(_ error: BookImportError) -> CLIError {
    guard case .unknownRules(let name) = error else { return CLIError(error.description) }
    let known = ValidationRules.presets.map(\.name).joined(separator: " or ")
    return CLIError("the calendar asks for rules ‘\(name)’ (X-HORARI-RULES), which horari does not know; use \(known) with `horari rules`")
}

/// Said on standard error when another process has held a calendar's lock for a second.
func sayWaiting(for place: CalendarPlace) {
    FileHandle.standardError.write(Data("waiting for another horari to finish with \(place.name)…\n".utf8))
}

extension String {
    /// The text with its control characters written out (`\x1b`, `\n`), so
    /// that a title from a file cannot move the cursor, clear the screen or
    /// change the colours of a terminal it is printed on.
    var shown: String {
        // Control characters (Cc) are U+0000–001F and U+007F–009F: in UTF-8 a byte below 0x20, 0x7F, or a
        // sequence led by 0xC2. Text with none of those bytes (nearly every title) is looked at no further:
        // the look at each scalar's properties was 2% of an unchanged `month` of 10,000 members.
        guard utf8.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == 0xC2 }) else { return self }
        guard unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else { return self }
        var out = ""
        for u in unicodeScalars {
            switch u {
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default:
                if u.properties.generalCategory == .control {
                    let hex = String(u.value, radix: 16)
                    out += u.value < 0x100 ? "\\x" + (hex.count < 2 ? "0" : "") + hex : "\\u{" + hex + "}"
                } else {
                    out.unicodeScalars.append(u)
                }
            }
        }
        return out
    }
}
