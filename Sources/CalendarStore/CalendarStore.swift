import CalendarCore
import Foundation
import ICalendarKit

/// A calendar where it lives — one `.ics` file, a folder of one `.ics` per
/// `UID`, or a CalDAV collection — read whole, and changed under that
/// place's own guarantee: a file under its lock and saved atomically, a
/// folder under its lock with only the changed files written, a collection
/// with conditional writes.
///
/// ```swift
/// let store = CalendarStore(try CalendarLocation("calendars/gym/"))
/// let calendar = try store.load().calendar
/// try store.update { calendar in calendar.name = "Gimnàs Sants" }
/// ```
public struct CalendarStore: Sendable {
    /// Where the calendar lives.
    public let location: CalendarLocation
    /// How its text is read.
    public var options: ImportOptions
    /// The credentials for a collection; `nil` looks them up
    /// (``CalDAVCredentials/lookUp(for:environment:netrc:)``).
    public var credentials: CalDAVCredentials?
    /// Told, one line each, what a person should know that is not an error:
    /// for a collection, a change an earlier command could not write in full
    /// that is written now, or left because another client changed the same
    /// resource meanwhile. `nil` tells no one.
    public var notices: (@Sendable (String) -> Void)?
    /// Where a collection's cache folders live (one per collection, named by
    /// the digest of its URL); `nil` is `$XDG_CACHE_HOME/horari/caldav`, else
    /// `~/.cache/horari/caldav`. An app gives its own (its container's caches).
    public var cacheFolder: URL?
    /// The longest one request to a collection's server may take, in seconds
    /// (``CalDAVClient/timeout``).
    public var requestTimeout: TimeInterval = 30

    /// A store for a location.
    /// - Parameters:
    ///   - location: where the calendar lives.
    ///   - options: how its text is read.
    ///   - credentials: for a collection; `nil` takes them from
    ///     `HORARI_CALDAV_USER` and `HORARI_CALDAV_PASSWORD`, else `~/.netrc`.
    public init(_ location: CalendarLocation, options: ImportOptions = ImportOptions(), credentials: CalDAVCredentials? = nil) {
        self.location = location
        self.options = options
        self.credentials = credentials
    }

    /// Whether there is a calendar there yet.
    public var exists: Bool {
        switch location {
        case .file(let url):
            var isFolder: ObjCBool = false
            return FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) && !isFolder.boolValue
        case .folder(let url):
            var isFolder: ObjCBool = false
            return FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) && isFolder.boolValue
        case .collection:
            return true
        }
    }

    /// The calendar and what reading it found. A file or folder that does
    /// not exist reads as an empty calendar.
    /// - Throws: ``CalendarStoreError``, or `ICalendarError` for a file that is not iCalendar.
    public func load() throws -> ImportResult {
        switch location {
        case .file(let url):
            return try CalendarFile.load(url, options: options)
        case .folder(let url):
            guard exists else { return ImportResult(calendar: ICalendar(), diagnostics: []) }
            return try FolderStore(folder: url, options: options).load()
        case .collection(let url):
            return try CollectionStore(url, options: options, credentials: credentials, notices: notices, cacheFolder: cacheFolder, timeout: requestTimeout).load()
        }
    }

    /// Changes part of the calendar: the resources that hold `uids` (and the
    /// calendar's own properties), then those that hold what `alsoHolding`
    /// names in what was read — for a change that needs a few records of a
    /// large calendar, such as a booking (its class and the members on its
    /// roster), whose cost should not follow the calendar's size.
    ///
    /// Only a CalDAV collection is read in part (its cache knows which
    /// resource holds which UID); for a file or a folder, and when the
    /// cache cannot tell, this returns `nil` having done nothing: make the
    /// change with ``update(exporterFor:whileWaiting:ifDamaged:_:)``. `body`
    /// gets a calendar of just those resources, may run more than once, and
    /// must change nothing but it; a change that would add a UID another
    /// resource already holds is not made here either (`nil`).
    ///
    /// - Parameters:
    ///   - uids: the UIDs whose resources to read.
    ///   - alsoHolding: given what was read, the UIDs whose resources to read as well.
    ///   - exporterFor: the exporter the changed resources are written with.
    ///   - whileWaiting: called once when another process has held the cache's lock for a second.
    ///   - ifDamaged: what to do with a resource that did not import cleanly.
    ///   - body: the change.
    /// - Returns: what `body` returns, or `nil` when the change must be made on the whole calendar.
    public func update<T>(holding uids: Set<String>, alsoHolding: (ICalendar) -> Set<String> = { _ in [] },
                          exporterFor: (ICalendar) throws -> ICalendarExporter = { _ in ICalendarExporter(options: .init(includeRejected: true)) },
                          whileWaiting: (() -> Void)? = nil, ifDamaged: CalendarFile.DamagePolicy = .refuse,
                          _ body: (inout ICalendar) throws -> T) throws -> T? {
        guard case .collection(let url) = location else { return nil }
        return try CollectionStore(url, options: options, credentials: credentials, notices: notices, cacheFolder: cacheFolder, timeout: requestTimeout)
            .update(holding: uids, alsoHolding: alsoHolding, exporterFor: exporterFor, whileWaiting: whileWaiting, ifDamaged: ifDamaged, body)
    }

    /// Loads, changes and saves the calendar, as the location allows:
    /// see ``CalendarStore``. A change to a calendar that did not import
    /// cleanly is refused unless `ifDamaged` says otherwise
    /// (`CalendarFile.DamagePolicy`).
    ///
    /// - Parameters:
    ///   - exporterFor: the exporter the changed calendar is written with.
    ///   - whileWaiting: called once when another process has held the lock for a second.
    ///   - ifDamaged: what to do with a calendar that did not import cleanly.
    ///   - body: the change.
    /// - Returns: what `body` returns.
    /// - Throws: what `body` throws (nothing is written then), ``CalendarStoreError``, or `ICalendarError`.
    public func update<T>(exporterFor: (ICalendar) throws -> ICalendarExporter = { _ in ICalendarExporter(options: .init(includeRejected: true)) },
                          whileWaiting: (() -> Void)? = nil, ifDamaged: CalendarFile.DamagePolicy = .refuse,
                          _ body: (inout ICalendar) throws -> T) throws -> T {
        switch location {
        case .file(let url):
            return try CalendarFile.update(url, options: options, exporterFor: exporterFor, whileWaiting: whileWaiting, ifDamaged: ifDamaged, body)
        case .folder(let url):
            return try FolderStore(folder: url, options: options).update(exporterFor: exporterFor, whileWaiting: whileWaiting, ifDamaged: ifDamaged, body)
        case .collection(let url):
            return try CollectionStore(url, options: options, credentials: credentials, notices: notices, cacheFolder: cacheFolder, timeout: requestTimeout).update(exporterFor: exporterFor, whileWaiting: whileWaiting, ifDamaged: ifDamaged, body)
        }
    }
}
