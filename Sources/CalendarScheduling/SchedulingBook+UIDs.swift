import Foundation

// The UIDs a book sends out (issue 41, 2).
//
// RFC 5545 §3.8.4.7 asks a UID to be globally unique, and a calendar that
// receives two events of one UID takes the second for a new version of the
// first: a member of two gyms whose classes were both `UID:yoga` saw one
// gym's Yoga replaced by the other's. A book's records keep their short IDs
// (`yoga`, `s-anna-1126`), which people type; what leaves the book — the
// public timetable, a member's calendar, invitations and the replies to them,
// a member's reminders — names each class and session as `ID@DOMAIN`, the
// form the RFC suggests, where DOMAIN is the book's ``SchedulingBook/uidDomain``.
//
// A new book draws its domain once (a random UUID, RFC 9562 §5.4; RFC 7986
// §5.3 recommends UUIDs for UIDs) and keeps it with its records, so every
// message about one class carries the same UID for as long as the book
// lives. A book written before it had one keeps writing bare IDs: the
// members' calendars already hold its classes under them, and a new UID
// would give each of them a second copy. Both forms are read back: a reply
// or an import naming `yoga@DOMAIN` or `yoga` finds the class.
//
// One booking is one UID in every place: the class's UID with the
// occurrence's RECURRENCE-ID, as an invitation to one instance is written
// (RFC 5546 §3.2.2.1); a member's calendar is a series of her dates of the
// class under the same UID, so importing both into one calendar shows each
// class once (SchedulingICalendar's `memberSchedule(member:)`).

extension SchedulingBook {
    /// A fresh domain for a new book's UIDs: a random UUID, lowercased.
    public static func newUIDDomain() -> String { UUID().uuidString.lowercased() }

    /// The UID a class or session of this book is sent out under:
    /// `ID@DOMAIN` (``uidDomain``), or the bare ID for a book that has none.
    /// - Parameter id: a class's or session's ID.
    public func exchangeUID(_ id: String) -> String { Self.exchangeUID(id, domain: uidDomain) }

    /// ``exchangeUID(_:)`` for a book with domain `domain`.
    /// - Parameters:
    ///   - id: a class's or session's ID.
    ///   - domain: the book's ``uidDomain``.
    public static func exchangeUID(_ id: String, domain: String?) -> String {
        domain.map { id + "@" + $0 } ?? id
    }

    /// The ID a UID this book sent out names: `yoga` for `yoga@DOMAIN` of
    /// this book's domain; any other UID as it is (the bare IDs of a book
    /// written before it had a domain, and of its earlier messages).
    /// - Parameter uid: a UID read from a reply or an import.
    public func recordID(fromUID uid: String) -> String { Self.recordID(fromUID: uid, domain: uidDomain) }

    /// ``recordID(fromUID:)`` for a book with domain `domain`.
    /// - Parameters:
    ///   - uid: a UID read from a reply or an import.
    ///   - domain: the book's ``uidDomain``.
    public static func recordID(fromUID uid: String, domain: String?) -> String {
        guard let domain, uid.hasSuffix("@" + domain), uid.count > domain.count + 1 else { return uid }
        return String(uid.dropLast(domain.count + 1))
    }

    /// Sets the domain of the book's UIDs.
    ///
    /// Setting it on a book that has sent messages gives its classes and
    /// sessions new UIDs: a calendar holding them under the old ones shows
    /// the next message's event as a second one. A new book has one already.
    /// - Parameter domain: a domain the gym owns (`gimnas.example`), or a UUID; `nil` for bare IDs.
    /// - Throws: `SchedulingError.invalid(field:reason:)` for an empty
    ///   domain, or one with a space, a control character or an `@`.
    public mutating func setUIDDomain(_ domain: String?) throws(SchedulingError) {
        if let domain { try Self.checkUIDDomain(domain) }
        uidDomain = domain
    }

    /// Whether the book holds no record at all: no coach, client, member,
    /// class or session (a calendar that is not a book yet).
    public var holdsNoRecords: Bool {
        people.coachesByID.isEmpty && people.clientsByKey.isEmpty && people.membersByID.isEmpty
            && classTimetable.classesByID.isEmpty && coachSessions.sessionsByID.isEmpty
    }

    static func checkUIDDomain(_ domain: String) throws(SchedulingError) {
        guard !domain.isEmpty, !domain.contains("@"), !domain.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.properties.generalCategory == .control }) else {
            throw .invalid(field: .id, reason: "‘\(domain.prefix(60))’ is not a usable UID domain; give a domain name such as gimnas.example, without spaces or @")
        }
    }
}
