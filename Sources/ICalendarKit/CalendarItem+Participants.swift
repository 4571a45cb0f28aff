import CalendarCore

extension CalendarItem {
    /// The organizer (`ORGANIZER`); setting it replaces the line where it
    /// stood, and `nil` removes it.
    ///
    /// ```swift
    /// item.organizer = Participant(address: "marc@gym.example", name: "Marc Soler")
    /// ```
    public var organizer: Participant? {
        get { properties.first { $0.name == Self.organizerName }.map(Participant.init) }
        set { replaceParticipants(named: Self.organizerName, with: newValue.map { [$0] } ?? []) }
    }

    /// The attendees (`ATTENDEE`), in file order; setting them replaces the
    /// lines where the first one stood and leaves every other property where
    /// it was.
    public var attendees: [Participant] {
        get { properties.filter { $0.name == Self.attendeeName }.map(Participant.init) }
        set { replaceParticipants(named: Self.attendeeName, with: newValue) }
    }

    /// Adds an attendee, or replaces the one with the same address (an
    /// address is listed once: RFC 5546 matches a reply to its attendee by
    /// address).
    /// - Parameter attendee: who to add.
    public mutating func addAttendee(_ attendee: Participant) {
        if let at = properties.firstIndex(where: { $0.name == Self.attendeeName && attendee.hasAddress($0.value) }) {
            properties[at] = attendee.line(named: Self.attendeeName)
        } else if let last = properties.lastIndex(where: { $0.name == Self.attendeeName }) {
            properties.insert(attendee.line(named: Self.attendeeName), at: last + 1)
        } else {
            properties.append(attendee.line(named: Self.attendeeName))
        }
    }

    /// Removes the attendee with this address.
    /// - Parameter address: the calendar address, with or without `mailto:`.
    /// - Returns: the attendee removed, or `nil` if no attendee has the address.
    @discardableResult
    public mutating func removeAttendee(address: String) -> Participant? {
        let wanted = Participant(address: address)
        guard let at = properties.firstIndex(where: { $0.name == Self.attendeeName && wanted.hasAddress($0.value) }) else { return nil }
        return Participant(properties.remove(at: at))
    }

    private static let organizerName = "ORGANIZER"
    private static let attendeeName = "ATTENDEE"

    private mutating func replaceParticipants(named name: String, with participants: [Participant]) {
        // No line before the first one of `name` has that name, so it is
        // also where the new lines go among those kept.
        let first = properties.firstIndex { $0.name == name }
        var kept = properties.filter { $0.name != name }
        kept.insert(contentsOf: participants.map { $0.line(named: name) }, at: first ?? kept.endIndex)
        properties = ContentLines(kept)
    }
}
