import CalendarCore
import Foundation

/// The people of one gym: coaches with their working hours, each coach's
/// clients, and the members who book classes.
///
/// One aspect of a ``SchedulingBook`` (``SchedulingBook/people``), read
/// through it; the book changes it, so that a client's removal takes their
/// sessions and a member's their places. A client's ID is their coach's to
/// choose: clients are keyed by coach and ID, so two coaches may each have
/// an ‘anna’, and neither learns of the other's (issue 28, 9).
package struct PeopleDirectory: Sendable {
    package private(set) var coachesByID: [String: Coach] = [:]
    /// Clients by coach and ID.
    package private(set) var clientsByKey: [ClientKey: Client] = [:]
    private(set) var clientIDsByCoach: [String: Set<String>] = [:]
    /// Per client ID, the coaches who have a client by that ID (for the
    /// client's own, unscoped view).
    package private(set) var coachIDsByClient: [String: Set<String>] = [:]
    package private(set) var membersByID: [String: Member] = [:]

    init() {}
}

// MARK: - Coaches

extension PeopleDirectory {
    /// A coach's record.
    /// - Parameter id: the coach.
    /// - Throws: ``SchedulingError/unknownCoach(_:)``.
    package func coach(_ id: String) throws(SchedulingError) -> Coach {
        guard let c = coachesByID[id] else { throw .unknownCoach(id) }
        return c
    }

    /// Every coach, by ID.
    package var coaches: [Coach] { coachesByID.values.sorted { $0.id < $1.id } }

    /// The number of clients a coach has.
    func clientCount(coach id: String) -> Int { clientIDsByCoach[id]?.count ?? 0 }

    mutating func addCoach(_ coach: Coach, asRead: Bool = false) throws(SchedulingError) {
        try SchedulingBook.checkID(coach.id, "coach")
        guard coachesByID[coach.id] == nil else { throw .duplicateID(coach.id, kind: "coach") }
        try Self.checkCoach(coach, asRead: asRead)
        coachesByID[coach.id] = coach
    }

    mutating func updateCoach(_ coach: Coach) throws(SchedulingError) {
        guard coachesByID[coach.id] != nil else { throw .unknownCoach(coach.id) }
        try Self.checkCoach(coach)
        coachesByID[coach.id] = coach
    }

    private static func checkCoach(_ coach: Coach, asRead: Bool = false) throws(SchedulingError) {
        try SchedulingBook.checkName(coach.name, "coach")
        try SchedulingBook.checkEmail(coach.email, "coach", asRead: asRead)
        try SchedulingBook.checkColor(coach.color)
        guard coach.buffer >= .zero, coach.buffer <= .seconds(86_400), coach.buffer.components.seconds % 60 == 0 else {
            throw .invalid(field: .buffer, reason: "a buffer is whole minutes from 0 to 24 hours, not \(ISOText.duration(coach.buffer))")
        }
    }

    /// Removes a coach who has no clients left.
    mutating func removeCoach(_ id: String) throws(SchedulingError) {
        _ = try coach(id)
        let clients = clientCount(coach: id)
        guard clients == 0 else { throw .coachHasClients(id, clients: clients) }
        coachesByID[id] = nil
        clientIDsByCoach[id] = nil
    }
}

// MARK: - Clients

extension PeopleDirectory {
    /// One of the coach's clients.
    /// - Parameters:
    ///   - id: the client.
    ///   - coachID: their coach.
    /// - Throws: ``SchedulingError/unknownClient(_:coach:)``, also for another coach's client.
    package func client(_ id: String, coach coachID: String) throws(SchedulingError) -> Client {
        _ = try coach(coachID)
        guard let c = clientsByKey[ClientKey(coachID: coachID, id: id)] else { throw .unknownClient(id, coach: coachID) }
        return c
    }

    /// A client asked for without a coach's scope (see ``SchedulingBook/client(_:)``).
    /// - Parameter id: the client.
    /// - Throws: ``SchedulingError/noSuchClient(_:)``, ``SchedulingError/clientNeedsCoach(_:)``.
    package func client(_ id: String) throws(SchedulingError) -> Client {
        guard let coaches = coachIDsByClient[id], let coachID = coaches.first,
              let c = clientsByKey[ClientKey(coachID: coachID, id: id)] else { throw .noSuchClient(id) }
        guard coaches.count == 1 else { throw .clientNeedsCoach(id) }
        return c
    }

