import CalendarCore
import Foundation

extension CalDAVClient {
    // MARK: - The collection

    /// The collection's own properties: whether it is a calendar, its name,
    /// its sync token and ctag (`PROPFIND`, `Depth: 0`).
    /// - Throws: ``CalendarStoreError``: `notFound` (404) when there is no
    ///   collection there; `unauthorized`, `transport`, `badResponse`,
    ///   `redirect`, `tooLarge` as for every call.
    public func state() async throws(CalendarStoreError) -> CalDAVCollectionState {
        let body = WebDAVXML.document("""
            <D:propfind \(WebDAVXML.namespaces)><D:prop>\
            <D:resourcetype/><D:displayname/><D:sync-token/><CS:getctag/>\
            </D:prop></D:propfind>
            """)
        let reply = try await send("PROPFIND", path: collectionPath, headers: ["Depth": "0", "Content-Type": Self.xmlType], body: body)
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

    /// The path of the folder that holds the collection (its parent), ending with `/`; `nil` for a collection at the root.
    var parentPath: String? {
        var parts = collectionPath.split(separator: "/", omittingEmptySubsequences: true)
        guard !parts.isEmpty else { return nil }
        parts.removeLast()
        return "/" + parts.map { $0 + "/" }.joined()
    }

    /// Creates the plain WebDAV collection that would hold this calendar
    /// (`MKCOL` of its parent, RFC 4918 §9.3), for a `MKCALENDAR` the
    /// server answered 409 because that folder does not exist.
    /// - Throws: ``CalendarStoreError``: `transport` with the server's
    ///   status when it will not make it (403, 405, 409: a folder above it
    ///   is missing too, or the server makes no folders this way), naming
    ///   the folder to create; the rest as for every call.
    public func makeParent() async throws(CalendarStoreError) {
        guard let parent = parentPath, parent != "/" else {
            throw CalendarStoreError(.transport, "MKCOL: the collection \(collection.absoluteString) has no folder above it to make")
        }
        let reply = try await send("MKCOL", path: parent, headers: [:], body: nil)
        let url = display(parent)
        if [200, 201].contains(reply.status) { return }
        if reply.status == 405 { return }  // it exists already (RFC 4918 §9.3.1)
        throw CalendarStoreError(.transport, status: reply.status, "MKCOL \(url): the server will not make the folder that would hold the calendar (\(HTTPStatus.phrase(reply.status)))", suggestion: "create \(url) on the server first (its web interface, or another client), then try again")
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
    public func makeCalendar(displayName: String?) async throws(CalendarStoreError) {
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
        let reply = try await send("MKCALENDAR", path: collectionPath, headers: headers, body: body)
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
    public func list() async throws(CalendarStoreError) -> [CalDAVResource] {
        let body = WebDAVXML.document("""
            <D:propfind \(WebDAVXML.namespaces)><D:prop><D:resourcetype/><D:getetag/></D:prop></D:propfind>
            """)
        let reply = try await send("PROPFIND", path: collectionPath, headers: ["Depth": "1", "Content-Type": Self.xmlType], body: body)
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

    // MARK: - One member

    /// A member's text and entity tag (`GET`).
    /// - Parameter href: the member, as ``CalDAVResource/href`` gives it or
    ///   as a name inside the collection.
    /// - Throws: ``CalendarStoreError``: `notFound` (404); `badResponse` for
    ///   an href outside the collection; the rest as for every call.
    public func get(_ href: String) async throws(CalendarStoreError) -> CalDAVResource {
        let path = try memberPath(href)
        let reply = try await send("GET", path: path, headers: ["Accept": "text/calendar"], body: nil)
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
    public func put(_ href: String, _ data: [UInt8], ifMatch etag: String?) async throws(CalendarStoreError) -> String? {
        let path = try memberPath(href)
        var headers = ["Content-Type": "text/calendar; charset=utf-8"]
        if let etag { headers["If-Match"] = etag } else { headers["If-None-Match"] = "*" }
        let reply = try await send("PUT", path: path, headers: headers, body: data)
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
    public func delete(_ href: String, ifMatch etag: String) async throws(CalendarStoreError) {
        let path = try memberPath(href)
        let reply = try await send("DELETE", path: path, headers: ["If-Match": etag], body: nil)
        let url = display(path)
        if reply.status == 412 {
            throw CalendarStoreError(.conflict, status: 412, "DELETE \(url): the resource changed on the server since it was read (If-Match \(WebDAVXML.oneLine(etag)))")
        }
        try expect(reply, [200, 202, 204], what: "DELETE \(url)", notFound: "there is no resource at \(url)")
    }

}
