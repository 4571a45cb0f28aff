import ArgumentParser
import CalendarCore
import CalendarScheduling
import CalendarStore
import Foundation
import ICalendarKit

/// Where the calendar a command works on lives (`CalendarStore`): one
/// `.ics` file, a folder of one `.ics` per UID (what khal and vdirsyncer
/// keep), a CalDAV collection, `--calendar https://…/`, an SQLite database
/// (`gym.sqlite`) or a PostgreSQL one (`postgres://…`). A file is read
/// and saved as it always was (under its lock, atomically, a booking
/// splicing one record); the others through the store.
struct CalendarPlace {
    /// Where it is.
    let location: CalendarLocation
    /// Whether it is the default calendar (`$XDG_DATA_HOME/horari/calendar.ics`), not one the user named.
    var isDefault = false

    /// Makes sure a new calendar file has a folder to go in: the default
    /// calendar's folder is made (it is horari's own); a folder the user
    /// named that does not exist is refused, never made unasked (issue 28,
    /// 8: `add --calendar nope/missing.ics` created `nope/`, a typo's folder).
    func prepareFolder() throws {
        guard let url = file ?? database else { return }
        let folder = url.deletingLastPathComponent()
        if isDefault {
            try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            return
        }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder) else {
            throw CLIError("there is no folder \(folder.path) for the calendar \(url.path); create it first (mkdir -p '\(folder.path)'), or name a calendar in a folder that exists")
        }
        guard isFolder.boolValue else {
            throw CLIError("\(folder.path) is a file, not a folder, so there can be no calendar \(url.path) in it")
        }
    }

    /// The file, for a calendar kept in one file.
    var file: URL? {
        if case .file(let url) = location { return url }
        return nil
    }

    /// The database, for a calendar kept in SQLite.
    var database: URL? {
        if case .database(let url) = location { return url }
        return nil
    }

    /// Whether it is a database (SQLite or a server), which reads a view's window alone.
    var isDatabase: Bool {
        switch location {
        case .database, .server: true
        case .file, .folder, .collection: false
        }
    }

    /// The path or URL, as messages say it.
    var path: String { location.description }

    /// Its last name (`gym.ics`, `gym/`, the collection's), for short messages.
    var name: String {
        switch location {
        case .file(let url), .database(let url): url.lastPathComponent
        case .folder(let url), .collection(let url): url.lastPathComponent + "/"
        case .server: location.description
        }
    }

    /// Whether there is a calendar there to read: a file or folder that
    /// exists; a collection is asked when read.
    var exists: Bool { CalendarStore(location).exists }

    /// Writes the gym's book into the calendar as this place keeps it: a
    /// file whole (`SchedulingFile` changes one occurrence in place); a
    /// folder or a collection, one resource per UID, with each class's
    /// earlier years in parts of their own, so that a booking writes this
    /// year's resource, not the class's history.
    /// - Parameter year: the current year on the book's clock.
    func setScheduling(_ book: SchedulingBook, in calendar: inout ICalendar, year: Int) {
        switch location {
        case .folder, .collection:
            calendar.setScheduling(book, splittingClassesBefore: year)
        case .file, .database, .server:
            calendar.setScheduling(book)
        }
    }

    /// The store that reads and changes it.
    /// - Throws: for a collection, a `HORARI_CALDAV_TIMEOUT` that is not a
    ///   number of seconds above 0; for a database server, what opening it
    ///   throws (`ServerDatabases`).
    func store(_ options: ImportOptions = ImportOptions()) async throws -> CalendarStore {
        if case .server(let url) = location {
            return CalendarStore(location, database: try await ServerDatabases.shared.database(url), options: options)
        }
        var store = CalendarStore(location, options: options)
        store.notices = { FileHandle.standardError.write(Data("\(location): \($0)\n".utf8)) }
        if case .collection = location, let limit = try Self.requestTimeout() { store.requestTimeout = limit }
        return store
    }

    /// `HORARI_CALDAV_TIMEOUT`: the seconds a request to a slow server may
    /// take (default 30), at most a day; `nil` when it is not set. A value
    /// that is not a number above 0 is refused, not silently ignored.
    static func requestTimeout(_ environment: [String: String] = ProcessInfo.processInfo.environment) throws -> Duration? {
        guard let text = environment["HORARI_CALDAV_TIMEOUT"] else { return nil }
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard let seconds = TimeInterval(trimmed), seconds.isFinite, seconds > 0, seconds <= 86_400 else {
            throw CLIError("HORARI_CALDAV_TIMEOUT=\(text) is not a number of seconds between 0 and 86400 (such as 60); set it to one, or unset it for the default of 30 s")
        }
        return Duration(timeInterval: seconds)
    }
}

