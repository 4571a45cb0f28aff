import CalendarCore
import Foundation

// The book's JSON form (schema 1), for an app that keeps its book without
// iCalendar. Every value is readable text: dates and wall times in ISO 8601
// (`2026-11-26`, `2026-11-26T18:00:00`), lengths as ISO 8601 durations
// (`PT1H`), times of day as `18:30`, weekdays by name, enums as a `kind`
// string — never Swift's own layout of an enum (`{"moved": {"_0": …}}`).
//
// ```json
// {
//   "schema": 1, "timeZone": "Europe/Madrid", "uidDomain": "gimnas.example",
//   "gymAddress": {"name": "Gimnàs Horari", "email": "desk@gimnas.example"},
//   "policy": {"withinWorkingHours": true, "notInPast": true, "minimumNotice": "PT2H", "refuseSkippedTimes": true},
//   "openingHours": {"weekly": {"monday": ["07:00-22:00"]}, "dates": {}},
//   "closures": [{"first": "2026-12-24", "last": "2026-12-26", "reason": "Christmas"}],
//   "coaches": [{"id": "marc", "name": "Marc Soler", "buffer": "PT15M",
//                "workingHours": {"weekly": {"monday": ["09:00-13:00"]}, "dates": {"2026-12-24": []}}}],
//   "clients": [{"id": "anna", "coachID": "marc", "name": "Anna Puig"}],
//   "sessions": [{"id": "s1", "coachID": "marc", "clientID": "anna", "start": "2026-11-26T18:00:00",
//                 "duration": "PT1H", "status": "scheduled"}],
//   "members": [{"id": "marta", "name": "Marta"}],
//   "classes": [{"id": "yoga", "title": "Yoga", "weekdays": ["monday"], "time": "18:30", "duration": "PT1H",
//                "capacity": 12, "firstDate": "2026-11-02",
//                "changes": [{"date": "2026-12-07", "kind": "cancelled"}]}],
//   "rosters": [{"classID": "yoga", "date": "2026-11-30", "booked": ["marta"], "waiting": []}],
//   "classSequences": {"yoga": 2}
// }
// ```
//
// Reading a book back runs every record through the same checks as adding
// it (an unknown coach, a duplicate ID, a red colour are refused with the
// book's own error); sessions are taken as they are, as from a file.

extension SchedulingBook: Codable {
    /// The version of the JSON form this library writes and reads.
    public static let jsonSchema = 1

    private enum CodingKeys: String, CodingKey { case schema, timeZone, uidDomain, gymAddress, policy, classPolicy, openingHours, closures, coaches, clients, sessions, members, classes, rosters, classSequences }

    /// The gym's address: its name and e-mail.
    private struct GymAddressForm: Codable {
        var name: String
        var email: String
    }

    private struct RosterForm: Codable {
        var classID: String
        var date: LocalDate
        var booked: [String]
        var waiting: [String]
        /// Written only when some member was told of the occurrence (Notices.swift).
        var sequence: Int?
        /// The sequence each member holding a place was last sent, when any was.
        var told: [String: Int]?
    }

