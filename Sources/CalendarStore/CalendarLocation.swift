import CalendarCore
import Foundation

/// Where a calendar lives: one `.ics` file, a folder of one `.ics` per `UID`
/// (the vdir layout khal and vdirsyncer use), a CalDAV collection, or an
/// SQLite database that keeps the book as records (Docs/Storage.md).
///
/// ```swift
/// let here = try CalendarLocation("gym.ics")                         // a file
/// let folder = try CalendarLocation("calendars/gym/")                // a folder
/// let server = try CalendarLocation("https://dav.example.com/gym/")  // a collection
/// let database = try CalendarLocation("gym.sqlite")                  // a database
/// let server = try CalendarLocation("postgres://desk@db.example.com/gym") // a database server
/// ```
public enum CalendarLocation: Hashable, Sendable, CustomStringConvertible {
    /// One `.ics` file holding the whole calendar.
    case file(URL)
    /// A folder with one `.ics` file per `UID`.
    case folder(URL)
    /// A CalDAV collection (RFC 4791), by its URL.
    case collection(URL)
    /// An SQLite database (`.sqlite`, `.sqlite3`, `.db`): the book's records
    /// (`SQLiteBookStorage`) and the calendar's other components beside them.
    case database(URL)
    /// A database on a server, by its URL (`postgres://USER@HOST:PORT/DB`):
    /// the book's records and the calendar beside them, for desks on many
    /// machines. ``CalendarStore`` reads and changes it through the
    /// ``CalendarDatabase`` it is given (the `CalendarStorePostgres`
    /// product's `PostgresBookStorage`, or an app's own), since the library
    /// itself speaks no server's protocol.
    case server(URL)

    /// The URL schemes of a database server: PostgreSQL's, as libpq reads them.
    public static let serverSchemes: Set<String> = ["postgres", "postgresql"]

    /// The endings of a file that is an SQLite database rather than an `.ics` file.
    public static let databaseExtensions: Set<String> = ["sqlite", "sqlite3", "db"]

    /// The location a command-line argument names: an `http://` or
    /// `https://` URL is a collection; an existing folder, or a path that
    /// ends with `/`, is a folder; a path ending `.sqlite`, `.sqlite3` or
    /// `.db` is a database; a `postgres://` or `postgresql://` URL is a
    /// database server; anything else is a file.
    /// - Throws: ``CalendarStoreError`` for a URL of another scheme, or one without a host.
    public init(_ text: String) throws(CalendarStoreError) {
        let lower = text.lowercased()
        if lower.hasPrefix("http://") || lower.hasPrefix("https://") {
            guard let url = URL(string: text), url.host?.isEmpty == false else {
                throw CalendarStoreError(.invalidLocation, "‘\(text)’ is not a URL with a host, such as https://dav.example.com/calendars/gym/")
            }
            self = .collection(url.path.hasSuffix("/") ? url : url.appendingPathComponent(""))
            return
        }
        if let range = text.range(of: "://"), text[..<range.lowerBound].count > 1,
           text[..<range.lowerBound].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }) {
            // A URL, whether or not Foundation reads it (`p#ss` in a password): never taken for a file's path.
            let scheme = text[..<range.lowerBound].lowercased()
            guard Self.serverSchemes.contains(scheme) else {
                throw CalendarStoreError(.invalidLocation, "‘\(Self.hidingPassword(text))’: a calendar is a file, a folder, an http(s):// CalDAV collection or a postgres:// database, not \(scheme)://")
            }
            guard let url = URL(string: text), url.host?.isEmpty == false else {
                throw CalendarStoreError(.invalidLocation, "‘\(Self.hidingPassword(text))’ is not a database URL Horari can read (with a host, such as postgres://desk@127.0.0.1:5432/gym)",
                                         suggestion: "write a password's reserved characters (# / ? @ :) percent-encoded, as %23 %2F %3F %40 %3A")
            }
            self = .server(url)
            return
        }
        // `postgres:user:pw@host/db`, the slashes forgotten: a mistyped URL, not a file's name (whose
        // folder a message would then name, password and all).
        if let colon = text.firstIndex(of: ":"), Self.serverSchemes.contains(text[..<colon].lowercased()) {
            throw CalendarStoreError(.invalidLocation, "‘\(text[..<colon]):…’ is not a database URL: write it as \(text[..<colon].lowercased())://USER@HOST:PORT/DB")
        }
        var isFolder: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: text, isDirectory: &isFolder)
        let url = URL(fileURLWithPath: text)
        if (exists && isFolder.boolValue) || text.hasSuffix("/") {
            self = .folder(url)
        } else {
            self = Self.databaseExtensions.contains(url.pathExtension.lowercased()) ? .database(url) : .file(url)
        }
    }

    /// The path or URL, as a person would type it.
    /// A collection's URL is said without any user or password it was given with.
    public var description: String {
        switch self {
        case .file(let url), .database(let url): return url.path
        case .folder(let url): return url.path + "/"
        case .collection(let url):
            guard var parts = URLComponents(url: url, resolvingAgainstBaseURL: true), parts.user != nil || parts.password != nil else { return url.absoluteString }
            parts.user = nil
            parts.password = nil
            return parts.string ?? "(a URL)"
        case .server(let url):
            return Self.hidingPassword(url.absoluteString)
        }
    }

    /// A URL as it may be said: its password, if any, left out (in its
    /// user part, or a `password=` setting, as libpq takes one).
    static func hidingPassword(_ text: String) -> String {
        guard var parts = URLComponents(string: text) else {
            // Not a URL Foundation reads: everything between `://` and the last `@`
            // but the user, and every setting, cut by hand.
            guard let scheme = text.range(of: "://") else { return text }
            let rest = text[scheme.upperBound...]
            let host = rest.lastIndex(of: "@").map { at in String(rest[..<at].prefix { $0 != ":" }) + String(rest[at...]) } ?? String(rest)
            return String(text[..<scheme.upperBound]) + String(host.prefix { $0 != "?" })
        }
        parts.password = nil
        if let items = parts.queryItems {
            let kept = items.filter { $0.name.lowercased() != "password" }
            parts.queryItems = kept.isEmpty ? nil : kept
        }
        return parts.string ?? "(a URL)"
    }
}

