import CalendarCore
import Foundation

// Free/busy time in iCalendar (RFC 5545 §3.6.4 VFREEBUSY, §3.8.2.6 FREEBUSY,
// §3.2.9 FBTYPE), out and in.
//
// Out: a VFREEBUSY with DTSTART/DTEND of the window and one FREEBUSY line per
// period, in UTC, sorted (§3.8.2.6: "SHOULD be ... sorted in ascending order").
//
// In (`busyTime(from:to:floatingZone:)`): what a CalDAV server's
// free-busy-query REPORT answers for a collection (RFC 4791 §7.10), read on
// this side: every VEVENT occurrence in the window, expanded with its own
// rules and zones, BUSY (BUSY-TENTATIVE when TENTATIVE); TRANSP:TRANSPARENT
// ones hold no time, nor do CANCELLED ones; every VFREEBUSY's periods as they
// say. Radicale writes a cancelled event as an FBTYPE=FREE period; a FREE
// period says no time is taken, so the busy time agrees
// (Conformance/freebusy_check.py compares the two on Radicale).
//
// A VFREEBUSY whose period ends before it starts, or whose periods of one
// kind overlap (each instant is said once in what a server or a client
// writes; two BUSY periods over one instant are a broken file, and which one
// ends it is a guess), is refused with the period named.

extension ICalendar {
    /// A calendar of one `VFREEBUSY` saying `periods` over a window.
    /// - Parameters:
    ///   - periods: the periods (merged per kind as they are written).
    ///   - from: the window's start (`DTSTART`).
    ///   - to: its end (`DTEND`).
    ///   - uid: the component's `UID`.
    ///   - organizer: whose time it is (`ORGANIZER`), name and address.
    ///   - method: the iTIP method (`PUBLISH` for a coach's published time, which
    ///     needs an `organizer`, RFC 5546 §3.3.1; `nil` for none).
    public static func freeBusy(_ periods: [FreeBusyPeriod], from: Date, to: Date, uid: String,
                                organizer: (name: String?, email: String)? = nil, method: String? = "PUBLISH") -> ICalendar {
        var lines = [ContentLine(name: "UID", value: uid)]
        if let organizer {
            lines.append(ContentLine(name: "ORGANIZER", parameters: organizer.name.map { [.init(name: "CN", values: [$0])] } ?? [], value: "mailto:" + organizer.email))
        }
        lines += [ContentLine(name: "DTSTART", value: utcText(Int64(from.timeIntervalSince1970.rounded(.down)))),
                  ContentLine(name: "DTEND", value: utcText(Int64(to.timeIntervalSince1970.rounded(.up))))]
        for p in FreeBusyPeriod.merged(periods) {
            lines.append(ContentLine(name: "FREEBUSY", parameters: [.init(name: "FBTYPE", values: [p.kind.rawValue])], value: "\(utcText(p.start))/\(utcText(p.end))"))
        }
        var calendar = ICalendar(items: [])
        calendar.method = method
        calendar.components = [ContentComponent(name: "VFREEBUSY", properties: ContentLines(lines))]
        return calendar
    }

    /// The periods of the calendar's `VFREEBUSY` components, as written.
    /// - Throws: ``FreeBusyError`` for a period that is not one, ends before
    ///   it starts, or overlaps another of its kind.
    public func freeBusyPeriods() throws(FreeBusyError) -> [FreeBusyPeriod] {
        var periods: [FreeBusyPeriod] = []
        for component in components where component.name == "VFREEBUSY" {
            var own: [FreeBusyPeriod] = []
            for line in component.properties where line.name == "FREEBUSY" {
                let fbtype = line.parameter("FBTYPE")?.uppercased() ?? "BUSY"
                // An FBTYPE this library does not know is busy time of some kind (§3.2.9: "x-name / iana-token ... treated as BUSY").
                let kind = FreeBusyPeriod.Kind(rawValue: fbtype) ?? .busy
                for text in line.value.split(separator: ",") {
                    own.append(try Self.period(text, kind: kind))
                }
            }
            // Within one VFREEBUSY (two of them, a work and a home calendar, may well both be busy at 10:00).
            for kind in FreeBusyPeriod.Kind.allCases {
                let sorted = own.filter { $0.kind == kind }.sorted()
                for (a, b) in zip(sorted, sorted.dropFirst()) where b.start < a.end {
                    throw FreeBusyError(text: Self.utcText(b.start), "the \(kind.rawValue) periods \(a) and \(b) overlap; a VFREEBUSY says each instant once")
                }
            }
            periods += own
        }
        return periods.sorted()
    }

    /// `20261126T170000Z`.
    private static func utcText(_ t: Int64) -> String { CalendarTime.utc(LocalDateTime(localSeconds: t)).icalValue }