    /// The coach's clients, by name.
    /// - Parameter coachID: the coach.
    /// - Throws: ``SchedulingError/unknownCoach(_:)``.
    package func clients(coach coachID: String) throws(SchedulingError) -> [Client] {
        _ = try coach(coachID)
        return (clientIDsByCoach[coachID] ?? []).compactMap { clientsByKey[ClientKey(coachID: coachID, id: $0)] }.sorted { ($0.name, $0.id) < ($1.name, $1.id) }
    }

    mutating func addClient(_ client: Client, asRead: Bool = false) throws(SchedulingError) {
        _ = try coach(client.coachID)
        try SchedulingBook.checkID(client.id, "client")
        let key = ClientKey(client)
        guard clientsByKey[key] == nil else { throw .duplicateID(client.id, kind: "client") }
        try SchedulingBook.checkName(client.name, "client")
        try SchedulingBook.checkEmail(client.email, "client", asRead: asRead)
        try SchedulingBook.checkColor(client.color)
        clientsByKey[key] = client
        clientIDsByCoach[client.coachID, default: []].insert(client.id)
        coachIDsByClient[client.id, default: []].insert(client.coachID)
    }

    mutating func updateClient(_ client: Client, coach coachID: String) throws(SchedulingError) {
        let old = try self.client(client.id, coach: coachID)
        try SchedulingBook.checkName(client.name, "client")
        try SchedulingBook.checkEmail(client.email, "client")
        try SchedulingBook.checkColor(client.color)
        var new = client
        new.coachID = old.coachID
        clientsByKey[ClientKey(new)] = new
    }

    /// Removes a client's record (their sessions are the book's to remove first).
    mutating func removeClient(_ key: ClientKey) {
        clientsByKey[key] = nil
        clientIDsByCoach[key.coachID]?.remove(key.id)
        coachIDsByClient[key.id]?.remove(key.coachID)
        if coachIDsByClient[key.id]?.isEmpty == true { coachIDsByClient[key.id] = nil }
    }
}

// MARK: - Members

extension PeopleDirectory {
    /// A member's record.
    /// - Parameter id: the member.
    /// - Throws: ``SchedulingError/unknownMember(_:)``.
    package func member(_ id: String) throws(SchedulingError) -> Member {
        guard let m = membersByID[id] else { throw .unknownMember(id) }
        return m
    }

    /// Every member, by ID.
    package var members: [Member] { membersByID.values.sorted { $0.id < $1.id } }

    mutating func addMember(_ member: Member, asRead: Bool = false) throws(SchedulingError) {
        try SchedulingBook.checkID(member.id, "member")
        guard membersByID[member.id] == nil else { throw .duplicateID(member.id, kind: "member") }
        try SchedulingBook.checkName(member.name, "member")
        try SchedulingBook.checkEmail(member.email, "member", asRead: asRead)
        membersByID[member.id] = member
    }

    mutating func updateMember(_ member: Member) throws(SchedulingError) {
        _ = try self.member(member.id)
        try SchedulingBook.checkName(member.name, "member")
        try SchedulingBook.checkEmail(member.email, "member")
        membersByID[member.id] = member
    }

    /// Removes a member's record (their places are the book's to give up first).
    mutating func removeMember(_ id: String) { membersByID[id] = nil }
}

/// A client's identity: their coach and the ID the coach gave them.
package struct ClientKey: Hashable, Sendable {
    package var coachID: String
    package var id: String

    package init(coachID: String, id: String) {
        self.coachID = coachID
        self.id = id
    }

    /// The client's own key.
    package init(_ client: Client) { self.init(coachID: client.coachID, id: client.id) }

    /// The key of a session's client.
    package init(_ session: Session) { self.init(coachID: session.coachID, id: session.clientID) }
}

// MARK: - The book's calls on its people, forwarded

extension SchedulingBook {
    /// Adds a coach.
    /// - Parameter coach: the coach.
    /// - Throws: ``SchedulingError`` for a taken ID, no name or a negative buffer.
    public mutating func addCoach(_ coach: Coach) throws(SchedulingError) { try people.addCoach(coach) }

