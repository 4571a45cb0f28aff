import Foundation

extension CalDAVClient {
    // MARK: - Hrefs

    /// The absolute, percent-encoded path of a member the caller names:
    /// a path (`/calendars/alice/gym/x.ics`) or a name inside the collection
    /// (`x.ics`), never with a `..` or `.` segment, `//`, `\`, a NUL or other
    /// control character, a percent-encoded `/`, `\` or NUL, a query or
    /// fragment, or characters a URL path does not hold unencoded, and
    /// always inside the collection.
    func memberPath(_ href: String) throws(CalendarStoreError) -> String {
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
    func resolve(serverHref href: String, what: String) throws(CalendarStoreError) -> (path: String, isCollection: Bool) {
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
    static func segments(of path: String, _ refuse: (String) -> CalendarStoreError) throws(CalendarStoreError) -> [[UInt8]] {
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
    static func badEscape(_ text: String) -> String? {
        let lower = text.lowercased()
        if lower.contains("%2f") { return "it holds a percent-encoded ‘/’ (%2F)" }
        if lower.contains("%5c") { return "it holds a percent-encoded ‘\\’ (%5C)" }
        if lower.contains("%00") { return "it holds a percent-encoded NUL (%00)" }
        return nil
    }

    /// The bytes a URL path may hold unencoded (RFC 3986 `pchar` and `/`).
    static func isPathByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return "-._~!$&'()*+,;=:@/".utf8.contains(byte)
        }
    }

    static func isHex(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte | 0x20)
    }

    /// Whether `path` holds only path characters and well-formed `%XX` escapes:
    /// whether encoding it would change nothing.
    static func isPercentEncodedPath(_ path: String) -> Bool {
        encodingPath(path) == path
    }

    /// `path` with every byte a URL path holds only encoded, its
    /// escapes kept; `nil` for a `%` not followed by two hex digits.
    static func encodingPath(_ path: String) -> String? {
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
    static func percentDecoded(_ segment: Substring) -> [UInt8] {
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
    static func port(_ port: Int?, _ scheme: String?) -> Int? {
        if let port { return port }
        switch scheme?.lowercased() {
        case "http": return 80
        case "https": return 443
        default: return nil
        }
    }

    /// Whether `url` is on the collection's scheme, host and port.
    func isSameOrigin(_ url: URL) -> Bool {
        url.scheme?.lowercased() == collection.scheme?.lowercased()
            && url.host?.lowercased() == collection.host?.lowercased()
            && Self.port(url.port, url.scheme) == Self.port(collection.port, collection.scheme)
            && url.user == nil && url.password == nil
    }

}