/// The calendar a command works on: `--calendar` (a file, a folder, an
/// `http(s)://` collection, an SQLite file or a `postgres://` database),
/// else the XDG data folder's file.
func calendarPlace(_ option: String?) throws -> CalendarPlace {
    guard let option else { return CalendarPlace(location: .file(defaultCalendarFile()), isDefault: true) }
    do { return CalendarPlace(location: try CalendarLocation(option)) } catch { throw CLIError(error.description) }
}

/// The calendar a command names: a positional FILE or `--calendar`, not both.
func calendarPlace(file: String?, option: String?) throws -> CalendarPlace {
    if file != nil, option != nil { throw ValidationError("give the calendar as FILE or with --calendar, not both") }
    return try calendarPlace(file ?? option)
}

/// `$XDG_DATA_HOME/horari/calendar.ics`, else `~/.local/share/horari/calendar.ics`.
func defaultCalendarFile() -> URL {
    let env = ProcessInfo.processInfo.environment
    let data = env["XDG_DATA_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
        ?? (env["HOME"] ?? NSHomeDirectory()) + "/.local/share"
    return URL(fileURLWithPath: data).appendingPathComponent("horari/calendar.ics")
}

/// A store's failure as one line: the place, what went wrong, the HTTP status.
func storeError(_ error: CalendarStoreError) -> CLIError {
    CLIError(error.description)
}

/// The store's calls as the CLI makes them: the typed failure
/// (`CalendarStoreFailure`) given back as the error inside it, which the
/// commands sort by its type (a `SchedulingError` from a change, a
/// damaged calendar's `ICalendarError`, the server's `CalendarStoreError`).
extension CalendarStore {
    /// `load()`, its failure unwrapped.
    func read() async throws -> ImportResult {
        do { return try await load() } catch { throw error.underlying }
    }

    /// `loadAllowingCache()`, its failure unwrapped: a collection whose
    /// server cannot be reached is read from the cache, and one line on
    /// standard error says so and as of when.
    func readAllowingCache() async throws -> ImportResult {
        let read: CachedRead
        do { read = try await loadAllowingCache() } catch { throw error.underlying }
        if let asOf = read.asOf { sayReadFromCache(location, asOf: asOf, kept: keptChanges().count) }
        return read.result
    }

    /// `update(exporterFor:whileWaiting:ifDamaged:_:)`, its failure unwrapped.
    func change<T>(exporterFor: (ICalendar) throws -> ICalendarExporter, whileWaiting: (() -> Void)?, ifDamaged: CalendarFile.DamagePolicy,
                   _ body: (inout ICalendar) throws -> T) async throws -> T {
        do { return try await update(exporterFor: exporterFor, whileWaiting: whileWaiting, ifDamaged: ifDamaged, body) } catch { throw error.underlying }
    }

    /// `update(holding:alsoHolding:exporterFor:whileWaiting:ifDamaged:_:)`, its failure unwrapped.
    func change<T>(holding uids: Set<String>, alsoHolding: (ICalendar) -> Set<String>, exporterFor: (ICalendar) throws -> ICalendarExporter,
                   whileWaiting: (() -> Void)?, ifDamaged: CalendarFile.DamagePolicy, _ body: (inout ICalendar) throws -> T) async throws -> T? {
        do {
            return try await update(holding: uids, alsoHolding: alsoHolding, exporterFor: exporterFor, whileWaiting: whileWaiting, ifDamaged: ifDamaged, body)
        } catch {
            throw error.underlying
        }
    }
}

/// The one line a read from a collection's cache says on standard error:
/// the server cannot be reached, and as of when the calendar is shown.
func sayReadFromCache(_ location: CalendarLocation, asOf: Date, kept: Int = 0) {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.dateFormat = "yyyy-MM-dd HH:mm"
    let when = formatter.string(from: asOf)
    FileHandle.standardError.write(Data("\(location): the server cannot be reached; showing the calendar as of \(when) (horari's cache, \(TimeZone.current.identifier))\(kept == 0 ? "" : kept == 1 ? " with the change you made since" : " with the \(kept) changes you made since"); changes to your own events and tasks are kept till it answers, any other change needs it\n".utf8))
}

/// Refuses a database's name (`.sqlite`, `.sqlite3`, `.db`), or a URL
/// (`postgres://…`, said without its password), for a file that gets
/// iCalendar text: written there, it would not open as the database its
/// name promises.
func refuseDatabaseName(_ path: String?, option: String) throws {
    if let path, path.contains("://") {
        let named: String
        do { named = try CalendarLocation(path).description } catch { throw ValidationError("\(option): \(error.description)") }
        throw ValidationError("\(option) \(named): that is a URL, and this writes an .ics file; write a file, then `horari import FILE --into URL`")
    }
    guard let path, CalendarLocation.databaseExtensions.contains(URL(fileURLWithPath: path).pathExtension.lowercased()) else { return }
    let ics = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent + ".ics"
    throw ValidationError("\(option) \(path): that is a database's name, and this writes an .ics file; write \(ics), then `horari import \(ics) --into \(path)`")
}