/// Why a calendar store could not do what was asked.
public struct CalendarStoreError: CodedError, Hashable, Sendable {
    /// The kind of failure; `catch CalendarStoreError.Code.conflict` names one.
    public struct Code: ErrorCode {
        /// The error type whose kinds these are.
        public typealias Coded = CalendarStoreError
        /// The code's name.
        public let rawValue: String
        /// Names a code.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// Every code in the order of its table, numbered from 1 (Docs/Errors.md).
        public static let numbered: [Code] = [.invalidLocation, .notFound, .notACalendar, .unauthorized, .conflict, .badResponse, .tooLarge, .transport, .redirect, .io, .cancelled, .invalidSyncToken, .notADatabase, .newerSchema, .busy, .recordsOnly]

        /// The location is neither a file, a folder nor an http(s) URL.
        public static let invalidLocation = Code(rawValue: "invalidLocation")
        /// There is no calendar there.
        public static let notFound = Code(rawValue: "notFound")
        /// A folder that holds other things and no `.ics` file: not a calendar folder.
        public static let notACalendar = Code(rawValue: "notACalendar")
        /// The server asks for credentials, or refused the ones given (401, 403).
        public static let unauthorized = Code(rawValue: "unauthorized")
        /// A conditional write lost a race (412) more times than the store retries.
        public static let conflict = Code(rawValue: "conflict")
        /// The server answered something that is not WebDAV or iCalendar.
        public static let badResponse = Code(rawValue: "badResponse")
        /// A response over the size limit.
        public static let tooLarge = Code(rawValue: "tooLarge")
        /// The connection failed or timed out, or the server answered an error.
        public static let transport = Code(rawValue: "transport")
        /// A redirect to another host, which is not followed with the credentials.
        public static let redirect = Code(rawValue: "redirect")
        /// A file or folder could not be read or written.
        public static let io = Code(rawValue: "io")
        /// The calling task was cancelled: the request under way was cancelled with it.
        public static let cancelled = Code(rawValue: "cancelled")
        /// A database file that is not one, or is damaged (`SQLiteBookStorage`).
        public static let notADatabase = Code(rawValue: "notADatabase")
        /// A database a newer Horari wrote, with a schema this one does not know: refused, not changed.
        public static let newerSchema = Code(rawValue: "newerSchema")
        /// Another process held the database past the deadline.
        public static let busy = Code(rawValue: "busy")
        /// A change that would keep something a book's records cannot hold (an
        /// event of its own, a calendar's name) in a store that keeps records
        /// only (`RecordsOnlyDatabase`): refused, nothing written.
        public static let recordsOnly = Code(rawValue: "recordsOnly")
    }

    /// The kind of failure.
    public var code: Code
    /// The HTTP status, where there was one.
    public var status: Int?
    /// What went wrong, for a person (and what to do, when there is something to do): one line, never a credential.
    public var message: String
    /// What to do about it, when the message has a remedy: the end of ``message``.
    public var recoverySuggestion: String?

    /// Creates an error.
    /// - Parameters:
    ///   - code: the kind of failure.
    ///   - status: the HTTP status, where there was one.
    ///   - message: what went wrong.
    ///   - suggestion: what to do about it; ``message`` is then the two, joined by a semicolon.
    public init(_ code: Code, status: Int? = nil, _ message: String, suggestion: String? = nil) {
        self.code = code
        self.status = status
        self.message = suggestion.map { "\(message); \($0)" } ?? message
        self.recoverySuggestion = suggestion
    }

    /// The message, with the HTTP status where there was one.
    public var description: String { status.map { "\(message) (HTTP \($0))" } ?? message }

}