    /// Encodes the book (schema 1); see the CalendarScheduling article "Saving a book".
    /// - Parameter encoder: the encoder.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(Self.jsonSchema, forKey: .schema)
        try c.encode(timeZone.identifier, forKey: .timeZone)
        try c.encodeIfPresent(uidDomain, forKey: .uidDomain)
        try c.encodeIfPresent(gymAddress.map { GymAddressForm(name: $0.name, email: $0.email) }, forKey: .gymAddress)
        // Written even when there is none (`null`): a form with no key records
        // none, and reads back with a new book's default.
        try c.encode(policy, forKey: .policy)
        try c.encodeIfPresent(classPolicy, forKey: .classPolicy)
        try c.encodeIfPresent(openingHours, forKey: .openingHours)
        if !closures.isEmpty { try c.encode(closures, forKey: .closures) }
        try c.encode(coaches, forKey: .coaches)
        try c.encode(people.clientsByKey.values.sorted { ($0.id, $0.coachID) < ($1.id, $1.coachID) }, forKey: .clients)
        try c.encode(coachSessions.byStart(coachSessions.sessionsByID.values).map(\.session), forKey: .sessions)
        try c.encode(members, forKey: .members)
        try c.encode(classes, forKey: .classes)
        let rosters = classTimetable.rosters
        try c.encode(rosters.keys.sorted().compactMap { key in
            rosters[key].map { RosterForm(classID: key.classID, date: key.date, booked: $0.confirmed, waiting: $0.waitlist, sequence: $0.sequence == 0 ? nil : $0.sequence,
                                   told: $0.toldOnRoster.isEmpty ? nil : $0.toldOnRoster) }
        }, forKey: .rosters)
        // The SEQUENCE of a class's dates that keep no roster (ClassTimetable.seriesSequence).
        if !classTimetable.seriesSequence.isEmpty { try c.encode(classTimetable.seriesSequence, forKey: .classSequences) }
    }

    /// Decodes a book, checking every record as it is added.
    /// - Parameter decoder: the decoder.
    /// - Throws: `DecodingError` for a schema other than 1 or text that does
    ///   not parse; ``SchedulingError`` for a record the book refuses.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let schema = try c.decode(Int.self, forKey: .schema)
        guard schema == Self.jsonSchema else {
            throw DecodingError.dataCorruptedError(forKey: .schema, in: c, debugDescription: "schema \(schema) is not one this library reads (\(Self.jsonSchema))")
        }
        let zoneName = try c.decode(String.self, forKey: .timeZone)
        let zone: ZoneRules
        do { zone = try ZoneRules.named(zoneName) } catch {
            throw DecodingError.dataCorruptedError(forKey: .timeZone, in: c, debugDescription: error.message)
        }
        self.init(timeZone: zone, policy: c.contains(.policy) ? try c.decodeIfPresent(SchedulingPolicy.self, forKey: .policy) : SchedulingPolicy())
        classPolicy = try c.decodeIfPresent(ClassBookingPolicy.self, forKey: .classPolicy)
        // A book written before books had a UID domain keeps its bare UIDs (SchedulingBook+UIDs.swift).
        uidDomain = try c.decodeIfPresent(String.self, forKey: .uidDomain)
        if let domain = uidDomain {
            do { try Self.checkUIDDomain(domain) } catch { throw DecodingError.dataCorruptedError(forKey: .uidDomain, in: c, debugDescription: error.description) }
        }
        if let gym = try c.decodeIfPresent(GymAddressForm.self, forKey: .gymAddress) {
            do { try restoreGymAddress(name: gym.name, email: gym.email) } catch {
                throw DecodingError.dataCorruptedError(forKey: .gymAddress, in: c, debugDescription: error.description)
            }
        }
        for coach in try c.decode([Coach].self, forKey: .coaches) { try addCoach(coach, asRead: true) }
        for client in try c.decode([Client].self, forKey: .clients) { try addClient(client, asRead: true) }
        for member in try c.decode([Member].self, forKey: .members) { try addMember(member, asRead: true) }
        for series in try c.decode([ClassSeries].self, forKey: .classes) { try addClass(series) }
        for session in try c.decode([Session].self, forKey: .sessions) { try restore(session) }
        for r in try c.decode([RosterForm].self, forKey: .rosters) {
            try restoreRoster(classID: r.classID, date: r.date, booked: r.booked, waiting: r.waiting, sequence: max(0, r.sequence ?? 0), told: r.told ?? [:])
        }
        for (id, n) in try c.decodeIfPresent([String: Int].self, forKey: .classSequences) ?? [:] {
            guard classTimetable.classesByID[id] != nil else { throw SchedulingError.unknownClass(id) }
            restoreSeriesSequence(n, ofClass: id)
        }
        // The gym's hours and closures apply to the next change, not to what the book holds.
        openingHours = try c.decodeIfPresent(WorkingHours.self, forKey: .openingHours)
        let closures = (try c.decodeIfPresent([GymClosure].self, forKey: .closures) ?? []).sorted()
        if let why = GymClosure.overlap(in: closures) { throw DecodingError.dataCorruptedError(forKey: .closures, in: c, debugDescription: why) }
        restoreClosures(closures)
    }
}

