/// An iCalendar property kept as the file wrote it: name, parameters and the
/// raw value text (RFC 5545 §3.1 "content line").
///
/// Items keep every property the model has no field for (`URL`, `CLASS`,
/// `ATTENDEE`, `X-…`, properties from later RFCs) as content lines, so an
/// import followed by an export writes them back unchanged.
///
/// ```swift
/// let line = ContentLine(name: "X-HORARI-ROOM", parameters: [.init(name: "LANGUAGE", values: ["ca"])], value: "Sala 2")
/// line.text   // "X-HORARI-ROOM;LANGUAGE=ca:Sala 2"
/// ```
///
/// A line is stored as its ``text``, once, and ``name``, ``parameters`` and
/// ``value`` are read from it when asked for. An imported calendar holds
/// every property it does not model this way, and the alternative (a string
/// per part, an array per parameter list and per value list) cost four to
/// six allocations per line: on the 50,000-event benchmark file that was a
/// fifth of the import's memory (Benchmarks/RESULTS.md).
///
/// The text is *canonical*, so two lines are equal exactly when their name,
/// parameters and value are: names are upper case, and a parameter value
/// is quoted exactly when it holds `:`, `;` or `,`. A double quote cannot
/// appear in a parameter value at all (RFC 5545 §3.2) and is stored, and
/// written, as `'`.
public struct ContentLine: Hashable, Sendable, Codable {
    /// A parameter: its name and its values, unquoted.
    public struct Parameter: Hashable, Sendable, Codable {
        /// The parameter name, upper case (`CN`, `X-FOO`).
        public var name: String
        /// The values, without the double quotes a file may put round them.
        public var values: [String]

        /// Creates a parameter.
        public init(name: String, values: [String]) {
            self.name = name
            self.values = values
        }
    }

    /// The line as it is written in a file before folding:
    /// `NAME;PARAM=value:value`, in the canonical form described above.
    public private(set) var text: String

    /// Creates a content line.
    ///
    /// The name and the parameter names are stored upper case (iCalendar
    /// names are case-insensitive); see the type's discussion for how
    /// parameter values are stored.
    public init(name: String, parameters: [Parameter] = [], value: String) {
        var bytes: [UInt8] = []
        Self.appendHead(name: name, parameters: parameters, to: &bytes)
        bytes.append(0x3A)  // :
        bytes.append(contentsOf: value.utf8)
        text = String(decoding: bytes, as: UTF8.self)
    }

    /// Wraps text already in canonical form (the importer checks that it is).
    package init(canonicalText: String) {
        text = canonicalText
    }

    /// The property name, upper case (`ATTENDEE`, `X-WR-CALNAME`).
    public var name: String {
        get { String(text[..<nameEnd]) }
        set {
            var bytes: [UInt8] = []
            Self.appendName(newValue, to: &bytes)
            bytes.append(contentsOf: text.utf8[nameEnd...])
            text = String(decoding: bytes, as: UTF8.self)
        }
    }

    /// The parameters, in file order.
    public var parameters: [Parameter] {
        get {
            var out: [Parameter] = []
            forEachParameter { name, list in
                out.append(Parameter(name: String(decoding: name, as: UTF8.self), values: Self.values(list)))
            }
            return out
        }
        set { self = ContentLine(name: name, parameters: newValue, value: value) }
    }

    /// The value exactly as written (escapes such as `\,` kept).
    public var value: String {
        get { String(valueText) }
        set {
            let head = text.utf8[..<valueStart]
            var bytes: [UInt8] = []
            bytes.reserveCapacity(head.count + newValue.utf8.count)
            bytes.append(contentsOf: head)
            bytes.append(contentsOf: newValue.utf8)
            text = String(decoding: bytes, as: UTF8.self)
        }
    }

    /// The value as a slice of ``text``, for readers that need no copy.
    package var valueText: Substring { text[valueStart...] }

    /// Whether the line has any parameters (without reading them).
    package var hasParameters: Bool { nameEnd < text.utf8.endIndex && text.utf8[nameEnd] == 0x3B }

    /// The first value of the parameter `name`, if present.
    public func parameter(_ name: String) -> String? {
        var found: String?
        forEachParameter { n, list in
            if found == nil, n.elementsEqual(name.utf8) { found = Self.firstValue(list).0 }
        }
        return found
    }

    private enum CodingKeys: String, CodingKey { case name, parameters, value }

