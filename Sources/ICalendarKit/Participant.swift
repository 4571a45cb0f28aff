import CalendarCore
import Foundation

/// Someone taking part in an item: its `ORGANIZER` or one of its `ATTENDEE`s.
///
/// A participant keeps every parameter of its line in file order, so one
/// read from a file and written back is the same line; ``name``, ``status``,
/// ``role`` and ``rsvp`` read and write the parameters RFC 5545 §3.2 names
/// for them (`CN`, `PARTSTAT`, `ROLE`, `RSVP`).
///
/// ```swift
/// var anna = Participant(address: "anna@example.com", name: "Anna Puig", role: "REQ-PARTICIPANT", rsvp: true)
/// anna.address   // "mailto:anna@example.com"
/// anna.status = "ACCEPTED"
/// ```
public struct Participant: Hashable, Sendable {
    /// The calendar address, a URI (`mailto:…`).
    public var address: String
    /// The line's parameters, in file order (`CN`, `PARTSTAT`, `CUTYPE`, `X-…`).
    public var parameters: [ContentLine.Parameter]

    /// Creates a participant.
    ///
    /// - Parameters:
    ///   - address: the calendar address; an e-mail address without a scheme
    ///     (`anna@example.com`) is taken as `mailto:anna@example.com`.
    ///   - name: the display name (`CN`).
    ///   - status: the participation status (`PARTSTAT`: `NEEDS-ACTION`,
    ///     `ACCEPTED`, `DECLINED`, `TENTATIVE`, `DELEGATED`).
    ///   - role: the role (`ROLE`: `CHAIR`, `REQ-PARTICIPANT`,
    ///     `OPT-PARTICIPANT`, `NON-PARTICIPANT`).
    ///   - rsvp: whether a reply is asked for (`RSVP=TRUE`).
    public init(address: String, name: String? = nil, status: String? = nil, role: String? = nil, rsvp: Bool = false) {
        self.address = Self.uri(address)
        parameters = []
        self.name = name
        self.status = status
        self.role = role
        self.rsvp = rsvp
    }

    /// Reads a participant from a content line, keeping all its parameters.
    public init(_ line: ContentLine) {
        address = line.value
        parameters = line.parameters
    }

    /// The display name (`CN`), if given.
    public var name: String? {
        get { self["CN"] }
        set { self["CN"] = newValue }
    }
    /// The participation status (`PARTSTAT`), if given.
    public var status: String? {
        get { self["PARTSTAT"] }
        set { self["PARTSTAT"] = newValue?.uppercased() }
    }
    /// The role (`ROLE`), if given; RFC 5545 reads none as `REQ-PARTICIPANT`.
    public var role: String? {
        get { self["ROLE"] }
        set { self["ROLE"] = newValue?.uppercased() }
    }
    /// Whether the organizer asks for a reply (`RSVP=TRUE`; none is `FALSE`).
    public var rsvp: Bool {
        get { self["RSVP"]?.uppercased() == "TRUE" }
        set { self["RSVP"] = newValue ? "TRUE" : nil }
    }

    /// The line this participant is written as.
    /// - Parameter name: `ORGANIZER` or `ATTENDEE`.
    public func line(named name: String) -> ContentLine {
        ContentLine(name: name, parameters: parameters, value: address)
    }

    /// Whether two calendar addresses name the same person: the scheme and
    /// the address compared without regard to letter case, as RFC 5545's
    /// examples and every peer compare `mailto:` addresses.
    /// - Parameter other: the other address, with or without `mailto:`.
    public func hasAddress(_ other: String) -> Bool {
        address.caseInsensitiveCompare(Self.uri(other)) == .orderedSame
    }

    /// A parameter's first value, by name; setting `nil` removes it, and a
    /// parameter already there keeps its place.
    private subscript(parameter: String) -> String? {
        get { parameters.first { $0.name == parameter }?.values.first }
        set {
            guard let newValue else { parameters.removeAll { $0.name == parameter }; return }
            if let at = parameters.firstIndex(where: { $0.name == parameter }) {
                parameters[at].values = [newValue]
            } else {
                parameters.append(ContentLine.Parameter(name: parameter, values: [newValue]))
            }
        }
    }

    private static func uri(_ address: String) -> String {
        let text = address.trimmingCharacters(in: .whitespaces)
        return !text.contains(":") && text.contains("@") ? "mailto:" + text : text
    }
}