/// A value written as one string it reads back (`"18:30"`); text that
/// does not read is the decoder's `dataCorrupted` error, with the reason.
enum TextForm {
    static func decode<T>(_ decoder: any Decoder, _ read: (String) throws(SchedulingError) -> T) throws -> T {
        let c = try decoder.singleValueContainer()
        let text = try c.decode(String.self)
        do { return try read(text) } catch { throw DecodingError.dataCorruptedError(in: c, debugDescription: error.description) }
    }

    static func encode(_ text: String, to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(text)
    }
}

/// A place held or in a queue, as ``BookingOutcome`` and ``MemberPlace``
/// write it: `{"kind": held}` or `{"kind": "waitlisted", "position": 2}`.
enum PlaceForm {
    private enum CodingKeys: String, CodingKey { case kind, position }

    /// The position on the waitlist, or `nil` for a place held (`kind` is `held`).
    static func decode(_ decoder: any Decoder, held: String) throws -> Int? {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        switch try c.decode(String.self, forKey: .kind) {
        case held: return nil
        case "waitlisted": return try c.decode(Int.self, forKey: .position)
        case let other: throw DecodingError.dataCorruptedError(forKey: .kind, in: c, debugDescription: "‘\(other)’ is not \(held) or waitlisted")
        }
    }

    static func encode(waitlisted position: Int?, held: String, to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(position == nil ? held : "waitlisted", forKey: .kind)
        try c.encodeIfPresent(position, forKey: .position)
    }
}

extension TimeOfDay {
    /// Decodes `"18:30"`.
    /// - Parameter decoder: the decoder.
    public init(from decoder: any Decoder) throws {
        self = try TextForm.decode(decoder) { text throws(SchedulingError) in try TimeOfDay(parsing: text) }
    }

    /// Encodes `"18:30"`.
    /// - Parameter encoder: the encoder.
    public func encode(to encoder: any Encoder) throws { try TextForm.encode(description, to: encoder) }
}

extension TimeRange {
    /// Decodes `"09:00-13:00"`.
    /// - Parameter decoder: the decoder.
    public init(from decoder: any Decoder) throws {
        self = try TextForm.decode(decoder) { text throws(SchedulingError) in try TimeRange(parsing: text) }
    }

    /// Encodes `"09:00-13:00"`.
    /// - Parameter encoder: the encoder.
    public func encode(to encoder: any Encoder) throws { try TextForm.encode(description, to: encoder) }
}

extension Weekday {
    /// The lowercase English name, as the book's JSON writes a weekday.
    var jsonName: String { name.lowercased() }

    init(jsonName: String) throws(SchedulingError) {
        guard let day = Weekday.allCases.first(where: { $0.jsonName == jsonName.lowercased() }) else {
            throw .invalid(field: .weekdays, reason: "‘\(jsonName)’ is not a weekday; write monday … sunday")
        }
        self = day
    }
}

extension WorkingHours {
    private enum CodingKeys: String, CodingKey { case weekly, dates }

    /// Decodes `{"weekly": {"monday": ["09:00-13:00"]}, "dates": {"2026-12-24": []}}`.
    /// - Parameter decoder: the decoder.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init()
        for (day, ranges) in try c.decodeIfPresent([String: [TimeRange]].self, forKey: .weekly) ?? [:] {
            try set(ranges, on: [Weekday(jsonName: day)])
        }
        for (text, ranges) in try c.decodeIfPresent([String: [TimeRange]].self, forKey: .dates) ?? [:] {
            do { try set(ranges, onDate: try ISOText.date(text)) } catch {
                throw DecodingError.dataCorruptedError(forKey: .dates, in: c, debugDescription: "‘\(text)’: \(error)")
            }
        }
    }

    /// Encodes the weekly hours by weekday name and the dates that differ.
    /// - Parameter encoder: the encoder.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(Dictionary(uniqueKeysWithValues: weekly.map { ($0.key.jsonName, $0.value) }), forKey: .weekly)
        try c.encode(Dictionary(uniqueKeysWithValues: exceptions.map { ($0.key.description, $0.value) }), forKey: .dates)
    }
}

