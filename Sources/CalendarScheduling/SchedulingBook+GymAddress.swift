import Foundation

// The gym's own address (issue 44, 7).
//
// A class's invitations and cancellations come from the gym, and a member's
// answer to one must name the gym as ORGANIZER (SchedulingICalendar's
// replies). Before, every command that told anyone about a class had to be
// given the gym's name and address again. The book keeps them once, with its
// other rules: in the JSON form (`gymAddress`), in a database's gym record,
// and in a calendar as one ORGANIZER-shaped calendar property,
// `X-HORARI-GYM-ADDRESS;CN=Name:mailto:address` — not an ORGANIZER on the
// classes, which a scheduling server (RFC 6638) would take for an
// instruction to send the messages itself.

extension SchedulingBook {
    /// The ID ``gymAddress`` carries as a ``SchedulingNotice/Person``.
    public static let gymPersonID = "gym"

    /// Keeps the gym's own name and e-mail address with the book: who a
    /// class's messages are from, and whom an answer about a class must
    /// name as organizer, when a change is told without naming a sender.
    ///
    /// ```swift
    /// var book = SchedulingBook(timeZone: try .named("Europe/Madrid"))
    /// try book.setGymAddress(name: "Gimnàs Horari", email: "desk@gimnas.example")
    /// print(book.gymAddress?.email ?? "none")  // desk@gimnas.example
    /// ```
    /// - Parameters:
    ///   - name: the name messages show, on one line, without `"`, `<` or `>`.
    ///   - email: one address a message can go to, such as `desk@gym.example`.
    /// - Throws: ``SchedulingError/invalid(field:reason:)`` for a name that
    ///   is empty, holds a line break, a `"`, `<` or `>` (a second address
    ///   typed into it, or a quote the calendar's `CN` cannot keep), or an
    ///   address that is missing or not one a message can go to; the book is
    ///   left as it was.
    public mutating func setGymAddress(name: String, email: String) throws(SchedulingError) {
        try Self.checkName(name, "gym")
        if let c = name.first(where: { "\"<>".contains($0) }) {
            throw .invalid(field: .name, reason: "the gym's name ‘\(name.prefix(60))’ holds ‘\(c)’; give the name without quotes or angle brackets, and one address: 'Gimnàs Sants <desk@gym.example>'")
        }
        guard !email.isEmpty else { throw .invalid(field: .email, reason: "the gym's address has no e-mail; write it as name@example.com") }
        try Self.checkEmail(email, "gym")
        gymAddress = SchedulingNotice.Person(id: Self.gymPersonID, name: name, email: email)
    }

    /// Forgets the gym's address: a class's messages then need a sender
    /// named with each change.
    public mutating func removeGymAddress() {
        gymAddress = nil
    }

    /// The gym's address as read back (a calendar's property, the JSON
    /// form): as ``setGymAddress(name:email:)`` checks it, except that an
    /// address is refused only for a line break or another control
    /// character, as every record's address is read
    /// (``checkEmail(_:of:)``); a message goes only to an address it can be
    /// written to.
    package mutating func restoreGymAddress(name: String, email: String) throws(SchedulingError) {
        try Self.checkName(name, "gym")
        guard !email.isEmpty else { throw .invalid(field: .email, reason: "the gym's address has no e-mail; write it as name@example.com") }
        try Self.checkEmail(email, "gym", asRead: true)
        gymAddress = SchedulingNotice.Person(id: Self.gymPersonID, name: name, email: email)
    }
}