    /// Adds a coach read back from a saved form: its address is taken as it
    /// is (``checkEmail(_:of:)`` applies to the next change).
    package mutating func addCoach(_ coach: Coach, asRead: Bool) throws(SchedulingError) { try people.addCoach(coach, asRead: asRead) }

    /// Replaces a coach's details (name, e-mail, hours, buffer).
    /// - Parameter coach: the coach's new record (by its ID).
    /// - Throws: ``SchedulingError/unknownCoach(_:)``, or a value the book cannot take.
    public mutating func updateCoach(_ coach: Coach) throws(SchedulingError) { try people.updateCoach(coach) }

    /// A coach's record.
    /// - Parameter id: the coach.
    /// - Throws: ``SchedulingError/unknownCoach(_:)``.
    public func coach(_ id: String) throws(SchedulingError) -> Coach { try people.coach(id) }

    /// Every coach, by ID.
    public var coaches: [Coach] { people.coaches }

    /// Adds a client to the coach named in it.
    ///
    /// A client's ID is scoped to their coach: another coach may have a
    /// client by the same ID, and adding one never says so (the refusal
    /// ``SchedulingError/duplicateID(_:kind:)`` is for the coach's own).
    /// - Parameter client: the client, naming their coach.
    /// - Throws: ``SchedulingError`` for an unknown coach, an ID the coach's
    ///   own client has, or no name.
    public mutating func addClient(_ client: Client) throws(SchedulingError) { try people.addClient(client) }

    /// Adds a client read back from a saved form (as ``addCoach(_:asRead:)``).
    package mutating func addClient(_ client: Client, asRead: Bool) throws(SchedulingError) { try people.addClient(client, asRead: asRead) }

    /// Replaces a client's name, e-mail and colour, in the coach's scope.
    /// - Parameters:
    ///   - client: the client's new details (by its ID).
    ///   - coachID: their coach.
    /// - Throws: ``SchedulingError/unknownClient(_:coach:)`` when the coach has no such client.
    public mutating func updateClient(_ client: Client, coach coachID: String) throws(SchedulingError) { try people.updateClient(client, coach: coachID) }

    /// One of the coach's clients.
    /// - Parameters:
    ///   - id: the client.
    ///   - coachID: their coach.
    /// - Throws: ``SchedulingError/unknownClient(_:coach:)``, also for another coach's client.
    public func client(_ id: String, coach coachID: String) throws(SchedulingError) -> Client { try people.client(id, coach: coachID) }

    /// The coach's clients, by name.
    /// - Parameter coachID: the coach.
    /// - Throws: ``SchedulingError/unknownCoach(_:)``.
    public func clients(coach coachID: String) throws(SchedulingError) -> [Client] { try people.clients(coach: coachID) }

    /// A client, asked without a coach's scope (the client's own app).
    ///
    /// Client IDs are scoped to their coaches; when more than one coach has
    /// a client by this ID, the request must name the coach
    /// (``client(_:coach:)``); without one it is refused with
    /// ``SchedulingError/clientNeedsCoach(_:)``, which names no coach.
    /// - Parameter id: the client.
    /// - Throws: ``SchedulingError/noSuchClient(_:)``, ``SchedulingError/clientNeedsCoach(_:)``.
    public func client(_ id: String) throws(SchedulingError) -> Client { try people.client(id) }

    /// Adds a member.
    /// - Parameter member: the member.
    /// - Throws: ``SchedulingError`` for a taken ID or no name.
    public mutating func addMember(_ member: Member) throws(SchedulingError) { try people.addMember(member) }

    /// Adds a member read back from a saved form (as ``addCoach(_:asRead:)``).
    package mutating func addMember(_ member: Member, asRead: Bool) throws(SchedulingError) { try people.addMember(member, asRead: asRead) }

    /// Replaces a member's name and e-mail; their places stay theirs.
    /// - Parameter member: the member's new record (by its ID).
    /// - Throws: ``SchedulingError/unknownMember(_:)``, or no name.
    public mutating func updateMember(_ member: Member) throws(SchedulingError) { try people.updateMember(member) }

    /// A member's record.
    /// - Parameter id: the member.
    /// - Throws: ``SchedulingError/unknownMember(_:)``.
    public func member(_ id: String) throws(SchedulingError) -> Member { try people.member(id) }

    /// Every member, by ID.
    public var members: [Member] { people.members }
}
