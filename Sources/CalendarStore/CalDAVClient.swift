import CalendarCore
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

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

/// A synchronous client for one CalDAV calendar collection (RFC 4791): its
/// state, its members, fetched one by one or many at once, what changed since
/// a sync token (RFC 6578), and conditional writes (RFC 4918, RFC 7232).
///
/// Each call makes its requests on a `URLSession` of its own and waits for
/// them, so the client can be used from any thread; it keeps no state between
/// calls. TLS is the system's, with its roots.
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
/// let etag = try client.put("class-1.ics", Array(ics.utf8), ifMatch: nil)   // create only
/// let changes = try client.sync(from: savedToken)
/// ```
public struct CalDAVClient: Sendable {
    /// The collection's URL, ending with `/`, without any user or password it was given with.
    public let collection: URL
    /// The credentials sent to the collection's host.
    public let credentials: CalDAVCredentials?
    /// The longest one request may take, from sending to the last byte of its answer, in seconds.
    public let timeout: TimeInterval
    /// The largest answer read, in bytes; a larger one is ``CalendarStoreError/Code/tooLarge``.
    public let maxResponseBytes: Int

    /// The most hrefs one `calendar-multiget` report asks for.
    public static let multigetBatchSize = 100
    /// The most redirects followed in a row.
    static let maxRedirects = 5

    /// Why the URL cannot be a collection, when it cannot.
    private let invalid: CalendarStoreError?
    /// The collection's path, percent-encoded, ending with `/`.
    private let collectionPath: String
    /// The collection's path segments, percent-decoded.
    private let collectionSegments: [[UInt8]]

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
    ///   - timeout: the longest one request may take, in seconds (kept
    ///     between 1 ms and a day; not a number is the default, 30).
    ///   - maxResponseBytes: the largest answer read, in bytes (32 MiB by default).
    public init(collection: URL, credentials: CalDAVCredentials?, timeout: TimeInterval = 30, maxResponseBytes: Int = 32 << 20) {
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
        self.timeout = timeout.isNaN ? 30 : min(max(timeout, 0.001), 86_400)
        self.maxResponseBytes = max(maxResponseBytes, 0)
    }

    // MARK: - The collection

    /// The collection's own properties: whether it is a calendar, its name,
    /// its sync token and ctag (`PROPFIND`, `Depth: 0`).
    /// - Throws: ``CalendarStoreError``: `notFound` (404) when there is no
    ///   collection there; `unauthorized`, `transport`, `badResponse`,
    ///   `redirect`, `tooLarge` as for every call.
    public func state() throws(CalendarStoreError) -> CalDAVCollectionState {
        let body = WebDAVXML.document("""
            <D:propfind \(WebDAVXML.namespaces)><D:prop>\
            <D:resourcetype/><D:displayname/><D:sync-token/><CS:getctag/>\
            </D:prop></D:propfind>
            """)
        let reply = try send("PROPFIND", path: collectionPath, headers: ["Depth": "0", "Content-Type": Self.xmlType], body: body)
        let what = "PROPFIND \(collection.absoluteString)"
        try expect(reply, [207], what: what, notFound: "there is no collection at \(collection.absoluteString)")
        let multistatus = try WebDAVXML.multistatus(reply.body, what: what)
        for response in multistatus.responses {
            guard try resolve(serverHref: response.hrefs[0], what: what).isCollection else { continue }
            if response.saysGone {
                throw CalendarStoreError(.notFound, status: 404, "there is no collection at \(collection.absoluteString)")
            }
            let types = response.property(DAVNamespace.dav, "resourcetype")?.children ?? []
            func text(_ namespace: String, _ name: String) -> String? {
                guard let text = response.property(namespace, name)?.trimmedText, !text.isEmpty else { return nil }
                return text
            }
            return CalDAVCollectionState(
                isCalendar: types.contains { $0.is(DAVNamespace.caldav, "calendar") },
                displayName: text(DAVNamespace.dav, "displayname"),
                syncToken: text(DAVNamespace.dav, "sync-token"),
                ctag: text(DAVNamespace.calendarServer, "getctag")
            )
        }
        throw CalendarStoreError(.badResponse, "\(what): the answer does not describe the collection itself")
    }

