import CalendarCore
import Foundation

extension CalDAVClient {
    ///   answer that names one; the rest as for every call.
    public func multiget(_ hrefs: [String]) async throws(CalendarStoreError) -> [CalDAVResource] {
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
            let reply = try await send("REPORT", path: collectionPath, headers: ["Depth": "1", "Content-Type": Self.xmlType], body: body)
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
    public func sync(from token: String?) async throws(CalendarStoreError) -> (changed: [CalDAVResource], removed: [String], token: String) {
        var order: [String] = []
        var latest: [String: CalDAVResource?] = [:]
        var current = token
        for _ in 0..<1000 {
            let (responses, next, truncated) = try await syncRound(from: current)
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
    func syncRound(from token: String?) async throws(CalendarStoreError) -> ([(String, CalDAVResource?)], String, Bool) {
        let what = "REPORT sync-collection \(collection.absoluteString)"
        if let token, !WebDAVXML.isXMLText(token) {
            throw CalendarStoreError(.invalidSyncToken, "\(what): the sync token holds characters XML cannot carry", suggestion: "list the collection in full instead")
        }
        let tokenElement = token.map { "<D:sync-token>\(WebDAVXML.escape($0))</D:sync-token>" } ?? "<D:sync-token/>"
        let body = WebDAVXML.document("""
            <D:sync-collection \(WebDAVXML.namespaces)>\(tokenElement)<D:sync-level>1</D:sync-level>\
            <D:prop><D:getetag/></D:prop></D:sync-collection>
            """)
        let reply = try await send("REPORT", path: collectionPath, headers: ["Depth": "0", "Content-Type": Self.xmlType], body: body)
        if reply.status == 403 || reply.status == 409,
           WebDAVXML.errorConditions(reply.body).contains(where: { $0.namespace == DAVNamespace.dav && $0.name == "valid-sync-token" }) {
            throw CalendarStoreError(.invalidSyncToken, status: reply.status, "\(what): the server no longer accepts the sync token", suggestion: "list the collection in full instead")
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

}
