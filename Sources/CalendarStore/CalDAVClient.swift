import CalendarCore
import Foundation

extension CalendarStoreError.Code {
    /// The server no longer accepts the sync token given to
    /// ``CalDAVClient/sync(from:)`` (RFC 6578 §3.2, the `DAV:valid-sync-token`
    /// precondition, HTTP 403 or 409): list the collection in full
    /// (``CalDAVClient/list()``) and sync again from a token of `nil`.
    public static let invalidSyncToken = CalendarStoreError.Code(rawValue: "invalidSyncToken")
}

/// A member of a CalDAV collection: where it is, its entity tag, and its
/// iCalendar text when it was fetched.
public struct CalDAVResource: Sendable, Hashable {
    /// The resource's path as the server gives it, percent-encoded
    /// (`/calendars/alice/gym/class-1.ics`): always inside the collection.
    public var href: String
    /// The entity tag (`"6a3f…"`, quotes kept), for a conditional write.
    public var etag: String?
    /// The iCalendar text, when fetched (``CalDAVClient/get(_:)``,
    /// ``CalDAVClient/multiget(_:)``). A server may have re-serialised what
    /// was put, and in a multistatus answer XML turns CR LF line ends into LF:
    /// compare by content, not by bytes.
    public var data: [UInt8]?

    /// A resource.
    public init(href: String, etag: String?, data: [UInt8]? = nil) {
        self.href = href
        self.etag = etag
        self.data = data
    }
}

/// What a collection's own properties say (``CalDAVClient/state()``).
public struct CalDAVCollectionState: Sendable, Hashable {
    /// Whether it is a calendar collection (its `DAV:resourcetype` has
    /// `CALDAV:calendar`), not a plain WebDAV folder.
    public var isCalendar: Bool
    /// `DAV:displayname`, when set.
    public var displayName: String?
    /// `DAV:sync-token` (RFC 6578), when the server supports sync-collection.
    public var syncToken: String?
    /// CalendarServer's `getctag`, which changes with every change, when the server has it.
    public var ctag: String?

    /// A collection's state.
    public init(isCalendar: Bool, displayName: String?, syncToken: String?, ctag: String?) {
        self.isCalendar = isCalendar
        self.displayName = displayName
        self.syncToken = syncToken
        self.ctag = ctag
    }
}

/// An async client for one CalDAV calendar collection (RFC 4791): its
/// state, its members, fetched one by one or many at once, what changed since
/// a sync token (RFC 6578), and conditional writes (RFC 4918, RFC 7232).
///
/// A client and its copies make every request on one `URLSession`, made
/// with the client, so connections are kept alive and reused; a call
/// suspends while its request runs and blocks no thread. Cancelling the
/// calling task cancels the request, and the call throws
/// ``CalendarStoreError/Code/cancelled``. A request the server answers with
/// a passing status — 423 Locked, 429, 500, 502, 503, 504 — is sent again
/// after a short random wait, honouring `Retry-After`, as ``retryPolicy``
/// allows: every write is conditional, so sending one twice is safe. The
/// client keeps no other state between calls; TLS is the system's, with
/// its roots.
///
/// What the client will not do, whatever the server answers:
/// - **Send the credentials elsewhere.** Basic authentication goes, unasked,
///   to the collection's own scheme, host and port, and only there. A
///   redirect to the same scheme, host and port is followed (at most 5 in a
///   row); one anywhere else, https to http included, is
///   ``CalendarStoreError/Code/redirect`` and is not followed.
/// - **Step outside the collection.** Every href, the caller's or the
///   server's, is resolved against the collection and must name something
///   inside it; see ``CalDAVResource/href``.
/// - **Read without end.** An answer over `maxResponseBytes` stops the
///   request (``CalendarStoreError/Code/tooLarge``), and no request takes
///   longer than `timeout`.
///
/// No message names a password, whatever goes wrong.
///
/// ```swift
/// guard case .collection(let url) = try CalendarLocation("https://dav.example.com/calendars/alice/gym/") else { return }
/// let client = CalDAVClient(collection: url, credentials: CalDAVCredentials.lookUp(for: url))
/// let etag = try await client.put("class-1.ics", Array(ics.utf8), ifMatch: nil)   // create only
/// let changes = try await client.sync(from: savedToken)
/// ```
public struct CalDAVClient: Sendable {
    /// The collection's URL, ending with `/`, without any user or password it was given with.
    public let collection: URL
    /// The credentials sent to the collection's host.
    public let credentials: CalDAVCredentials?
    /// The longest one request may take, from sending to the last byte of its answer, in seconds.
    public let requestTimeout: Duration
    /// The largest answer read, in bytes; a larger one is ``CalendarStoreError/Code/tooLarge``.
    public let maxResponseBytes: Int
    /// How a request the server answers with a passing status (423, 429,
    /// 500, 502, 503, 504) is sent again.
    public let retryPolicy: RetryPolicy
    /// The one `URLSession` every request of this client (and of its copies) goes through.
    let transport: HTTPTransport

    /// The most hrefs one `calendar-multiget` report asks for.
    public static let multigetBatchSize = 100
    /// The most redirects followed in a row.
    static let maxRedirects = 5

    /// Why the URL cannot be a collection, when it cannot.
    let invalid: CalendarStoreError?
    /// The collection's path, percent-encoded, ending with `/`.
    let collectionPath: String
    /// The collection's path segments, percent-decoded.
    let collectionSegments: [[UInt8]]

