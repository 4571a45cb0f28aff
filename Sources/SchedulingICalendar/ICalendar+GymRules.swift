import CalendarCore
import CalendarScheduling
import ICalendarKit

/// The gym's opening hours and closures (issue 31, 3), and its book's UID
/// domain (`X-HORARI-UID-DOMAIN`, SchedulingBook+UIDs.swift), kept in the
/// calendar that holds its book, as its booking rules are
/// (`ICalendar+ClassPolicy.swift`), so every program booking into it keeps
/// them: `schedulingBook(defaultTimeZone:)` reads them into the book and
/// `setScheduling(_:)` writes the book's back.
///
/// - `X-HORARI-OPENING-HOURS;X-HORARI-DAY=MO,TU:07:00-14:00 16:00-22:00`,
///   one line per weekday, and `X-HORARI-OPENING-DATE-HOURS:20261231
///   07:00-14:00` for a date that differs: the coaches' hours' form.
/// - `X-HORARI-CLOSURE;X-HORARI-FROM=20261224;X-HORARI-THROUGH=20261226:Christmas`,
///   one per closure, its reason as TEXT.
///
/// - `X-HORARI-SESSION-POLICY;X-HORARI-NOTICE=PT2H:WITHIN-HOURS,NOT-IN-PAST,REFUSE-SKIPPED-TIMES`,
///   the rules new and moved sessions keep (`SchedulingBook.policy`): the
///   rules that are on, and the notice when there is one; `NONE` for no
///   policy. A calendar that records none keeps a new book's default.
///
/// - `X-HORARI-GYM-ADDRESS;CN=Gimnàs Sants:mailto:desk@gym.example`, the
///   gym's own address (`SchedulingBook.gymAddress`), shaped as an
///   ORGANIZER is but on the calendar: an ORGANIZER on the classes would
///   tell a scheduling server (RFC 6638) to send the messages itself.
///
/// A closure is also written where every calendar sees it: each class's
/// closed dates are `EXDATE`s of its series, so a member's calendar, a
/// public timetable or another client shows no class there. Reading back,
/// the `EXDATE`s a closure stands for are the closure's, and opening the
/// dates again gives the classes back.
extension ICalendar {
    /// The calendar properties of the gym's opening hours and closures.
    package static let openingHoursProperty = "X-HORARI-OPENING-HOURS"
    package static let openingDateHoursProperty = "X-HORARI-OPENING-DATE-HOURS"
    package static let closureProperty = "X-HORARI-CLOSURE"
    static let fromParameter = "X-HORARI-FROM", throughParameter = "X-HORARI-THROUGH"
    /// The calendar property of the rules sessions keep (`SchedulingBook.policy`), and its notice parameter.
    package static let sessionPolicyProperty = "X-HORARI-SESSION-POLICY"
    static let noticeParameter = "X-HORARI-NOTICE"
    /// The rules' names in `X-HORARI-SESSION-POLICY`, in the order they are written.
    static let sessionRules: [(name: String, rule: WritableKeyPath<SchedulingPolicy, Bool> & Sendable)] = [
        ("WITHIN-HOURS", \.withinWorkingHours), ("NOT-IN-PAST", \.notInPast), ("REFUSE-SKIPPED-TIMES", \.refuseSkippedTimes),
    ]
    /// The calendar property of the book's UID domain (`SchedulingBook.uidDomain`).
    package static let uidDomainProperty = "X-HORARI-UID-DOMAIN"

    /// The calendar property of the gym's own address (`SchedulingBook.gymAddress`).
    package static let gymAddressProperty = "X-HORARI-GYM-ADDRESS"