    private static func period(_ text: Substring, kind: FreeBusyPeriod.Kind) throws(FreeBusyError) -> FreeBusyPeriod {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        let bad = FreeBusyError(text: String(text), "‘\(text)’ is not a period; write it as 20261126T170000Z/20261126T180000Z or 20261126T170000Z/PT1H")
        guard parts.count == 2, let start = try? CalendarTime(icalValue: parts[0]), case .utc(let s) = start else { throw bad }
        let end: Int64
        if parts[1].hasPrefix("P") || parts[1].hasPrefix("+P") {
            guard let d = try? ISOText.duration(parts[1]) else { throw bad }
            let (sum, overflow) = s.localSeconds.addingReportingOverflow(d.components.seconds)
            guard !overflow else { throw bad }
            end = sum
        } else {
            guard let t = try? CalendarTime(icalValue: parts[1]), case .utc(let e) = t else { throw bad }
            end = e.localSeconds
        }
        guard end > s.localSeconds else {
            throw FreeBusyError(text: String(text), "the period ‘\(text)’ ends before it starts (or where it starts); write the earlier time first")
        }
        return FreeBusyPeriod(start: s.localSeconds, end: end, kind: kind)
    }

    /// The time this calendar holds over a window, as a CalDAV server's
    /// `free-busy-query` REPORT answers it (RFC 4791 §7.10): each event
    /// occurrence that overlaps it `BUSY` (`BUSY-TENTATIVE` when tentative;
    /// transparent and cancelled ones hold none), and the periods of its
    /// `VFREEBUSY` components, clipped to the window and merged per kind.
    ///
    /// The occurrences are read as they are expanded and merged as they
    /// come, so memory holds the answer, not the window's occurrences; and
    /// at most `limit` occurrences (of every item, tasks and transparent
    /// events too: the limit bounds the work) are read, as a server caps the query
    /// (Radicale's `max_freebusy_occurrence`, 10,000 by default): a
    /// minutely event over a century is 52 million, which took 7.5 GB in
    /// 30 s before it was capped.
    /// - Parameters:
    ///   - from: the window's start.
    ///   - to: its end.
    ///   - floatingZone: the clocks floating and all-day times are read on (the person's own).
    ///   - limit: the most occurrences read (default ``busyTimeLimit``).
    /// - Throws: ``FreeBusyError`` for a `VFREEBUSY` that cannot be read, or
    ///   a window that holds more than `limit` occurrences (its
    ///   ``FreeBusyError/text`` is empty then: no period is at fault).
    public func busyTime(from: Date, to: Date, floatingZone: ZoneRules, limit: Int = busyTimeLimit) throws(FreeBusyError) -> [FreeBusyPeriod] {
        let lo = Int64(from.timeIntervalSince1970.rounded(.down)), hi = Int64(to.timeIntervalSince1970.rounded(.up))
        // A VFREEBUSY that cannot be read is named before anything is expanded.
        let published = try freeBusyPeriods()
        // The occurrences come in start order, and clipping keeps it: each
        // kind's stretch so far is joined by the next that touches it. One
        // that starts before the stretch (an order the stream does not
        // promise: a floating time on an old local mean time past ±14 h) is
        // kept apart, and merged with the rest at the end.
        var current: [FreeBusyPeriod.Kind: FreeBusyPeriod] = [:]
        var periods: [FreeBusyPeriod] = []
        var read = 0
        for o in schedule(applyingCalendarTimeZone: true).occurrenceSequence(from: from, to: to, floatingZone: floatingZone) {
            // Every occurrence read counts, a task's too: the limit bounds the work.
            read += 1
            guard read <= limit else {
                throw FreeBusyError(text: "", "the window holds more than \(ICalendarDiagnostic.grouped(limit)) occurrences, the most read for free/busy time; ask for a shorter window")
            }
            guard o.item.kind == .event else { continue }
            if o.item.properties.first(where: { $0.name == "TRANSP" })?.value.uppercased() == "TRANSPARENT" { continue }
            if o.item.status == .cancelled { continue }
            let kind: FreeBusyPeriod.Kind = o.item.status == .tentative ? .busyTentative : .busy
            // An event with no length takes no time (RFC 4791 §9.9 counts it at its instant; RFC 5545 §3.6.1: it "takes up no time").
            guard o.endSeconds > o.startSeconds else { continue }
            let p = FreeBusyPeriod(start: max(o.startSeconds, lo), end: min(o.endSeconds, hi), kind: kind)
            if let c = current[kind], p.start < c.start {
                periods.append(p)
            } else if let c = current[kind], p.start <= c.end {
                current[kind]?.end = max(c.end, p.end)
            } else {
                if let c = current[kind] { periods.append(c) }
                current[kind] = p
            }
        }
        periods += current.values
        for p in published where p.end > lo && p.start < hi {
            periods.append(FreeBusyPeriod(start: max(p.start, lo), end: min(p.end, hi), kind: p.kind))
        }
        return FreeBusyPeriod.merged(periods)
    }

    /// The most occurrences ``busyTime(from:to:floatingZone:limit:)``
    /// reads by default: a million, a year of a weekly event for each of
    /// 19,000 people, in about 30 MB.
    public static let busyTimeLimit = 1_000_000
}

/// A `VFREEBUSY` that cannot be read, and why.
public struct FreeBusyError: HorariError, Hashable, Sendable {
    /// The text of the period at fault, to find it in the file.
    public var text: String
    /// What is wrong, for a person.
    public var message: String
    /// Creates an error.
    public init(text: String, _ message: String) {
        self.text = text
        self.message = message
    }
    /// The message.
    public var description: String { message }
    /// 1: the one kind (Docs/Errors.md).
    public var errorCode: Int { 1 }
}