extension Coach {
    private enum CodingKeys: String, CodingKey { case id, name, email, workingHours, buffer, color }

    /// Decodes a coach; the buffer is ISO 8601 text (`PT15M`), and may be missing (none).
    /// - Parameter decoder: the decoder.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            id: try c.decode(String.self, forKey: .id), name: try c.decode(String.self, forKey: .name), email: try c.decodeIfPresent(String.self, forKey: .email),
            workingHours: try c.decodeIfPresent(WorkingHours.self, forKey: .workingHours) ?? WorkingHours(),
            buffer: c.contains(.buffer) ? try c.decodeDuration(.buffer) : .zero, color: try c.decodeIfPresent(ItemColor.self, forKey: .color))
    }

    /// Encodes a coach.
    /// - Parameter encoder: the encoder.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(name, forKey: .name)
        try c.encodeIfPresent(email, forKey: .email)
        try c.encode(workingHours, forKey: .workingHours)
        try c.encode(ISOText.duration(buffer), forKey: .buffer)
        try c.encodeIfPresent(color, forKey: .color)
    }
}

extension Session {
    private enum CodingKeys: String, CodingKey { case id, coachID, clientID, start, isLaterOfRepeatedTime, duration, location, notes, status, color, workoutType, completedAt, sequence, answer, answeredAt, series }

    /// Decodes a session; `isLaterOfRepeatedTime` may be missing (then `false`), as may the optional fields.
    /// - Parameter decoder: the decoder.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        func instant(_ key: CodingKeys) throws -> Date? {
            guard let text = try c.decodeIfPresent(String.self, forKey: key) else { return nil }
            do { return try CalendarTime(isoText: text).instant(floatingZone: .utc) } catch {
                throw DecodingError.dataCorruptedError(forKey: key, in: c, debugDescription: "‘\(text)’ is not a UTC time such as 2026-11-24T10:15:00Z: \(error.message)")
            }
        }
        let completedAt = try instant(.completedAt)
        self.init(
            id: try c.decode(String.self, forKey: .id), coachID: try c.decode(String.self, forKey: .coachID),
            clientID: try c.decode(String.self, forKey: .clientID), start: try c.decode(LocalDateTime.self, forKey: .start),
            duration: try c.decodeDuration(.duration), location: try c.decodeIfPresent(String.self, forKey: .location),
            notes: try c.decodeIfPresent(String.self, forKey: .notes), status: try c.decode(SessionStatus.self, forKey: .status),
            isLaterOfRepeatedTime: try c.decodeIfPresent(Bool.self, forKey: .isLaterOfRepeatedTime) ?? false,
            color: try c.decodeIfPresent(ItemColor.self, forKey: .color), workoutType: try c.decodeIfPresent(String.self, forKey: .workoutType),
            completedAt: completedAt, sequence: max(0, try c.decodeIfPresent(Int.self, forKey: .sequence) ?? 0))
        answer = try c.decodeIfPresent(AttendeeAnswer.self, forKey: .answer)
        answeredAt = try instant(.answeredAt)
        series = try c.decodeIfPresent(String.self, forKey: .series)
    }

    /// Encodes a session (`isLaterOfRepeatedTime` only when true).
    /// - Parameter encoder: the encoder.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(coachID, forKey: .coachID)
        try c.encode(clientID, forKey: .clientID)
        try c.encode(start, forKey: .start)
        if isLaterOfRepeatedTime { try c.encode(true, forKey: .isLaterOfRepeatedTime) }
        try c.encode(ISOText.duration(duration), forKey: .duration)
        try c.encodeIfPresent(location, forKey: .location)
        try c.encodeIfPresent(notes, forKey: .notes)
        try c.encode(status, forKey: .status)
        if sequence > 0 { try c.encode(sequence, forKey: .sequence) }
        try c.encodeIfPresent(answer, forKey: .answer)
        try c.encodeIfPresent(color, forKey: .color)
        try c.encodeIfPresent(workoutType, forKey: .workoutType)
        // An instant, in UTC: `2026-11-24T10:15:00Z`.
        func text(_ time: Date?) -> String? { time.map { CalendarTime.utc(LocalDateTime(localSeconds: Int64($0.timeIntervalSince1970.rounded(.down)))).isoText } }
        try c.encodeIfPresent(text(completedAt), forKey: .completedAt)
        try c.encodeIfPresent(text(answeredAt), forKey: .answeredAt)
        try c.encodeIfPresent(series, forKey: .series)
    }
}