    /// Creates the calendar collection (`MKCALENDAR`, RFC 4791 §5.3.1).
    ///
    /// - Parameter displayName: its `DAV:displayname`, when not `nil`
    ///   (characters XML cannot carry, such as most control characters, are left out).
    /// - Throws: ``CalendarStoreError``: `conflict` when something already
    ///   exists at the URL, with the server's status: 405 (SabreDAV and
    ///   most), or 409 or 403 with `DAV:resource-must-be-null` (Radicale
    ///   answers 409); `transport` with status 409 when
    ///   the folder that would hold it does not exist or holds no calendars;
    ///   `unauthorized` when the server refuses; the rest as for every call.
    public func makeCalendar(displayName: String?) throws(CalendarStoreError) {
        var headers: [String: String] = [:]
        var body: [UInt8]?
        if let displayName {
            headers["Content-Type"] = Self.xmlType
            body = WebDAVXML.document("""
                <C:mkcalendar \(WebDAVXML.namespaces)><D:set><D:prop>\
                <D:displayname>\(WebDAVXML.escape(displayName))</D:displayname>\
                </D:prop></D:set></C:mkcalendar>
                """)
        }
        let reply = try send("MKCALENDAR", path: collectionPath, headers: headers, body: body)
        let url = collection.absoluteString
        let conditions = WebDAVXML.errorConditions(reply.body)
        if reply.status == 405 || ((reply.status == 403 || reply.status == 409) && conditions.contains { $0.name == "resource-must-be-null" }) {
            throw CalendarStoreError(.conflict, status: reply.status, "MKCALENDAR \(url): something already exists there (a collection or a resource), so no calendar was made")
        }
        if reply.status == 409 {
            throw CalendarStoreError(.transport, status: 409, "MKCALENDAR \(url): the server cannot make a calendar there (the folder that would hold it does not exist, or holds no calendars)")
        }
        try expect(reply, [200, 201], what: "MKCALENDAR \(url)", notFound: "MKCALENDAR \(url): the folder that would hold the calendar does not exist")
    }

    /// The collection's members, with their entity tags and without their
    /// text (`PROPFIND`, `Depth: 1`). Not the collection itself, nor any
    /// collection inside it.
    /// - Throws: ``CalendarStoreError``: `notFound` when there is no
    ///   collection; `badResponse` when an href is outside the collection; the
    ///   rest as for every call.
    public func list() throws(CalendarStoreError) -> [CalDAVResource] {
        let body = WebDAVXML.document("""
            <D:propfind \(WebDAVXML.namespaces)><D:prop><D:resourcetype/><D:getetag/></D:prop></D:propfind>
            """)
        let reply = try send("PROPFIND", path: collectionPath, headers: ["Depth": "1", "Content-Type": Self.xmlType], body: body)
        let what = "PROPFIND \(collection.absoluteString)"
        try expect(reply, [207], what: what, notFound: "there is no collection at \(collection.absoluteString)")
        var members: [CalDAVResource] = []
        for response in try WebDAVXML.multistatus(reply.body, what: what).responses {
            for href in response.hrefs {
                let resolved = try resolve(serverHref: href, what: what)
                guard !resolved.isCollection, !response.saysGone else { continue }
                let types = response.property(DAVNamespace.dav, "resourcetype")?.children ?? []
                if types.contains(where: { $0.is(DAVNamespace.dav, "collection") }) { continue }
                members.append(CalDAVResource(href: resolved.path, etag: etag(response)))
            }
        }
        return members
    }

    /// Members with their entity tags and text (`REPORT calendar-multiget`,
    /// RFC 4791 §7.9), asked for at most ``multigetBatchSize`` at a time.
    ///
    /// An href the server no longer has (404 for it) is left out of the
    /// result; the order is the server's.
    /// - Parameter hrefs: members, each as ``CalDAVResource/href`` gives it
    ///   or as a name inside the collection (`class-1.ics`).
    /// - Throws: ``CalendarStoreError``: `badResponse` for an href that is
    ///   not inside the collection (see ``CalDAVResource/href``), or an
    ///   answer that names one; the rest as for every call.
    public func multiget(_ hrefs: [String]) throws(CalendarStoreError) -> [CalDAVResource] {
        var paths: [String] = []
        for href in hrefs { paths.append(try memberPath(href)) }
        var found: [CalDAVResource] = []
        var start = 0
        while start < paths.count {
            let batch = paths[start..<min(start + Self.multigetBatchSize, paths.count)]
            start += batch.count
            let list = batch.map { "<D:href>\(WebDAVXML.escape($0))</D:href>" }.joined()
            let body = WebDAVXML.document("""
                <C:calendar-multiget \(WebDAVXML.namespaces)><D:prop><D:getetag/><C:calendar-data/></D:prop>\(list)</C:calendar-multiget>
                """)
            let reply = try send("REPORT", path: collectionPath, headers: ["Depth": "1", "Content-Type": Self.xmlType], body: body)
            let what = "REPORT calendar-multiget \(collection.absoluteString)"
            try expect(reply, [207], what: what, notFound: "there is no collection at \(collection.absoluteString)")
            for response in try WebDAVXML.multistatus(reply.body, what: what).responses {
                for href in response.hrefs {
                    let resolved = try resolve(serverHref: href, what: what)
                    guard !resolved.isCollection, !response.saysGone else { continue }
                    guard let data = response.property(DAVNamespace.caldav, "calendar-data") else { continue }
                    found.append(CalDAVResource(href: resolved.path, etag: etag(response), data: Array(data.text.utf8)))
                }
            }
        }
        return found
    }

