internal import CLibXML2
import Foundation

// WebDAV's XML (RFC 4918 §14, RFC 4791 §9, RFC 6578 §6): multistatus
// answers read with libxml2's streaming reader, namespace by namespace (a
// server may bind `DAV:` to any prefix, or to none), and request bodies
// written with every text escaped. Never by scanning the text for strings.
//
// libxml2 is opened at the first answer read (`CLibXML2`'s shim says why),
// not through Foundation's `XMLParser`: FoundationXML cost every process
// about 1 ms and 0.65 MB at start, and its parser, given a body whole, hands
// libxml2 one chunk without `XML_PARSE_HUGE`, which refused answers over
// 10,000,000 bytes. The reader here sets that option itself.

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
        // A document type declaration is refused before parsing: it is where
        // entities are declared (a billion laughs, an external file), and a
        // WebDAV answer has none. Without one, libxml2 expands only XML's
        // own five entities and character references, and an undeclared
        // `&b;` makes the body not well-formed. The look is at the bytes,
        // so libxml2 must read those bytes and no others: the body is read
        // as UTF-8 whatever it declares (`XML_PARSE_IGNORE_ENC`; a
        // `<!DOCTYPE` written in UTF-7 is then text, not a declaration),
        // and a body with a NUL byte, which UTF-8 XML never has and UTF-16
        // and UTF-32 always do, is refused here (libxml2 may follow a
        // byte-order mark over the encoding it is given). A DTD that got
        // past would be expanded as libxml2 reads up to the document
        // element, before any refusal of the reader's: with
        // `XML_PARSE_HUGE`, libxml2 2.9 and 2.10 do not bound the expansion
        // (the review measured 1.1 GB and 33 s from 1 KB of UTF-16).
        if let zero = bytes.firstIndex(of: 0) {
            throw CalendarStoreError(.badResponse, "\(what): the answer is not WebDAV XML in UTF-8: it has a NUL byte (at byte \(zero)), as UTF-16 and UTF-32 have")
        }
        if declaresDocumentType(bytes) {
            throw CalendarStoreError(.badResponse, "\(what): the answer is not WebDAV XML: it declares a document type (<!DOCTYPE>), which a WebDAV answer has no use for")
        }
        let library: XMLLibrary
        switch XMLLibrary.loaded {
        case .success(let loaded): library = loaded
        case .failure(var error):
            error.message = "\(what): \(error.message)"
            throw error
        }
        guard bytes.count <= Int(Int32.max) else {
            throw CalendarStoreError(.tooLarge, "\(what): the answer is \(bytes.count) bytes, more than XML is read to")
        }
        var tree = TreeBuilder()
        let outcome: XMLLibrary.Outcome = bytes.withUnsafeBytes { body in
            library.read(body) { reader in tree.take(reader) }
        }
        if let refusal = tree.refusal {
            throw CalendarStoreError(.badResponse, "\(what): the answer is not WebDAV XML: \(refusal)")
        }
        guard case .read = outcome, let root = tree.root else {
            let detail: String
            switch outcome {
            case .read: detail = "no document element"
            case .failed(let line, let message): detail = message.isEmpty ? "at line \(line)" : "line \(line): \(oneLine(message))"
            }
            let start = !bytes.isEmpty && bytes.prefix(40).allSatisfy { $0 == 0x09 || $0 == 0x0A || $0 == 0x0D || (0x20..<0x7F).contains($0) }
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

/// libxml2's reader, opened once a process at the first answer read.
struct XMLLibrary: @unchecked Sendable {
    // @unchecked: the table is written once, before this value exists, and
    // only read after; libxml2's reader keeps its state in each reader.
    private let api: UnsafePointer<horari_xml>

    /// libxml2, loaded and initialised once a process.
    static let loaded: Result<XMLLibrary, CalendarStoreError> = {
        loadLibrary { horari_xml_load($0, $1, $2) }.map(XMLLibrary.init(api:)).mapError { failure in
            CalendarStoreError(.transport, "libxml2 could not be loaded (\(failure.words)): CalDAV reads its answers with libxml2",
                               suggestion: "install it (Debian and Ubuntu: the libxml2 package, libxml2-16 from Debian 14)")
        }
    }()

    /// How a read ended.
    enum Outcome {
        /// The whole body was read (or the reading was stopped on purpose).
        case read
        /// libxml2 found the body not well-formed: where, and its words.
        case failed(line: Int, message: String)
    }

    /// What a reader stopped at, handed to the caller's closure.
    struct Node {
        fileprivate let library: XMLLibrary
        fileprivate let reader: OpaquePointer

        /// The node's kind: `HORARI_XML_ELEMENT`, `HORARI_XML_TEXT`, ….
        var kind: Int32 { horari_xml_node_type(library.api, reader) }
        /// Whether an element is written `<a/>` (no end element follows).
        var isEmptyElement: Bool { horari_xml_is_empty_element(library.api, reader) == 1 }
        /// An element's local name.
        var localName: String { string(horari_xml_local_name(library.api, reader)) }
        /// An element's namespace URI; empty for none.
        var namespaceURI: String { string(horari_xml_namespace_uri(library.api, reader)) }
        /// A text's or CDATA section's characters.
        var value: String { string(horari_xml_value(library.api, reader)) }
        /// The line the parser is at.
        var line: Int { Int(horari_xml_line_number(library.api, reader)) }

        private func string(_ text: UnsafePointer<UInt8>?) -> String {
            guard let text else { return "" }
            return String(cString: text)
        }
    }

    /// Reads `body` node by node, calling `visit` with each until it
    /// answers false or the body ends. The reader reads the bytes as UTF-8
    /// whatever they declare (`XML_PARSE_IGNORE_ENC`), never fetches
    /// anything (`XML_PARSE_NONET`), has no limit on a text's size but the
    /// body's own (`XML_PARSE_HUGE`), and prints nothing: its error is read after.
    func read(_ body: UnsafeRawBufferPointer, _ visit: (Node) -> Bool) -> Outcome {
        let options = Int32(HORARI_XML_PARSE_NONET | HORARI_XML_PARSE_HUGE | HORARI_XML_PARSE_IGNORE_ENC | HORARI_XML_PARSE_NOERROR | HORARI_XML_PARSE_NOWARNING)
        guard body.count > 0, let base = body.baseAddress else { return .failed(line: 1, message: "the answer is empty") }
        guard let reader = horari_xml_reader_for_memory(api, base, Int32(body.count), options) else {
            return .failed(line: 1, message: "libxml2 could not start reading it")
        }
        // The error read after a failure is this read's, not an earlier one's on this thread.
        horari_xml_reset_last_error(api)
        defer { horari_xml_free_reader(api, reader) }
        let node = Node(library: self, reader: reader)
        while true {
            switch horari_xml_read(api, reader) {
            case 1: if !visit(node) { return .read }
            case 0: return .read
            default:
                let error = horari_xml_last_error(api)
                let message = error?.pointee.message.map { String(cString: $0) } ?? ""
                let line = error.map { Int($0.pointee.line) }.flatMap { $0 > 0 ? $0 : nil } ?? node.line
                return .failed(line: line, message: message.trimmingCharacters(in: .whitespacesAndNewlines))
            }
        }
    }
}

/// Builds the tree of an XML body from libxml2's reader, with the limits and
/// refusals of ``WebDAVXML/parse(_:what:)``.
private struct TreeBuilder {
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

    /// Takes the node the reader is at; false to stop reading (a refusal).
    mutating func take(_ node: XMLLibrary.Node) -> Bool {
        switch node.kind {
        case Int32(HORARI_XML_ELEMENT):
            elements += 1
            if elements > WebDAVXML.maxElements { return refuse("more than \(WebDAVXML.maxElements) elements") }
            if stack.count >= WebDAVXML.maxDepth { return refuse("elements nested more than \(WebDAVXML.maxDepth) deep") }
            let uri = node.namespaceURI
            let namespace: String
            if let known = namespaces[uri] {
                namespace = known
            } else {
                namespace = uri
                if namespaces.count < 1000 { namespaces[uri] = uri }
            }
            // An element whose prefix is bound to no namespace keeps it on its
            // name in libxml2 (`x:m`); the name is its local part, as before.
            // Only such an element, in no namespace, is looked at for one.
            var name = node.localName
            if uri.isEmpty, let colon = name.lastIndex(of: ":") { name = String(name[name.index(after: colon)...]) }
            stack.append(XMLNode(namespace: namespace, name: name))
            if node.isEmptyElement { close() }
        case Int32(HORARI_XML_END_ELEMENT):
            close()
        case Int32(HORARI_XML_TEXT), Int32(HORARI_XML_CDATA), Int32(HORARI_XML_WHITESPACE), Int32(HORARI_XML_SIGNIFICANT_WHITESPACE):
            if !stack.isEmpty { stack[stack.count - 1].text += node.value }
        case Int32(HORARI_XML_DOCUMENT_TYPE), Int32(HORARI_XML_ENTITY_REFERENCE):
            // Refused before parsing (`parse`); a document type that got past
            // that look would be refused here too, but only once libxml2 has
            // read up to the document element, its entities already expanded.
            return refuse("it declares entities, which WebDAV does not use")
        default:
            break  // comments, processing instructions
        }
        return true
    }

    private mutating func close() {
        guard let node = stack.popLast() else { return }
        if stack.isEmpty {
            root = node
        } else {
            stack[stack.count - 1].children.append(node)
        }
    }

    private mutating func refuse(_ why: String) -> Bool {
        if refusal == nil { refusal = why }
        return false
    }
}
