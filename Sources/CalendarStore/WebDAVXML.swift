import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

// WebDAV's XML (RFC 4918 §14, RFC 4791 §9, RFC 6578 §6): multistatus
// answers read with Foundation's `XMLParser`, namespace by namespace (a
// server may bind `DAV:` to any prefix, or to none), and request bodies
// written with every text escaped. Never by scanning the text for strings.

/// The XML namespaces a CalDAV exchange uses.
enum DAVNamespace {
    /// WebDAV (RFC 4918).
    static let dav = "DAV:"
    /// CalDAV (RFC 4791).
    static let caldav = "urn:ietf:params:xml:ns:caldav"
    /// Apple's CalendarServer extensions (`getctag`).
    static let calendarServer = "http://calendarserver.org/ns/"
}

/// An element of a WebDAV body: its namespace and local name, the elements
/// inside it, and the character data directly inside it.
struct XMLNode: Sendable {
    /// The namespace URI (`DAV:`, …); empty for an element in no namespace.
    var namespace: String
    /// The local name.
    var name: String
    /// The elements inside, in order.
    var children: [XMLNode] = []
    /// The character data directly inside (CDATA too), concatenated.
    var text: String = ""

    /// Whether the element is `name` in `namespace`.
    func `is`(_ namespace: String, _ name: String) -> Bool {
        self.name == name && self.namespace == namespace
    }

    /// The first child `name` in `namespace`.
    func child(_ namespace: String, _ name: String) -> XMLNode? {
        children.first { $0.is(namespace, name) }
    }

    /// Every child `name` in `namespace`.
    func children(_ namespace: String, _ name: String) -> [XMLNode] {
        children.filter { $0.is(namespace, name) }
    }

    /// The text with white space trimmed at both ends.
    var trimmedText: String { text.trimmingCharacters(in: .whitespacesAndNewlines) }
}

/// One `DAV:response` of a multistatus.
struct DAVResponse: Sendable {
    /// The `DAV:href`s, as written (RFC 4918 lets a response without
    /// propstats name several).
    var hrefs: [String]
    /// The response's own `DAV:status`, for a response without propstats
    /// (a member sync-collection reports as removed: 404).
    var status: Int?
    /// The `DAV:propstat`s: each status with the properties it applies to.
    var propstats: [(status: Int, props: [XMLNode])]

    /// The property `name` in `namespace` from a propstat with a 2xx status.
    func property(_ namespace: String, _ name: String) -> XMLNode? {
        for propstat in propstats where (200..<300).contains(propstat.status) {
            if let found = propstat.props.first(where: { $0.is(namespace, name) }) { return found }
        }
        return nil
    }

    /// Whether a propstat has a 2xx status.
    var hasSuccessfulPropstat: Bool { propstats.contains { (200..<300).contains($0.status) } }

    /// Whether the response says the resource is gone: its own status is
    /// 404 or 410, or it has propstats and every one is 404 or 410.
    var saysGone: Bool {
        if let status { return status == 404 || status == 410 }
        return !propstats.isEmpty && propstats.allSatisfy { $0.status == 404 || $0.status == 410 }
    }
}

/// A `DAV:multistatus` answer.
struct DAVMultistatus: Sendable {
    /// The `DAV:response`s, in order.
    var responses: [DAVResponse]
    /// The `DAV:sync-token` of a sync-collection report (RFC 6578).
    var syncToken: String?
}

/// Reading and writing WebDAV's XML.
enum WebDAVXML {
    /// The deepest nesting a WebDAV answer is read to; deeper is refused.
    static let maxDepth = 48
    /// The most elements one answer is read to; more is refused, so that a
    /// body of tiny elements cannot grow the tree past a few hundred MB.
    static let maxElements = 1_000_000