    /// What changed in the collection since `token` (`REPORT
    /// sync-collection`, RFC 6578, `sync-level` 1): the members added or
    /// changed, with their entity tags but not their text (fetch it with
    /// ``multiget(_:)``), the hrefs of those removed, and the token to give
    /// next time. An answer the server cut short (507 for the collection) is
    /// asked for again from its token until it is whole.
    ///
    /// - Parameter token: the token of the last sync, or `nil` for every member.
    /// - Throws: ``CalendarStoreError``: code
    ///   ``CalendarStoreError/Code/invalidSyncToken`` (status 403 or 409)
    ///   when the server no longer accepts `token`: call ``list()`` and sync
    ///   again from `nil`; `badResponse` for an answer without a new token,
    ///   or one that names an href outside the collection; the rest as for
    ///   every call.
    public func sync(from token: String?) throws(CalendarStoreError) -> (changed: [CalDAVResource], removed: [String], token: String) {
        var order: [String] = []
        var latest: [String: CalDAVResource?] = [:]
        var current = token
        for _ in 0..<1000 {
            let (responses, next, truncated) = try syncRound(from: current)
            for (href, resource) in responses {
                if latest[href] == nil { order.append(href) }
                latest[href] = .some(resource)
            }
            current = next
            if !truncated {
                var changed: [CalDAVResource] = []
                var removed: [String] = []
                for href in order {
                    if let resource = latest[href] ?? nil { changed.append(resource) } else { removed.append(href) }
                }
                return (changed, removed, next)
            }
        }
        throw CalendarStoreError(.badResponse, "REPORT sync-collection \(collection.absoluteString): the server cut its answer short 1000 times in a row")
    }

    /// One sync-collection report: each href with its resource (`nil` when
    /// removed), the new token, and whether the answer was cut short.
    private func syncRound(from token: String?) throws(CalendarStoreError) -> ([(String, CalDAVResource?)], String, Bool) {
        let what = "REPORT sync-collection \(collection.absoluteString)"
        if let token, !WebDAVXML.isXMLText(token) {
            throw CalendarStoreError(.invalidSyncToken, "\(what): the sync token holds characters XML cannot carry; list the collection in full instead")
        }
        let tokenElement = token.map { "<D:sync-token>\(WebDAVXML.escape($0))</D:sync-token>" } ?? "<D:sync-token/>"
        let body = WebDAVXML.document("""
            <D:sync-collection \(WebDAVXML.namespaces)>\(tokenElement)<D:sync-level>1</D:sync-level>\
            <D:prop><D:getetag/></D:prop></D:sync-collection>
            """)
        let reply = try send("REPORT", path: collectionPath, headers: ["Depth": "0", "Content-Type": Self.xmlType], body: body)
        if reply.status == 403 || reply.status == 409,
           WebDAVXML.errorConditions(reply.body).contains(where: { $0.namespace == DAVNamespace.dav && $0.name == "valid-sync-token" }) {
            throw CalendarStoreError(.invalidSyncToken, status: reply.status, "\(what): the server no longer accepts the sync token; list the collection in full instead")
        }
        try expect(reply, [207], what: what, notFound: "there is no collection at \(collection.absoluteString)")
        let multistatus = try WebDAVXML.multistatus(reply.body, what: what)
        guard let next = multistatus.syncToken, !next.isEmpty else {
            throw CalendarStoreError(.badResponse, "\(what): the answer has no DAV:sync-token")
        }
        var entries: [(String, CalDAVResource?)] = []
        var truncated = false
        for response in multistatus.responses {
            for href in response.hrefs {
                let resolved = try resolve(serverHref: href, what: what)
                if resolved.isCollection {
                    if response.status == 507 { truncated = true }
                    continue
                }
                if response.saysGone {
                    entries.append((resolved.path, nil))
                } else if response.hasSuccessfulPropstat || response.status.map({ (200..<300).contains($0) }) == true {
                    entries.append((resolved.path, CalDAVResource(href: resolved.path, etag: etag(response))))
                }
            }
        }
        return (entries, next, truncated)
    }

    // MARK: - One member