extension ClassSeries {
    private enum CodingKeys: String, CodingKey { case id, title, weekdays, time, duration, capacity, location, instructor, color, firstDate, lastDate, changes, partOf, description, url, image }
    private enum ChangeKeys: String, CodingKey { case date, kind, start, duration }

    /// Decodes a series; `changes` is a list of `{"date", "kind": "cancelled"}`
    /// and `{"date", "kind": "moved", "start", "duration"}`.
    /// - Parameter decoder: the decoder.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        var changes: [LocalDate: OccurrenceChange] = [:]
        if c.contains(.changes) {
            var list = try c.nestedUnkeyedContainer(forKey: .changes)
            while !list.isAtEnd {
                let change = try list.nestedContainer(keyedBy: ChangeKeys.self)
                let date = try change.decode(LocalDate.self, forKey: .date)
                switch try change.decode(String.self, forKey: .kind) {
                case "cancelled": changes[date] = .cancelled
                case "moved": changes[date] = .moved(to: try change.decode(LocalDateTime.self, forKey: .start), duration: try change.decodeDuration(.duration))
                case let other: throw DecodingError.dataCorruptedError(forKey: .kind, in: change, debugDescription: "‘\(other)’ is not cancelled or moved")
                }
            }
        }
        var days: [Weekday] = []
        for name in try c.decode([String].self, forKey: .weekdays) {
            do { days.append(try Weekday(jsonName: name)) } catch {
                throw DecodingError.dataCorruptedError(forKey: .weekdays, in: c, debugDescription: error.description)
            }
        }
        self.init(
            id: try c.decode(String.self, forKey: .id), title: try c.decode(String.self, forKey: .title), weekdays: days,
            time: try c.decode(TimeOfDay.self, forKey: .time), duration: try c.decodeDuration(.duration), capacity: try c.decode(Int.self, forKey: .capacity),
            location: try c.decodeIfPresent(String.self, forKey: .location), instructor: try c.decodeIfPresent(String.self, forKey: .instructor),
            color: try c.decodeIfPresent(ItemColor.self, forKey: .color), firstDate: try c.decode(LocalDate.self, forKey: .firstDate),
            lastDate: try c.decodeIfPresent(LocalDate.self, forKey: .lastDate), changes: changes,
            partOf: try c.decodeIfPresent(String.self, forKey: .partOf), description: try c.decodeIfPresent(String.self, forKey: .description),
            url: try c.decodeIfPresent(String.self, forKey: .url), image: try c.decodeIfPresent(String.self, forKey: .image))
    }

    /// Encodes a series, its changes by date.
    /// - Parameter encoder: the encoder.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(title, forKey: .title)
        try c.encode(weekdays.map(\.jsonName), forKey: .weekdays)
        try c.encode(time, forKey: .time)
        try c.encode(ISOText.duration(duration), forKey: .duration)
        try c.encode(capacity, forKey: .capacity)
        try c.encodeIfPresent(location, forKey: .location)
        try c.encodeIfPresent(instructor, forKey: .instructor)
        try c.encodeIfPresent(color, forKey: .color)
        try c.encode(firstDate, forKey: .firstDate)
        try c.encodeIfPresent(lastDate, forKey: .lastDate)
        try c.encodeIfPresent(partOf, forKey: .partOf)
        try c.encodeIfPresent(description, forKey: .description)
        try c.encodeIfPresent(url, forKey: .url)
        try c.encodeIfPresent(image, forKey: .image)
        var list = c.nestedUnkeyedContainer(forKey: .changes)
        for date in changes.keys.sorted() {
            var change = list.nestedContainer(keyedBy: ChangeKeys.self)
            try change.encode(date, forKey: .date)
            switch changes[date] {
            case .moved(let to, let d)?:
                try change.encode("moved", forKey: .kind)
                try change.encode(to, forKey: .start)
                try change.encode(ISOText.duration(d), forKey: .duration)
            default:
                try change.encode("cancelled", forKey: .kind)
            }
        }
    }
}