    /// The gym's address this calendar records (`X-HORARI-GYM-ADDRESS`):
    /// its `CN` (else the address) and its `mailto:` address; `nil` for none.
    ///
    /// Read as every record's address is read, as it is: a value written
    /// by hand without `mailto:` is the address; one a message cannot go to
    /// is kept, and refused only when a message is to be sent from it (so
    /// `horari gym address` can still set it again); an empty one is none.
    func gymAddress() -> (name: String, email: String)? {
        guard let line = properties.first(where: { $0.name == Self.gymAddressProperty }) else { return nil }
        var email = line.value.trimmingCharacters(in: .whitespaces)
        if email.lowercased().hasPrefix("mailto:") { email = String(email.dropFirst("mailto:".count)) }
        guard !email.isEmpty else { return nil }
        let name = line.parameter("CN")?.trimmingCharacters(in: .whitespaces) ?? ""
        return (name.isEmpty ? email : name, email)
    }

    /// The domain of the UIDs the book this calendar holds sends out
    /// (`X-HORARI-UID-DOMAIN`, `SchedulingBook.uidDomain`); `nil` for none.
    public var bookUIDDomain: String? {
        properties.first { $0.name == Self.uidDomainProperty }?.value.trimmingCharacters(in: .whitespaces)
    }

    /// The gym's opening hours this calendar records; `nil` for none.
    /// - Throws: `SchedulingError.invalid(field:reason:)` naming the property that cannot be read.
    public func openingHours() throws(SchedulingError) -> WorkingHours? {
        let lines = properties.filter { $0.name == Self.openingHoursProperty || $0.name == Self.openingDateHoursProperty }
        guard !lines.isEmpty else { return nil }
        return try SchedulingBook.hours(in: lines, weekly: Self.openingHoursProperty, dates: Self.openingDateHoursProperty, of: "the gym's opening hours")
    }

    /// The gym's closures this calendar records, earliest first.
    /// - Throws: `SchedulingError.invalid(field:reason:)` naming a closure
    ///   that cannot be read, or two that overlap.
    public func gymClosures() throws(SchedulingError) -> [GymClosure] {
        var closures: [GymClosure] = []
        for line in properties where line.name == Self.closureProperty {
            func date(_ name: String) throws(SchedulingError) -> LocalDate {
                guard let text = line.parameter(name), let d = try? CalendarTime(icalValue: text).localDate else {
                    throw .invalid(field: .property(Self.closureProperty), reason: "‘\(line.value.prefix(40))’ has no \(name)=YYYYMMDD; close the dates again with `horari classes close`")
                }
                return d
            }
            do {
                closures.append(try GymClosure(first: date(Self.fromParameter), last: date(Self.throughParameter), reason: TextEscaping.unescape(line.value[...])))
            } catch .invalid(.closure, let reason), .invalid(.reason, let reason) {
                // Named by the property, with its value, so that a person finds the line.
                throw .invalid(field: .property(Self.closureProperty), reason: "‘\(line.value.prefix(40))’: \(reason)")
            }
        }
        closures.sort()
        if let why = GymClosure.overlap(in: closures) { throw .invalid(field: .property(Self.closureProperty), reason: why) }
        return closures
    }