    /// A member's text and entity tag (`GET`).
    /// - Parameter href: the member, as ``CalDAVResource/href`` gives it or
    ///   as a name inside the collection.
    /// - Throws: ``CalendarStoreError``: `notFound` (404); `badResponse` for
    ///   an href outside the collection; the rest as for every call.
    public func get(_ href: String) throws(CalendarStoreError) -> CalDAVResource {
        let path = try memberPath(href)
        let reply = try send("GET", path: path, headers: ["Accept": "text/calendar"], body: nil)
        let url = display(path)
        try expect(reply, [200], what: "GET \(url)", notFound: "there is no resource at \(url)")
        return CalDAVResource(href: path, etag: reply.header("ETag"), data: reply.body)
    }

    /// Writes a member (`PUT`, `text/calendar`), only if it is as last read.
    ///
    /// - Parameters:
    ///   - href: the member, as ``CalDAVResource/href`` gives it or as a name
    ///     inside the collection (`class-1.ics`).
    ///   - data: the iCalendar text, one component's `UID` (RFC 4791 §4.1).
    ///   - etag: the entity tag it was read with, sent as `If-Match`; `nil`
    ///     sends `If-None-Match: *`, which only creates.
    /// - Returns: the new entity tag, when the server gives one (it need not,
    ///   for example when it changed the text as it stored it: read it again
    ///   then).
    /// - Throws: ``CalendarStoreError``: `conflict` with status 412 when the
    ///   member changed since it was read (or, with `etag` `nil`, already
    ///   exists): read it again, and retry; `conflict` with status 403 or 409
    ///   when the server refuses the text as it stands (a CalDAV
    ///   precondition, such as a `UID` another member has, named in the
    ///   message); `tooLarge` with status 413 when the server finds it too
    ///   large; `badResponse` for an href outside the collection; the rest as
    ///   for every call.
    @discardableResult
    public func put(_ href: String, _ data: [UInt8], ifMatch etag: String?) throws(CalendarStoreError) -> String? {
        let path = try memberPath(href)
        var headers = ["Content-Type": "text/calendar; charset=utf-8"]
        if let etag { headers["If-Match"] = etag } else { headers["If-None-Match"] = "*" }
        let reply = try send("PUT", path: path, headers: headers, body: data)
        let url = display(path)
        if reply.status == 412 {
            throw CalendarStoreError(.conflict, status: 412, etag == nil
                ? "PUT \(url): a resource already exists there (create only, If-None-Match: *)"
                : "PUT \(url): the resource changed on the server since it was read (If-Match \(WebDAVXML.oneLine(etag ?? "")))")
        }
        if reply.status == 413 {
            throw CalendarStoreError(.tooLarge, status: 413, "PUT \(url): the server refuses a resource of \(data.count) bytes as too large")
        }
        try refusePrecondition(reply, what: "PUT \(url)")
        try expect(reply, [200, 201, 204], what: "PUT \(url)", notFound: "PUT \(url): the collection does not exist")
        return reply.header("ETag")
    }

    /// Removes a member (`DELETE`), only if it is as last read.
    /// - Parameters:
    ///   - href: the member, as ``CalDAVResource/href`` gives it or as a name inside the collection.
    ///   - etag: the entity tag it was read with, sent as `If-Match`.
    /// - Throws: ``CalendarStoreError``: `conflict` with status 412 when it
    ///   changed since it was read; `notFound` (404) when it is not there;
    ///   `badResponse` for an href outside the collection; the rest as for
    ///   every call.
    public func delete(_ href: String, ifMatch etag: String) throws(CalendarStoreError) {
        let path = try memberPath(href)
        let reply = try send("DELETE", path: path, headers: ["If-Match": etag], body: nil)
        let url = display(path)
        if reply.status == 412 {
            throw CalendarStoreError(.conflict, status: 412, "DELETE \(url): the resource changed on the server since it was read (If-Match \(WebDAVXML.oneLine(etag)))")
        }
        try expect(reply, [200, 202, 204], what: "DELETE \(url)", notFound: "there is no resource at \(url)")
    }

    // MARK: - Answers

    static let xmlType = "application/xml; charset=utf-8"

    /// The entity tag in a response's properties.
    private func etag(_ response: DAVResponse) -> String? {
        guard let text = response.property(DAVNamespace.dav, "getetag")?.trimmedText, !text.isEmpty else { return nil }
        return text
    }

    /// A path, as a URL for messages.
    private func display(_ path: String) -> String {
        URL(string: path, relativeTo: collection)?.absoluteString ?? path
    }