extension ClassOccurrence {
    private enum CodingKeys: String, CodingKey { case classID, date, title, start, duration, startSeconds, cancelled, moved, capacity, booked, placesLeft, waiting }

    /// Decodes an occurrence as ``encode(to:)`` writes it.
    /// - Parameter decoder: the decoder.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            id: ID(classID: try c.decode(String.self, forKey: .classID), date: try c.decode(LocalDate.self, forKey: .date)),
            title: try c.decode(String.self, forKey: .title), start: try c.decode(LocalDateTime.self, forKey: .start),
            duration: try c.decodeDuration(.duration), startSeconds: try c.decode(Int64.self, forKey: .startSeconds),
            isCancelled: try c.decode(Bool.self, forKey: .cancelled), isMoved: try c.decode(Bool.self, forKey: .moved),
            capacity: try c.decode(Int.self, forKey: .capacity), booked: try c.decode(Int.self, forKey: .booked), waiting: try c.decode(Int.self, forKey: .waiting))
    }

    /// Encodes the occurrence flat, with its places left.
    /// - Parameter encoder: the encoder.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id.classID, forKey: .classID)
        try c.encode(id.date, forKey: .date)
        try c.encode(title, forKey: .title)
        try c.encode(start, forKey: .start)
        try c.encode(ISOText.duration(duration), forKey: .duration)
        try c.encode(startSeconds, forKey: .startSeconds)
        try c.encode(isCancelled, forKey: .cancelled)
        try c.encode(isMoved, forKey: .moved)
        try c.encode(capacity, forKey: .capacity)
        try c.encode(booked, forKey: .booked)
        try c.encode(placesLeft, forKey: .placesLeft)
        try c.encode(waiting, forKey: .waiting)
    }
}

extension BookingOutcome {
    /// Decodes `{"kind": "confirmed"}` or `{"kind": "waitlisted", "position": 2}`.
    /// - Parameter decoder: the decoder.
    public init(from decoder: any Decoder) throws {
        self = try PlaceForm.decode(decoder, held: "confirmed").map { .waitlisted(position: $0) } ?? .confirmed
    }

    /// Encodes the outcome with a `kind`.
    /// - Parameter encoder: the encoder.
    public func encode(to encoder: any Encoder) throws {
        let position: Int? = if case .waitlisted(let p) = self { p } else { nil }
        try PlaceForm.encode(waitlisted: position, held: "confirmed", to: encoder)
    }
}

extension WhenFull {
    /// Decodes `"refuse"` or `"joinWaitlist"`.
    /// - Parameter decoder: the decoder.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        switch try c.decode(String.self) {
        case "refuse": self = .refuse
        case "joinWaitlist": self = .joinWaitlist
        case let other: throw DecodingError.dataCorruptedError(in: c, debugDescription: "‘\(other)’ is not refuse or joinWaitlist")
        }
    }

    /// Encodes `"refuse"` or `"joinWaitlist"`.
    /// - Parameter encoder: the encoder.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(self == .refuse ? "refuse" : "joinWaitlist")
    }
}

extension TimetableDay {
    private enum CodingKeys: String, CodingKey { case weekday, classes }

    /// Decodes a day of the weekly timetable.
    /// - Parameter decoder: the decoder.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let name = try c.decode(String.self, forKey: .weekday)
        do { weekday = try Weekday(jsonName: name) } catch {
            throw DecodingError.dataCorruptedError(forKey: .weekday, in: c, debugDescription: error.description)
        }
        classes = try c.decode([ClassSeries].self, forKey: .classes)
    }

    /// Encodes the weekday by name and its classes.
    /// - Parameter encoder: the encoder.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(weekday.jsonName, forKey: .weekday)
        try c.encode(classes, forKey: .classes)
    }
}