    /// The document element of an XML body.
    /// - Parameter what: the request, for messages (`REPORT https://…`).
    /// - Throws: ``CalendarStoreError`` with code `badResponse` for a body
    ///   that is not well-formed XML, has a DTD that declares entities, or
    ///   is over the limits.
    static func parse(_ bytes: [UInt8], what: String) throws(CalendarStoreError) -> XMLNode {
        // A document type declaration is refused before parsing: on Linux,
        // Foundation's XMLParser never tells its delegate of an entity
        // declared there, and drops a reference to one from the text it
        // gives (`/x&b;.ics` read as `/x.ics`). A WebDAV answer has none.
        if declaresDocumentType(bytes) {
            throw CalendarStoreError(.badResponse, "\(what): the answer is not WebDAV XML: it declares a document type (<!DOCTYPE>), which a WebDAV answer has no use for")
        }
        let reader = TreeReader()
        // Read from a stream, not `XMLParser(data:)`: given its data whole,
        // Foundation hands libxml2 one chunk, and libxml2 refuses input over
        // 10,000,000 bytes not yet parsed without XML_PARSE_HUGE, which
        // Foundation does not set (a 10.7 MB multistatus was "not
        // well-formed XML"). Fed by a stream, a chunk at a time, it reads
        // any answer up to the client's 32 MiB, one calendar of 30 MB too
        // (measured), with the same delegate and the same refusals.
        let parser = XMLParser(stream: InputStream(data: Data(bytes)))
        parser.shouldProcessNamespaces = true
        parser.shouldReportNamespacePrefixes = false
        parser.shouldResolveExternalEntities = false
        parser.delegate = reader
        let parsed = parser.parse()
        if let refusal = reader.refusal {
            throw CalendarStoreError(.badResponse, "\(what): the answer is not WebDAV XML: \(refusal)")
        }
        guard parsed, let root = reader.root else {
            let detail = parser.parserError.map { "error \(($0 as NSError).code) at line \(parser.lineNumber)" } ?? "no document element"
            let start = bytes.prefix(40).allSatisfy { $0 == 0x09 || $0 == 0x0A || $0 == 0x0D || (0x20..<0x7F).contains($0) }
                ? ", it begins ‘\(oneLine(String(decoding: bytes.prefix(40), as: UTF8.self)))’" : ""
            throw CalendarStoreError(.badResponse, "\(what): the answer is not well-formed XML (\(detail))\(start)")
        }
        return root
    }

    /// Whether the body's prolog, before its first element, holds a
    /// `<!DOCTYPE`: past the XML declaration, processing instructions,
    /// comments and white space only, so that a `<!DOCTYPE` inside a
    /// calendar's text (an HTML description in a CDATA section) is not one.
    static func declaresDocumentType(_ bytes: [UInt8]) -> Bool {
        // Compared in place, byte by byte: a prolog may be a 30 MB comment
        // (an array a byte made the copy of one took 6 s in a debug build).
        func starts(_ text: StaticString, at i: Int) -> Bool {
            text.withUTF8Buffer { t in
                guard i + t.count <= bytes.count else { return false }
                var k = 0
                while k < t.count, bytes[i + k] == t[k] { k += 1 }
                return k == t.count
            }
        }
        func end(of close: StaticString, from i: Int) -> Int? {
            let first = close.withUTF8Buffer { $0[0] }
            var j = i
            while j < bytes.count {
                if bytes[j] == first, starts(close, at: j) { return j + close.utf8CodeUnitCount }
                j += 1
            }
            return nil
        }
        var i = starts("\u{FEFF}", at: 0) ? 3 : 0
        while i < bytes.count {
            switch bytes[i] {
            case 0x20, 0x09, 0x0A, 0x0D: i += 1
            case UInt8(ascii: "<"):
                if starts("<?", at: i) { guard let next = end(of: "?>", from: i + 2) else { return false }; i = next; continue }
                if starts("<!--", at: i) { guard let next = end(of: "-->", from: i + 4) else { return false }; i = next; continue }
                return starts("<!DOCTYPE", at: i)
            default: return false
            }
        }
        return false
    }

    /// A `DAV:multistatus` body.
    /// - Throws: ``CalendarStoreError`` with code `badResponse` for a body that
    ///   is not XML, or whose document element is not `DAV:multistatus`.
    static func multistatus(_ bytes: [UInt8], what: String) throws(CalendarStoreError) -> DAVMultistatus {
        let root = try parse(bytes, what: what)
        guard root.is(DAVNamespace.dav, "multistatus") else {
            throw CalendarStoreError(.badResponse, "\(what): a WebDAV multistatus was expected, the answer is a ‘\(oneLine(root.name))’ element\(root.namespace.isEmpty ? "" : " of ‘\(oneLine(root.namespace))’")")
        }
        var responses: [DAVResponse] = []
        for response in root.children(DAVNamespace.dav, "response") {
            var propstats: [(status: Int, props: [XMLNode])] = []
            for propstat in response.children(DAVNamespace.dav, "propstat") {
                guard let status = propstat.child(DAVNamespace.dav, "status").flatMap({ statusCode($0.trimmedText) }) else {
                    throw CalendarStoreError(.badResponse, "\(what): a propstat without a readable DAV:status")
                }
                propstats.append((status, propstat.child(DAVNamespace.dav, "prop")?.children ?? []))
            }
            let status = response.child(DAVNamespace.dav, "status").flatMap { statusCode($0.trimmedText) }
            let hrefs = response.children(DAVNamespace.dav, "href").map(\.trimmedText)
            guard !hrefs.isEmpty else {
                throw CalendarStoreError(.badResponse, "\(what): a DAV:response without a DAV:href")
            }
            responses.append(DAVResponse(hrefs: hrefs, status: status, propstats: propstats))
        }
        let token = root.child(DAVNamespace.dav, "sync-token")?.trimmedText
        return DAVMultistatus(responses: responses, syncToken: token)
    }