    /// A 403 or 409 with a `DAV:error` body naming a precondition: the server
    /// refuses the request as it stands, not the credentials.
    private func refusePrecondition(_ reply: Reply, what: String) throws(CalendarStoreError) {
        guard reply.status == 403 || reply.status == 409 else { return }
        let conditions = WebDAVXML.errorConditions(reply.body)
        guard let first = conditions.first else { return }
        let prefix = first.namespace == DAVNamespace.caldav ? "CALDAV:" : first.namespace == DAVNamespace.dav ? "DAV:" : ""
        throw CalendarStoreError(.conflict, status: reply.status, "\(what): the server refuses it (precondition \(prefix)\(WebDAVXML.oneLine(first.name)))")
    }

    /// Throws unless the status is one of `expected`: 401 and 403 are
    /// `unauthorized`, 404 `notFound` (with `notFound` as the message), 5xx
    /// and any other status `transport`.
    private func expect(_ reply: Reply, _ expected: Set<Int>, what: String, notFound: String) throws(CalendarStoreError) {
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
            throw CalendarStoreError(.transport, status: status, "\(what): the server failed (\(HTTPURLResponse.localizedString(forStatusCode: status)))")
        case 300...399:
            throw CalendarStoreError(.badResponse, status: status, "\(what): a redirect without a usable Location")
        default:
            throw CalendarStoreError(.transport, status: status, "\(what): the server answered \(status) (\(HTTPURLResponse.localizedString(forStatusCode: status)))")
        }
    }

    // MARK: - Hrefs

    /// The absolute, percent-encoded path of a member the caller names:
    /// a path (`/calendars/alice/gym/x.ics`) or a name inside the collection
    /// (`x.ics`), never with a `..` or `.` segment, `//`, `\`, a NUL or other
    /// control character, a percent-encoded `/`, `\` or NUL, a query or
    /// fragment, or characters a URL path does not hold unencoded, and
    /// always inside the collection.
    private func memberPath(_ href: String) throws(CalendarStoreError) -> String {
        if let invalid { throw invalid }
        func refuse(_ why: String) -> CalendarStoreError {
            CalendarStoreError(.badResponse, "the href ‘\(WebDAVXML.oneLine(href))’ is refused: \(why)")
        }
        if href.isEmpty { throw refuse("it is empty") }
        if href.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) { throw refuse("it holds a NUL or another control character") }
        if href.contains("//") { throw refuse("it holds ‘//’ (give a path, not a URL)") }
        if let bad = Self.badEscape(href) { throw refuse(bad) }
        if href.contains("\\") { throw refuse("it holds ‘\\’") }
        if href.contains("?") || href.contains("#") { throw refuse("it holds a query or a fragment") }
        guard Self.isPercentEncodedPath(href) else { throw refuse("it is not a percent-encoded URL path") }
        let path = href.hasPrefix("/") ? href : collectionPath + href
        let segments = try Self.segments(of: path, refuse)
        guard segments.count > collectionSegments.count, Array(segments.prefix(collectionSegments.count)) == collectionSegments else {
            throw refuse("it is not inside the collection \(collectionPath)")
        }
        return path
    }

    /// The absolute, percent-encoded path of an href in a server's answer,
    /// and whether it is the collection itself. An absolute URL must have the
    /// collection's scheme, host and port; the path must be inside the
    /// collection, or be it, with no `..` or `.` segment, `//`, `\`, control
    /// character, or percent-encoded `/`, `\` or NUL. Characters a URL path
    /// holds only encoded are encoded.
    private func resolve(serverHref href: String, what: String) throws(CalendarStoreError) -> (path: String, isCollection: Bool) {
        func refuse(_ why: String) -> CalendarStoreError {
            CalendarStoreError(.badResponse, "\(what): the answer names ‘\(WebDAVXML.oneLine(href))’, which is refused: \(why)")
        }
        if href.isEmpty { throw refuse("it is empty") }
        if href.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) { throw refuse("it holds a control character") }
        var path: String
        let lower = href.lowercased()
        if lower.hasPrefix("http:") || lower.hasPrefix("https:") {
            guard let url = URLComponents(string: href), url.host != nil else { throw refuse("it is not a URL") }
            guard url.user == nil, url.password == nil else { throw refuse("it carries a user or password") }
            guard let u = url.url, isSameOrigin(u) else { throw refuse("it is on another server than the collection") }
            guard url.percentEncodedQuery == nil, url.percentEncodedFragment == nil else { throw refuse("it holds a query or a fragment") }
            path = url.percentEncodedPath
        } else if href.hasPrefix("//") {
            throw refuse("it names another server")
        } else if href.contains(":"), !href.hasPrefix("/"), href.split(separator: "/").first?.contains(":") == true {
            throw refuse("it is a URL of another scheme")
        } else {
            if href.contains("?") || href.contains("#") { throw refuse("it holds a query or a fragment") }
            path = href.hasPrefix("/") ? href : collectionPath + href
        }
        if let bad = Self.badEscape(path) { throw refuse(bad) }
        if path.contains("\\") { throw refuse("it holds ‘\\’") }
        guard let encoded = Self.encodingPath(path) else { throw refuse("it holds a ‘%’ not followed by two hex digits") }
        path = encoded
        if path.dropLast(path.hasSuffix("/") ? 1 : 0).contains("//") { throw refuse("it holds ‘//’") }
        let segments = try Self.segments(of: path, refuse)
        guard segments.count >= collectionSegments.count, Array(segments.prefix(collectionSegments.count)) == collectionSegments else {
            throw refuse("it is not inside the collection \(collectionPath)")
        }
        return (path, segments.count == collectionSegments.count)
    }

    /// The percent-decoded segments of an absolute path; refuses a path
    /// that is not absolute, or has an empty (`//`), `.` or `..` segment.
    private static func segments(of path: String, _ refuse: (String) -> CalendarStoreError) throws(CalendarStoreError) -> [[UInt8]] {
        guard path.hasPrefix("/") else { throw refuse("it is not a path") }
        var parts = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        if parts.last?.isEmpty == true { parts = parts.dropLast() }
        var segments: [[UInt8]] = []
        for part in parts {
            if part.isEmpty { throw refuse("it holds ‘//’") }
            let decoded = percentDecoded(part)
            if decoded == [0x2E] || decoded == [0x2E, 0x2E] { throw refuse("it holds a ‘.’ or ‘..’ segment") }
            segments.append(decoded)
        }
        return segments
    }

    /// Why the escapes in `text` are refused: an encoded `/`, `\` or NUL.
    private static func badEscape(_ text: String) -> String? {
        let lower = text.lowercased()
        if lower.contains("%2f") { return "it holds a percent-encoded ‘/’ (%2F)" }
        if lower.contains("%5c") { return "it holds a percent-encoded ‘\\’ (%5C)" }
        if lower.contains("%00") { return "it holds a percent-encoded NUL (%00)" }
        return nil
    }

    /// The bytes a URL path may hold unencoded (RFC 3986 `pchar` and `/`).
    private static func isPathByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return "-._~!$&'()*+,;=:@/".utf8.contains(byte)
        }
    }

    private static func isHex(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte | 0x20)
    }

    /// Whether `path` holds only path characters and well-formed `%XX` escapes:
    /// whether encoding it would change nothing.
    static func isPercentEncodedPath(_ path: String) -> Bool {
        encodingPath(path) == path
    }

    /// `path` with every byte a URL path holds only encoded, its
    /// escapes kept; `nil` for a `%` not followed by two hex digits.
    private static func encodingPath(_ path: String) -> String? {
        let bytes = Array(path.utf8)
        var out = ""
        var i = 0
        while i < bytes.count {
            let byte = bytes[i]
            if byte == UInt8(ascii: "%") {
                guard i + 2 < bytes.count, isHex(bytes[i + 1]), isHex(bytes[i + 2]) else { return nil }
                out += String(decoding: bytes[i...(i + 2)], as: UTF8.self)
                i += 3
            } else if isPathByte(byte) {
                out.unicodeScalars.append(Unicode.Scalar(byte))
                i += 1
            } else {
                let hex = Array("0123456789ABCDEF".utf8)
                out += "%" + String(decoding: [hex[Int(byte >> 4)], hex[Int(byte & 15)]], as: UTF8.self)
                i += 1
            }
        }
        return out
    }

    /// The bytes a percent-encoded segment stands for.
    private static func percentDecoded(_ segment: Substring) -> [UInt8] {
        let bytes = Array(segment.utf8)
        var out: [UInt8] = []
        var i = 0
        func value(_ byte: UInt8) -> UInt8 {
            byte <= UInt8(ascii: "9") ? byte - UInt8(ascii: "0") : (byte | 0x20) - UInt8(ascii: "a") + 10
        }
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: "%"), i + 2 < bytes.count, isHex(bytes[i + 1]), isHex(bytes[i + 2]) {
                out.append(value(bytes[i + 1]) << 4 | value(bytes[i + 2]))
                i += 3
            } else {
                out.append(bytes[i])
                i += 1
            }
        }
        return out
    }

    /// A URL's port, or its scheme's.
    private static func port(_ port: Int?, _ scheme: String?) -> Int? {
        if let port { return port }
        switch scheme?.lowercased() {
        case "http": return 80
        case "https": return 443
        default: return nil
        }
    }

    /// Whether `url` is on the collection's scheme, host and port.
    private func isSameOrigin(_ url: URL) -> Bool {
        url.scheme?.lowercased() == collection.scheme?.lowercased()
            && url.host?.lowercased() == collection.host?.lowercased()
            && Self.port(url.port, url.scheme) == Self.port(collection.port, collection.scheme)
            && url.user == nil && url.password == nil
    }

    // MARK: - The wire

    /// An HTTP answer, read whole.
    struct Reply {
        /// The status code.
        var status: Int
        /// The header fields.
        var response: HTTPURLResponse
        /// The body.
        var body: [UInt8]

        /// A header field's value.
        func header(_ name: String) -> String? {
            response.value(forHTTPHeaderField: name)
        }
    }

    /// Sends a request for `path` (absolute, percent-encoded, on the
    /// collection's server) and reads its answer, following redirects to the
    /// same scheme, host and port.
    private func send(_ method: String, path: String, headers: [String: String], body: [UInt8]?) throws(CalendarStoreError) -> Reply {
        if let invalid { throw invalid }
        guard var url = URL(string: path, relativeTo: collection)?.absoluteURL else {
            throw CalendarStoreError(.invalidLocation, "‘\(WebDAVXML.oneLine(path))’ is not a path on \(collection.absoluteString)")
        }
        for _ in 0...Self.maxRedirects {
            var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: max(timeout, 1))
            request.httpMethod = method
            for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
            request.setValue("Horari-CalendarStore", forHTTPHeaderField: "User-Agent")
            if let credentials { request.setValue(credentials.basicAuthorization, forHTTPHeaderField: "Authorization") }
            if let body { request.httpBody = Data(body) }
            let what = "\(method) \(url.absoluteString)"
            let outcome = try Exchange.run(request, timeout: timeout, limit: maxResponseBytes, what: what)
            switch outcome {
            case .reply(let reply):
                return reply
            case .redirect(let status, let location):
                guard let location, let target = URL(string: location, relativeTo: url)?.absoluteURL else {
                    throw CalendarStoreError(.badResponse, status: status, "\(what): a redirect without a usable Location")
                }
                guard isSameOrigin(target) else {
                    throw CalendarStoreError(.redirect, status: status, "\(what): the server redirects to \(WebDAVXML.oneLine(Self.withoutUserInfo(target))), on another server or scheme; not followed, so the credentials stay with \(collection.host ?? "the collection's host")")
                }
                url = target
            }
        }
        throw CalendarStoreError(.redirect, "\(method) \(collection.absoluteString): more than \(Self.maxRedirects) redirects in a row")
    }

    /// A URL as text, without any user or password in it.
    private static func withoutUserInfo(_ url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: true) else { return "another URL" }
        components.user = nil
        components.password = nil
        return components.string ?? "another URL"
    }
}