    /// A client for the collection at `collection`.
    ///
    /// A URL with a user and password in it (`https://alice:pw@host/…`) has
    /// them removed; they are the credentials when `credentials` is `nil`. A
    /// URL that is not `http` or `https`, or has no host, makes every call
    /// throw ``CalendarStoreError/Code/invalidLocation``.
    ///
    /// - Parameters:
    ///   - collection: the calendar collection; a `/` is added to its path when missing.
    ///   - credentials: sent with every request (HTTP Basic); `nil` sends none.
    ///   - requestTimeout: the longest one request may take (kept between
    ///     1 ms and a day).
    ///   - maxResponseBytes: the largest answer read, in bytes (32 MiB by default).
    ///   - retryPolicy: how a request answered 423, 429, 500, 502, 503 or 504 is sent again.
    public init(collection: URL, credentials: CalDAVCredentials?, requestTimeout: Duration = .seconds(30), maxResponseBytes: Int = 32 << 20,
                retryPolicy: RetryPolicy = RetryPolicy()) {
        var components = URLComponents(url: collection, resolvingAgainstBaseURL: true)
        var given: CalDAVCredentials?
        if let user = components?.user, let password = components?.password {
            given = CalDAVCredentials(user: user, password: password)
        }
        components?.user = nil
        components?.password = nil
        components?.query = nil
        components?.fragment = nil
        var path = components?.percentEncodedPath ?? ""
        if !path.hasSuffix("/") { path += "/" }
        components?.percentEncodedPath = ""
        let scheme = components?.scheme?.lowercased() ?? ""
        let base = components?.url.flatMap { URL(string: path, relativeTo: $0)?.absoluteURL }
        if let base, scheme == "http" || scheme == "https", base.host?.isEmpty == false, Self.isPercentEncodedPath(path) {
            self.collection = base
            self.invalid = nil
        } else {
            self.collection = components?.url ?? collection
            self.invalid = CalendarStoreError(.invalidLocation, "‘\(WebDAVXML.oneLine(components?.string ?? ""))’ is not an http(s) URL of a collection, such as https://dav.example.com/calendars/alice/gym/")
        }
        self.collectionPath = path
        self.collectionSegments = path.split(separator: "/", omittingEmptySubsequences: true).map { Self.percentDecoded($0) }
        self.credentials = credentials ?? given
        self.requestTimeout = min(max(requestTimeout, .milliseconds(1)), .seconds(86_400))
        self.maxResponseBytes = max(maxResponseBytes, 0)
        self.retryPolicy = retryPolicy
        self.transport = HTTPTransport(timeout: self.requestTimeout.timeInterval, limit: self.maxResponseBytes)
    }

    // MARK: - Answers

    static let xmlType = "application/xml; charset=utf-8"

    /// The entity tag in a response's properties.
    func etag(_ response: DAVResponse) -> String? {
        guard let text = response.property(DAVNamespace.dav, "getetag")?.trimmedText, !text.isEmpty else { return nil }
        return text
    }

    /// A path, as a URL for messages.
    func display(_ path: String) -> String {
        URL(string: path, relativeTo: collection)?.absoluteString ?? path
    }

    /// A 403 or 409 with a `DAV:error` body naming a precondition: the server
    /// refuses the request as it stands, not the credentials.
    func refusePrecondition(_ reply: HTTPReply, what: String) throws(CalendarStoreError) {
        guard reply.status == 403 || reply.status == 409 else { return }
        let conditions = WebDAVXML.errorConditions(reply.body)
        guard let first = conditions.first else { return }
        let prefix = first.namespace == DAVNamespace.caldav ? "CALDAV:" : first.namespace == DAVNamespace.dav ? "DAV:" : ""
        throw CalendarStoreError(.conflict, status: reply.status, "\(what): the server refuses it (precondition \(prefix)\(WebDAVXML.oneLine(first.name)))")
    }

    /// Throws unless the status is one of `expected`: 401 and 403 are
    /// `unauthorized`, 404 `notFound` (with `notFound` as the message), 5xx
    /// and any other status `transport`.
    func expect(_ reply: HTTPReply, _ expected: Set<Int>, what: String, notFound: String) throws(CalendarStoreError) {
        let status = reply.status
        if expected.contains(status) { return }
        switch status {
        case 401:
            if let credentials {
                throw CalendarStoreError(.unauthorized, status: 401, "\(what): the server refused the credentials for \(WebDAVXML.oneLine(credentials.user))")
            }
            throw CalendarStoreError(.unauthorized, status: 401, "\(what): the server asks for credentials: set HORARI_CALDAV_USER and HORARI_CALDAV_PASSWORD, or ~/.netrc")
        case 403:
            try refusePrecondition(reply, what: what)
            let who = credentials.map { " to \(WebDAVXML.oneLine($0.user))" } ?? " without credentials (set HORARI_CALDAV_USER and HORARI_CALDAV_PASSWORD, or ~/.netrc)"
            throw CalendarStoreError(.unauthorized, status: 403, "\(what): the server forbids it\(who)")
        case 404, 410:
            throw CalendarStoreError(.notFound, status: status, notFound)
        case 500...599:
            throw CalendarStoreError(.transport, status: status, "\(what): the server failed (\(HTTPStatus.phrase(status)))")
        case 300...399:
            throw CalendarStoreError(.badResponse, status: status, "\(what): a redirect without a usable Location")
        default:
            throw CalendarStoreError(.transport, status: status, "\(what): the server answered \(status) (\(HTTPStatus.phrase(status)))")
        }
    }
}