    /// The conditions a `DAV:error` body names (RFC 4918 §16: the
    /// precondition or postcondition that failed), as `namespace` and name;
    /// empty for any other body.
    static func errorConditions(_ bytes: [UInt8]) -> [(namespace: String, name: String)] {
        guard !bytes.isEmpty, let root = try? parse(bytes, what: ""), root.is(DAVNamespace.dav, "error") else { return [] }
        return root.children.map { ($0.namespace, $0.name) }
    }

    /// The status code of a `DAV:status` line (`HTTP/1.1 404 Not Found`).
    static func statusCode(_ line: String) -> Int? {
        let parts = line.split(separator: " ", omittingEmptySubsequences: true)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/"), let code = Int(parts[1]), (100...599).contains(code) else { return nil }
        return code
    }

    /// Text escaped for XML character data or a quoted attribute, with the
    /// characters XML 1.0 cannot carry at all (most C0 controls, U+FFFE,
    /// U+FFFF) left out.
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
            default:
                if scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF { continue }
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// Whether XML 1.0 can carry every character of `text`.
    static func isXMLText(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy { s in
            s == "\t" || s == "\n" || s == "\r" || (s.value >= 0x20 && s.value != 0xFFFE && s.value != 0xFFFF)
        }
    }

    /// A request body: the XML declaration, then `element`.
    static func document(_ element: String) -> [UInt8] {
        Array(("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n" + element).utf8)
    }

    /// The namespace declarations every request body's root carries.
    static let namespaces = "xmlns:D=\"DAV:\" xmlns:C=\"\(DAVNamespace.caldav)\" xmlns:CS=\"\(DAVNamespace.calendarServer)\""

    /// `text` on one line, without control characters, at most 120
    /// characters: what a server sent, made fit for a message.
    static func oneLine(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if out.count >= 120 { out.append("…"); break }
            out.append(scalar.properties.generalCategory == .control ? "?" : scalar)
        }
        return String(out)
    }
}

/// Builds the tree of an XML body, with the limits and refusals of
/// ``WebDAVXML/parse(_:what:)``.
private final class TreeReader: NSObject, XMLParserDelegate {
    /// The document element, once closed.
    var root: XMLNode?
    /// Why the body was refused, when it was.
    var refusal: String?
    private var stack: [XMLNode] = []
    private var elements = 0
    /// One copy of each namespace URI, so that a million elements share it.
    private var namespaces: [String: String] = [
        DAVNamespace.dav: DAVNamespace.dav,
        DAVNamespace.caldav: DAVNamespace.caldav,
        DAVNamespace.calendarServer: DAVNamespace.calendarServer,
    ]

    private func refuse(_ parser: XMLParser, _ why: String) {
        if refusal == nil { refusal = why }
        parser.abortParsing()
    }

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
        qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]
    ) {
        guard refusal == nil else { return }
        elements += 1
        if elements > WebDAVXML.maxElements { return refuse(parser, "more than \(WebDAVXML.maxElements) elements") }
        if stack.count >= WebDAVXML.maxDepth { return refuse(parser, "elements nested more than \(WebDAVXML.maxDepth) deep") }
        let uri = namespaceURI ?? ""
        let namespace: String
        if let known = namespaces[uri] {
            namespace = known
        } else {
            namespace = uri
            if namespaces.count < 1000 { namespaces[uri] = uri }
        }
        // Without a namespace URI, some parsers leave the prefix on the name.
        let local = elementName.split(separator: ":").last.map(String.init) ?? elementName
        stack.append(XMLNode(namespace: namespace, name: local))
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
        guard refusal == nil, let node = stack.popLast() else { return }
        if stack.isEmpty {
            root = node
        } else {
            stack[stack.count - 1].children.append(node)
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        guard refusal == nil, !stack.isEmpty else { return }
        stack[stack.count - 1].text += string
    }

    func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
        guard refusal == nil, !stack.isEmpty else { return }
        stack[stack.count - 1].text += String(decoding: CDATABlock, as: UTF8.self)
    }

    func parser(_ parser: XMLParser, foundInternalEntityDeclarationWithName name: String, value: String?) {
        refuse(parser, "it declares entities, which WebDAV does not use")
    }

    func parser(_ parser: XMLParser, foundExternalEntityDeclarationWithName name: String, publicID: String?, systemID: String?) {
        refuse(parser, "it declares entities, which WebDAV does not use")
    }
}