    /// The rules sessions keep that this calendar records: `.some(nil)` for
    /// `NONE`, `nil` when it records none (the book keeps its default).
    /// - Throws: `SchedulingError.invalid(field:reason:)` naming the property
    ///   when a rule or the notice cannot be read.
    public func sessionPolicy() throws(SchedulingError) -> SchedulingPolicy?? {
        guard let line = properties.first(where: { $0.name == Self.sessionPolicyProperty }) else { return nil }
        func refuse(_ why: String) -> SchedulingError {
            .invalid(field: .property(Self.sessionPolicyProperty), reason: "\(why); mend the line, or remove it for the default rules (a new book's)")
        }
        // A program that takes an X- value for TEXT may have escaped its commas (`\,`).
        let names = TextEscaping.unescape(line.value[...]).split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).uppercased() }.filter { !$0.isEmpty }
        if names == ["NONE"] { return .some(nil) }
        var policy = SchedulingPolicy.nothingRefused
        for name in names {
            guard let rule = Self.sessionRules.first(where: { $0.name == name }) else {
                throw refuse("‘\(name.prefix(40))’ is not a rule (\(Self.sessionRules.map(\.name).joined(separator: ", ")), or NONE)")
            }
            policy[keyPath: rule.rule] = true
        }
        if let text = line.parameter(Self.noticeParameter) {
            do throws(TimeValueError) { policy.minimumNotice = try ISOText.duration(text) } catch {
                throw refuse("the notice ‘\(text.prefix(40))’ is not a duration such as PT2H")
            }
            do { try policy.validate() } catch { throw refuse("the notice ‘\(text.prefix(40))’ is not from none to a year") }
        }
        return .some(policy)
    }

    /// The `X-HORARI-SESSION-POLICY` line of a policy (`NONE` for none).
    static func sessionPolicyLine(_ policy: SchedulingPolicy?) -> ContentLine {
        guard let policy else { return ContentLine(name: sessionPolicyProperty, value: "NONE") }
        return ContentLine(
            name: sessionPolicyProperty,
            parameters: policy.minimumNotice > .zero ? [.init(name: noticeParameter, values: [ISOText.duration(policy.minimumNotice)])] : [],
            // Commas escaped, as in any TEXT value (RFC 5545, 3.3.11): Radicale keeps an X- value only to its first bare comma.
            value: sessionRules.filter { policy[keyPath: $0.rule] }.map(\.name).joined(separator: "\\,"))
    }

    /// Reads the gym's hours, closures, UID domain, session policy and address into a book read from
    /// this calendar. A calendar that holds a book but names no domain holds
    /// one written before books had one: it keeps its bare UIDs. One that
    /// holds no book yet keeps the new book's fresh domain.
    func readGymRules(into book: inout SchedulingBook) throws(SchedulingError) {
        if let policy = try sessionPolicy() { book.policy = policy }
        // Control characters made spaces, as in every record's name: read, not lost.
        if let (name, email) = gymAddress() {
            do { try book.restoreGymAddress(name: SchedulingBook.oneLine(name), email: SchedulingBook.oneLine(email)) } catch .invalid(_, let reason) {
                throw .invalid(field: .property(Self.gymAddressProperty), reason: reason)
            }
        }
        book.openingHours = try openingHours()
        book.restoreClosures(try gymClosures())
        if let domain = bookUIDDomain {
            do { try book.setUIDDomain(domain) } catch .invalid(_, let reason) {
                throw .invalid(field: .property(Self.uidDomainProperty), reason: reason)
            }
        } else if !book.holdsNoRecords {
            try book.setUIDDomain(nil)
        }
    }

    /// Records a book's opening hours, closures, UID domain, session
    /// policy and address in place of those recorded before.
    mutating func writeGymRules(of book: SchedulingBook) {
        let names = [Self.openingHoursProperty, Self.openingDateHoursProperty, Self.closureProperty, Self.uidDomainProperty, Self.sessionPolicyProperty,
                     Self.gymAddressProperty]
        properties.removeAll { names.contains($0.name) }
        // A calendar that is no book yet, with the default rules, is not marked as one.
        if !(book.holdsNoRecords && book.policy == SchedulingPolicy()) { properties.append(Self.sessionPolicyLine(book.policy)) }
        // A calendar that is no book yet is not marked as one.
        if let domain = book.uidDomain, !book.holdsNoRecords { properties.append(ContentLine(name: Self.uidDomainProperty, value: domain)) }
        if let gym = book.gymAddress {
            properties.append(ContentLine(name: Self.gymAddressProperty, parameters: [.init(name: "CN", values: [gym.name])], value: "mailto:" + gym.email))
        }
        if let hours = book.openingHours {
            properties += SchedulingBook.lines(of: hours, weekly: Self.openingHoursProperty, dates: Self.openingDateHoursProperty)
        }
        for c in book.closures {
            properties.append(ContentLine(
                name: Self.closureProperty,
                parameters: [.init(name: Self.fromParameter, values: [c.first.basicISO]), .init(name: Self.throughParameter, values: [c.last.basicISO])],
                value: TextEscaping.escaped(c.reason)))
        }
    }
}