/// One HTTP exchange on a `URLSession` of its own, waited for: the session's
/// delegate, which keeps the answer's size under the limit, stops at a
/// redirect, and wakes the waiting caller when the task ends.
private final class Exchange: NSObject, URLSessionDataDelegate, Sendable {
    /// How an exchange ended.
    enum Outcome {
        /// An answer.
        case reply(CalDAVClient.Reply)
        /// A redirect (3xx) not followed by URLSession: its status and `Location`.
        case redirect(Int, String?)
    }

    private struct State {
        var response: HTTPURLResponse?
        /// The body's pieces as they came (joined once, at the end).
        var pieces: [Data] = []
        /// Their size.
        var received = 0
        var tooLarge = false
        var redirect: (status: Int, location: String?)?
        /// The 401 that an authentication challenge was answered for by
        /// cancelling: the credentials sent up front were all there is.
        var refused: HTTPURLResponse?
        var error: (any Error)?
        var finished = false
    }

    private let state = Locked(State())
    private let done = DispatchSemaphore(value: 0)
    private let limit: Int

    private init(limit: Int) {
        self.limit = limit
    }

    /// Runs `request` and waits for its end, at most `timeout` seconds.
    static func run(_ request: URLRequest, timeout: TimeInterval, limit: Int, what: String) throws(CalendarStoreError) -> Outcome {
        let exchange = Exchange(limit: limit)
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = max(timeout, 1)
        configuration.timeoutIntervalForResource = max(timeout, 1)
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.urlCredentialStorage = nil
        let session = URLSession(configuration: configuration, delegate: exchange, delegateQueue: nil)
        let task = session.dataTask(with: request)
        task.resume()
        let waited = exchange.done.wait(timeout: .now() + max(timeout, 0.001))
        let host = request.url?.host ?? "the server"
        if waited == .timedOut {
            task.cancel()
            session.invalidateAndCancel()
            throw CalendarStoreError(.transport, "\(what): no answer from \(host) within \(Self.seconds(timeout))")
        }
        session.finishTasksAndInvalidate()
        let ended = exchange.state.withLock { $0 }
        var body: [UInt8] = []
        body.reserveCapacity(ended.received)
        for piece in ended.pieces { body.append(contentsOf: piece) }
        if ended.tooLarge {
            throw CalendarStoreError(.tooLarge, status: ended.response?.statusCode, "\(what): the answer is larger than \(limit) bytes; not read further")
        }
        if let refused = ended.refused {
            return .reply(CalDAVClient.Reply(status: refused.statusCode, response: refused, body: body))
        }
        if let redirect = ended.redirect {
            return .redirect(redirect.status, redirect.location)
        }
        if let error = ended.error {
            throw transportError(error, what: what, host: host, port: request.url?.port, timeout: timeout)
        }
        guard let response = ended.response else {
            throw CalendarStoreError(.badResponse, "\(what): \(host) closed the connection without an HTTP answer")
        }
        return .reply(CalDAVClient.Reply(status: response.statusCode, response: response, body: body))
    }