    /// Decodes `{"name": …, "parameters": […], "value": …}`.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        try self.init(name: c.decode(String.self, forKey: .name), parameters: c.decode([Parameter].self, forKey: .parameters),
                      value: c.decode(String.self, forKey: .value))
    }

    /// Encodes `{"name": …, "parameters": […], "value": …}`.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(name, forKey: .name)
        try c.encode(parameters, forKey: .parameters)
        try c.encode(value, forKey: .value)
    }

    // MARK: Reading the canonical text

    /// Where the name ends: the first `;` or `:`.
    private var nameEnd: String.Index {
        let u = text.utf8
        return u.firstIndex { $0 == 0x3B || $0 == 0x3A } ?? u.endIndex
    }

    /// Where the value starts: after the first `:` outside a quoted parameter value.
    private var valueStart: String.Index {
        let u = text.utf8
        var i = u.startIndex
        var quoted = false
        while i < u.endIndex {
            let b = u[i]
            if b == 0x22 {
                quoted.toggle()
            } else if b == 0x3A, !quoted {
                return u.index(after: i)
            }
            i = u.index(after: i)
        }
        return u.endIndex
    }

    /// Calls `body` with each parameter's name and its value list as
    /// written (quotes and commas included), as slices of the text.
    private func forEachParameter(_ body: (Substring.UTF8View, Substring.UTF8View) -> Void) {
        let u = text.utf8
        var i = nameEnd
        while i < u.endIndex, u[i] == 0x3B {
            i = u.index(after: i)
            let nameStart = i
            while i < u.endIndex, u[i] != 0x3D, u[i] != 0x3A, u[i] != 0x3B { i = u.index(after: i) }
            let name = u[nameStart..<i]
            if i < u.endIndex, u[i] == 0x3D { i = u.index(after: i) }
            let valuesStart = i
            var quoted = false
            while i < u.endIndex, quoted || (u[i] != 0x3B && u[i] != 0x3A) {
                if u[i] == 0x22 { quoted.toggle() }
                i = u.index(after: i)
            }
            body(name, u[valuesStart..<i])
        }
    }

    /// The values of a value list as written: split at commas outside quotes, quotes removed.
    private static func values(_ list: Substring.UTF8View) -> [String] {
        var out: [String] = []
        var rest = list
        while true {
            let (value, next) = firstValue(rest)
            out.append(value)
            guard let next else { return out }
            rest = next
        }
    }

    /// The first value of a value list, and the rest of the list after its comma (`nil` when none follows).
    private static func firstValue(_ list: Substring.UTF8View) -> (String, Substring.UTF8View?) {
        var i = list.startIndex
        let value: String
        if i < list.endIndex, list[i] == 0x22 {
            let s = list.index(after: i)
            let e = list[s...].firstIndex(of: 0x22) ?? list.endIndex
            value = String(decoding: list[s..<e], as: UTF8.self)
            i = e
        } else {
            let s = i
            while i < list.endIndex, list[i] != 0x2C { i = list.index(after: i) }
            value = String(decoding: list[s..<i], as: UTF8.self)
        }
        while i < list.endIndex, list[i] != 0x2C { i = list.index(after: i) }
        return (value, i < list.endIndex ? list[list.index(after: i)...] : nil)
    }

    // MARK: Writing the canonical text

    /// Appends `NAME;PARAM=value…` (everything before the `:`) in canonical form.
    package static func appendHead(name: String, parameters: [Parameter], to bytes: inout [UInt8]) {
        appendName(name, to: &bytes)
        for p in parameters {
            bytes.append(0x3B)  // ;
            appendName(p.name, to: &bytes)
            bytes.append(0x3D)  // =
            for (k, v) in p.values.enumerated() {
                if k > 0 { bytes.append(0x2C) }  // ,
                appendParameterValue(v, to: &bytes)
            }
        }
    }

    /// Appends a name upper case (ASCII letters only: names are ASCII).
    private static func appendName(_ name: String, to bytes: inout [UInt8]) {
        for b in name.utf8 { bytes.append(b >= 0x61 && b <= 0x7A ? b - 0x20 : b) }
    }

    /// Whether a parameter value must be quoted: it holds `:`, `;` or `,` (RFC 5545 §3.1).
    package static func needsQuotes(_ value: String.UTF8View) -> Bool {
        value.contains { $0 == 0x3A || $0 == 0x3B || $0 == 0x2C }
    }

    /// ``needsQuotes(_:)`` for bytes read from a file.
    package static func needsQuotes(_ value: ArraySlice<UInt8>) -> Bool {
        value.contains { $0 == 0x3A || $0 == 0x3B || $0 == 0x2C }
    }

    /// Appends a parameter value, quoted when it must be; a double quote becomes `'`.
    package static func appendParameterValue(_ v: String, to bytes: inout [UInt8]) {
        let quote = needsQuotes(v.utf8)
        if quote { bytes.append(0x22) }
        for b in v.utf8 { bytes.append(b == 0x22 ? 0x27 : b) }
        if quote { bytes.append(0x22) }
    }
}

/// A component kept as the file wrote it (`VALARM`, `X-…`, `VLOCATION`, or a
/// component the importer could not map), with its own subcomponents.
public struct ContentComponent: Hashable, Sendable, Codable {
    /// The component name, upper case (`VALARM`).
    public var name: String
    /// Its properties, in file order.
    public var properties: ContentLines
    /// Its subcomponents, in file order.
    public var components: [ContentComponent]

    /// Creates a component.
    public init(name: String, properties: ContentLines = [], components: [ContentComponent] = []) {
        self.name = name
        self.properties = properties
        self.components = components
    }
}
