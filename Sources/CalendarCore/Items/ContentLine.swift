/// An iCalendar property kept as the file wrote it: name, parameters and the
/// raw value text (RFC 5545 §3.1 "content line").
///
/// Items keep every property the model has no field for (`URL`, `CLASS`,
/// `ATTENDEE`, `X-…`, properties from later RFCs) as content lines, so an
/// import followed by an export writes them back unchanged.
///
/// ```swift
/// let line = ContentLine(name: "X-HORARI-ROOM", parameters: [.init(name: "LANGUAGE", values: ["ca"])], value: "Sala 2")
/// ```
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

    /// The property name, upper case (`ATTENDEE`, `X-WR-CALNAME`).
    public var name: String
    /// The parameters, in file order.
    public var parameters: [Parameter]
    /// The value exactly as written (escapes such as `\,` kept).
    public var value: String

    /// Creates a content line.
    public init(name: String, parameters: [Parameter] = [], value: String) {
        self.name = name
        self.parameters = parameters
        self.value = value
    }

    /// The first value of the parameter `name`, if present.
    public func parameter(_ name: String) -> String? {
        parameters.first { $0.name == name }?.values.first
    }
}

/// A component kept as the file wrote it (`VALARM`, `X-…`, `VLOCATION`, or a
/// component the importer could not map), with its own subcomponents.
public struct ContentComponent: Hashable, Sendable, Codable {
    /// The component name, upper case (`VALARM`).
    public var name: String
    /// Its properties, in file order.
    public var properties: [ContentLine]
    /// Its subcomponents, in file order.
    public var components: [ContentComponent]

    /// Creates a component.
    public init(name: String, properties: [ContentLine] = [], components: [ContentComponent] = []) {
        self.name = name
        self.properties = properties
        self.components = components
    }
}

/// Someone taking part in an item, read from an `ORGANIZER` or `ATTENDEE` line.
public struct Participant: Hashable, Sendable {
    /// The calendar address, usually `mailto:…`.
    public var address: String
    /// The display name (`CN`), if given.
    public var name: String?
    /// The participation status (`PARTSTAT`), if given.
    public var status: String?

    /// Reads a participant from a content line.
    public init(_ line: ContentLine) {
        address = line.value
        name = line.parameter("CN")
        status = line.parameter("PARTSTAT")
    }
}