    private static func seconds(_ interval: TimeInterval) -> String {
        interval == interval.rounded() ? "\(Int(interval)) s" : "\(interval) s"
    }

    /// What a failed connection says: the host, and what happened.
    private static func transportError(_ error: any Error, what: String, host: String, port: Int?, timeout: TimeInterval) -> CalendarStoreError {
        let place = port.map { "\(host):\($0)" } ?? host
        let said: String
        switch (error as? URLError)?.code {
        case .timedOut?: said = "no answer from \(place) within \(seconds(timeout))"
        case .cannotConnectToHost?: said = "could not connect to \(place) (connection refused)"
        case .cannotFindHost?, .dnsLookupFailed?: said = "the host name \(host) could not be resolved"
        case .notConnectedToInternet?: said = "no network to reach \(place)"
        case .networkConnectionLost?: said = "the connection to \(place) was lost"
        case .secureConnectionFailed?, .serverCertificateUntrusted?, .serverCertificateHasBadDate?,
             .serverCertificateNotYetValid?, .serverCertificateHasUnknownRoot?, .clientCertificateRejected?, .clientCertificateRequired?:
            said = "the TLS connection to \(place) failed (its certificate is not trusted by the system's roots, or the handshake failed)"
        case .badServerResponse?: said = "\(place) answered something that is not HTTP"
        default: said = "the request to \(place) failed: \(WebDAVXML.oneLine(error.localizedDescription))"
        }
        return CalendarStoreError(.transport, "\(what): \(said)")
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let over = state.withLock { state -> Bool in
            state.response = response as? HTTPURLResponse
            if response.expectedContentLength > Int64(limit) { state.tooLarge = true }
            return state.tooLarge
        }
        if over { dataTask.cancel() }
        completionHandler(over ? .cancel : .allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let over = state.withLock { state -> Bool in
            guard !state.tooLarge else { return false }
            if state.received + data.count > limit {
                state.tooLarge = true
                state.pieces = []
                return true
            }
            state.received += data.count
            state.pieces.append(data)
            return false
        }
        if over { dataTask.cancel() }
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        // Never followed by URLSession, which would drop a PUT's body on
        // Linux and carry the Authorization header wherever it is sent:
        // CalDAVClient follows it itself, to its own server only.
        state.withLock { $0.redirect = (response.statusCode, response.value(forHTTPHeaderField: "Location")) }
        completionHandler(nil)
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        #if !canImport(FoundationNetworking)
        // A TLS server's certificate: the system's roots decide. (On Linux,
        // libcurl checks it against them without asking.)
        if challenge.protectionSpace.authenticationMethod == NSURLAuthenticationMethodServerTrust {
            completionHandler(.performDefaultHandling, nil)
            return
        }
        #endif
        // A 401 (or a proxy's 407): the credentials, if any, went with the
        // request already, so there is nothing more to offer. Cancelling
        // keeps the answer (the default handling would wait for ever on
        // Linux, where swift-corelibs-foundation proposes no credential).
        let response = challenge.failureResponse as? HTTPURLResponse
        state.withLock { $0.refused = response ?? $0.response }
        completionHandler(.cancelAuthenticationChallenge, nil)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let first = state.withLock { state -> Bool in
            if state.response == nil, let response = task.response as? HTTPURLResponse { state.response = response }
            if state.error == nil { state.error = error }
            defer { state.finished = true }
            return !state.finished
        }
        if first { done.signal() }
    }
}
