import Foundation

/// A stretch of time someone is busy (or free), as a `VFREEBUSY`'s
/// `FREEBUSY` property says it (RFC 5545 §3.8.2.6): UTC instants, end
/// exclusive, and what kind of busy.
public struct FreeBusyPeriod: Hashable, Sendable, Codable, Comparable, CustomStringConvertible {
    /// What the time is (`FBTYPE`, RFC 5545 §3.2.9).
    public enum Kind: String, CaseIterable, Hashable, Sendable, Codable {
        /// Free.
        case free = "FREE"
        /// Busy: an appointment.
        case busy = "BUSY"
        /// Not available to be booked (outside working hours).
        case busyUnavailable = "BUSY-UNAVAILABLE"
        /// Busy, tentatively.
        case busyTentative = "BUSY-TENTATIVE"
    }

    /// When it starts, in Unix seconds.
    public var start: Int64
    /// When it ends (exclusive), in Unix seconds; after ``start``.
    public var end: Int64
    /// What kind of time it is.
    public var kind: Kind

    /// Creates a period.
    public init(start: Int64, end: Int64, kind: Kind = .busy) {
        self.start = start
        self.end = end
        self.kind = kind
    }

    /// Earlier first, then shorter, then by kind.
    public static func < (a: FreeBusyPeriod, b: FreeBusyPeriod) -> Bool {
        (a.start, a.end, a.kind.rawValue) < (b.start, b.end, b.kind.rawValue)
    }

    /// `BUSY 2026-11-26T17:00:00Z/2026-11-26T18:00:00Z`.
    public var description: String {
        "\(kind.rawValue) \(Self.utcText(start))/\(Self.utcText(end))"
    }

    static func utcText(_ t: Int64) -> String {
        CalendarTime.utc(LocalDateTime(localSeconds: t)).isoText
    }

    /// The periods with those of one kind that touch or overlap joined, and
    /// those that end where they start left out, earliest first: the form a
    /// `VFREEBUSY` is written in, one period per stretch of each kind.
    /// - Parameter periods: periods in any order.
    public static func merged(_ periods: some Sequence<FreeBusyPeriod>) -> [FreeBusyPeriod] {
        var out: [FreeBusyPeriod] = []
        for kind in Kind.allCases {
            var current: FreeBusyPeriod?
            for p in periods.filter({ $0.kind == kind && $0.end > $0.start }).sorted() {
                if let c = current, p.start <= c.end {
                    current?.end = max(c.end, p.end)
                } else {
                    if let c = current { out.append(c) }
                    current = p
                }
            }
            if let c = current { out.append(c) }
        }
        return out.sorted()
    }

    /// `periods` with the stretches `taken` covers cut out.
    /// - Parameters:
    ///   - periods: the periods to cut.
    ///   - taken: what is cut out of them (any kind).
    public static func subtracting(_ taken: [FreeBusyPeriod], from periods: [FreeBusyPeriod]) -> [FreeBusyPeriod] {
        let cuts = merged(taken.map { FreeBusyPeriod(start: $0.start, end: $0.end, kind: .busy) })
        var out: [FreeBusyPeriod] = []
        for p in periods {
            var start = p.start
            for c in cuts where c.end > start && c.start < p.end {
                if c.start > start { out.append(FreeBusyPeriod(start: start, end: c.start, kind: p.kind)) }
                start = max(start, c.end)
            }
            if start < p.end { out.append(FreeBusyPeriod(start: start, end: p.end, kind: p.kind)) }
        }
        return out
    }
}
