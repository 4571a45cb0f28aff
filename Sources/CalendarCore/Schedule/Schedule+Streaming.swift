import Foundation

extension Schedule {
    /// Every occurrence overlapping `[from, to)`, in the order of
    /// ``occurrences(from:to:floatingZone:)``, computed as it is iterated.
    ///
    /// The sequence holds one pending instance per series and the few single
    /// items near the current position, never the window's occurrences: its
    /// memory grows with the number of items, not with the window's length.
    /// A year of a `FREQ=SECONDLY` event is 31 million occurrences; the first
    /// thousand of them cost what a thousand cost.
    ///
    /// ```swift
    /// var upcoming = schedule.occurrenceSequence(from: now, to: .distantFuture).makeIterator()
    /// while let o = upcoming.next(), shown < 20 { … }
    /// ```
    ///
    /// To stop one series early (a caller's cap per series, say), call
    /// ``OccurrenceIterator/skipRemaining(ofSeries:)`` on the iterator.
    ///
    /// - Parameters:
    ///   - from: the start of the window.
    ///   - to: the end of the window (exclusive).
    ///   - floatingZone: the zone in which all-day and floating times are
    ///     placed (the viewer's zone); by default the schedule's own zone (``timeZone``), else the machine's (`ZoneRules.current`).
    /// - Returns: a sequence that can be iterated more than once; each
    ///   iteration expands the window again.
    public func occurrenceSequence(from: Date, to: Date, floatingZone: ZoneRules? = nil) -> OccurrenceSequence {
        OccurrenceSequence(schedule: self, from: from.clampedEpochSeconds, to: to.clampedEpochSecondsRoundedUp, floatingZone: readingZone(floatingZone))
    }
}

/// The occurrences of a ``Schedule`` in a window, in order, computed lazily:
/// see ``Schedule/occurrenceSequence(from:to:floatingZone:)``.
public struct OccurrenceSequence: Sequence, Sendable {
    let schedule: Schedule
    let from: Int64
    let to: Int64
    let floatingZone: ZoneRules

    /// An iterator at the window's first occurrence.
    public func makeIterator() -> OccurrenceIterator {
        OccurrenceIterator(schedule: schedule, from: from, to: to, floatingZone: floatingZone)
    }
}

/// Walks a schedule's occurrences in order: a merge of one lazy iterator per
/// series and the sorted single items.
///
/// How the order is kept without collecting: every source — each series,
/// and the single items sorted by a zone-independent key — knows a lower
/// bound on the start of anything it will still produce (a series: its next
/// rule instance's instant, less the largest shift its changed instances
/// apply; the singles: the next key, less the largest UTC offset). Sources
/// sit in a heap by that bound. Occurrences already computed wait in a second
/// heap in the schedule's order (`Occurrence.precedes`); the first of
/// them is final once it starts before every source's bound. So at any time
/// the iterator holds about one occurrence per series, whatever the window.
public struct OccurrenceIterator: IteratorProtocol, Sendable {
    private let schedule: Schedule
    /// Computed occurrences waiting their turn, in the schedule's order:
    /// the heap holds their starts, ends and places in `slots` (an occurrence
    /// is over a hundred bytes with several references; moving it through the
    /// heap cost a third of the iteration), `free` the empty places.
    private var ready = MinHeap<Ready>()
    private var slots: [Occurrence?] = []
    private var free: [Int] = []
    /// Sources by the lower bound of what they will still produce.
    private var sources = MinHeap<SourceBound>()
    private var cursors: [SeriesCursor] = []
    /// The window and zones every cursor reads (kept here once, not in each).
    private let window: SeriesCursor.Window
    /// The next single item (a position in the schedule's start index).
    private var single: Int
    private var stopped: Set<String> = []

    private struct Ready: Sendable {
        let start: Int64
        let end: Int64
        let slot: Int
    }

    private struct SourceBound: Sendable {
        let bound: Int64
        /// A position in `cursors`, or -1 for the single items.
        let source: Int
    }

    init(schedule: Schedule, from a: Int64, to b: Int64, floatingZone: ZoneRules) {
        self.schedule = schedule
        window = SeriesCursor.Window(a: a, b: b, zone: floatingZone, zones: schedule.zones)
        single = schedule.singleKeys.count
        guard b > a else { return }
        single = schedule.firstSingle(reaching: a)
        if single < schedule.singleKeys.count, schedule.singleKeys[single] < b + Schedule.maxOffset {
            sources.push(by: Self.sooner, SourceBound(bound: schedule.singleKeys[single] - Schedule.maxOffset, source: -1))
        }
        for i in schedule.longSingles {
            if let o = schedule.occurrence(ofSingle: schedule.items[i], a, b, floatingZone) { enqueue(o) }
        }
        var moved: [Occurrence] = []
        for plan in schedule.series {
            guard let cursor = SeriesCursor(schedule.items[plan.index], plan, window, moved: &moved) else { continue }
            for o in moved { enqueue(o) }
            moved.removeAll(keepingCapacity: true)
            // A series with nothing left to reach the window (over before
            // it, or starting after it) is not kept.
            guard let bound = cursor.lowerBound else { continue }
            sources.push(by: Self.sooner, SourceBound(bound: bound, source: cursors.count))
            cursors.append(cursor)
        }
    }

    /// The next occurrence in the schedule's order, or `nil` after the last.
    public mutating func next() -> Occurrence? {
        while true {
            if let first = ready.first, sources.first.map({ first.start < $0.bound }) ?? true {
                do {
                    // A copy of the array only for the comparisons (it ends before `slots` changes, so nothing is copied).
                    let slots = self.slots
                    ready.removeFirst { Self.precedes($0, $1, slots) }
                }
                guard let o = slots[first.slot] else { continue }
                slots[first.slot] = nil
                free.append(first.slot)
                if !stopped.isEmpty, o.id.recurrenceID != nil, stopped.contains(o.id.uid) { continue }
                return o
            }
            guard let source = sources.removeFirst(by: Self.sooner) else { return nil }
            if source.source < 0 {
                advanceSingles()
            } else {
                advance(source.source)
            }
        }
    }

    /// Ends the series with this `UID`: its occurrences not yet returned
    /// are skipped, and its rule is not expanded any further.
    ///
    /// A caller that shows at most so many occurrences of each series calls
    /// this once a series reaches its cap; iterating on costs nothing for it.
    /// - Parameter uid: the series' `UID` (``Occurrence/ID/uid``); a single
    ///   item's `UID` changes nothing.
    public mutating func skipRemaining(ofSeries uid: String) {
        stopped.insert(uid)
    }

    private static func sooner(_ x: SourceBound, _ y: SourceBound) -> Bool { x.bound < y.bound }

    /// The schedule's order on two waiting occurrences: start, end, then identity.
    private static func precedes(_ x: Ready, _ y: Ready, _ slots: [Occurrence?]) -> Bool {
        if x.start != y.start { return x.start < y.start }
        if x.end != y.end { return x.end < y.end }
        guard let p = slots[x.slot], let q = slots[y.slot] else { return x.slot < y.slot }
        return Occurrence.precedes(p, q)
    }

    private mutating func enqueue(_ o: Occurrence) {
        let slot: Int
        if let reused = free.popLast() {
            slots[reused] = o
            slot = reused
        } else {
            slot = slots.count
            slots.append(o)
        }
        let slots = self.slots
        ready.push(by: { Self.precedes($0, $1, slots) }, Ready(start: o.startSeconds, end: o.endSeconds, slot: slot))
        _ = consume slots
    }

    private mutating func advanceSingles() {
        let keys = schedule.singleKeys
        let (a, b, zone) = (window.a, window.b, window.zone)
        // Every single item whose key is at this bound's key: one step each.
        let key = keys[single]
        while single < keys.count, keys[single] == key {
            if let o = schedule.occurrence(ofSingle: schedule.items[schedule.singleIndices[single]], a, b, zone) {
                enqueue(o)
            }
            single += 1
        }
        if single < keys.count, keys[single] < b + Schedule.maxOffset {
            sources.push(by: Self.sooner, SourceBound(bound: keys[single] - Schedule.maxOffset, source: -1))
        }
    }

    private mutating func advance(_ position: Int) {
        if !stopped.isEmpty, stopped.contains(cursors[position].item.uid) { return }
        if let o = cursors[position].next(window) { enqueue(o) }
        if let bound = cursors[position].lowerBound { sources.push(by: Self.sooner, SourceBound(bound: bound, source: position)) }
    }
}

/// One series' occurrences in a window, an instance at a time: the rule's
/// instances (each in the order of its wall time, so of its instant), less
/// the ones a changed instance replaces, shifted by `RANGE=THISANDFUTURE`
/// changes. The changed instances themselves are placed up front (the
/// initialiser's `moved`).
struct SeriesCursor: Sendable {
    /// What every cursor of one query reads: the window `[a, b)` in Unix
    /// seconds, the zone of floating times, and the calendar's zones.
    struct Window: Sendable {
        let a: Int64
        let b: Int64
        let zone: ZoneRules
        let zones: ZoneTable
    }

    // A query holds one cursor per series that can reach its window, so the
    // cursor keeps only its own state (the window is passed in), and its next
    // instance as a wall reading and an instant rather than an `Instance`.
    let item: CalendarItem
    private let span: InstanceSpan
    private var iterator: RecurrenceSet.Iterator
    private let singles: [CalendarTime: RecurrenceOverride]
    private let future: [(wall: Int64, delta: Int64, override: RecurrenceOverride, span: InstanceSpan)]
    /// The spans of the `RDATE`s given as periods, by the instant the RDATE
    /// names (empty for most series): an instant, so that an `RDATE` in
    /// another zone than the series' finds its instance however either is written.
    private let periods: [Int64: InstanceSpan]
    /// Instances at or after this instant cannot reach the window.
    private let stop: Int64
    /// For each `THISANDFUTURE` change (in `future`'s order), the smallest
    /// shift it or any later one applies: with the shift in force, what
    /// bounds how much earlier than their rule instances the series' later
    /// occurrences can start.
    private let laterShifts: [Int64]
    private var peekedWall: Int64 = 0
    /// A lower bound on the start of the peeked instance and every later one.
    private var peekedBound: Int64 = 0
    private var hasPeeked = false

    /// A cursor at the first instance that may reach the window; `moved`
    /// receives the series' changed single instances that overlap the window,
    /// wherever they moved to. `nil` when the rule cannot be compiled.
    init?(_ item: CalendarItem, _ plan: Schedule.SeriesPlan, _ w: Window, moved: inout [Occurrence]) {
        let (a, b, zone, zones) = (w.a, w.b, w.zone, w.zones)
        // How far an instance can reach back into the window: its length, plus
        // the largest shift a THISANDFUTURE override applies.
        let length: Int64
        if let fixedSpan = plan.span, let fixedLength = plan.length {
            (span, length) = (fixedSpan, fixedLength)
        } else {
            let base = (try? item.start.epochSeconds(floatingZone: zone, zones: zones)) ?? 0
            span = item.span(floatingZone: zone, zones: zones)
            length = span.end(startingAt: item.start, startSeconds: base).1 - base
        }
        var shift: Int64 = 0
        var future: [(wall: Int64, delta: Int64, override: RecurrenceOverride, span: InstanceSpan)] = []
        var singles: [CalendarTime: RecurrenceOverride] = [:]
        for o in item.overrides {
            if o.thisAndFuture {
                let idSeconds = (try? o.recurrenceID.epochSeconds(floatingZone: zone, zones: zones)) ?? 0
                let newStart = (try? o.item.start.epochSeconds(floatingZone: zone, zones: zones)) ?? idSeconds
                let overrideSpan = o.item.span(floatingZone: zone, zones: zones)
                // Keyed by the instance it names, in the series' own terms
                // (a UTC RECURRENCE-ID on a zoned series names a wall time there).
                let wall = Schedule.normalised(o.recurrenceID, like: item.start, zones: zones).wallTime.localSeconds
                future.append((wall, newStart - idSeconds, o, overrideSpan))
                shift = max(shift, abs(newStart - idSeconds) + max(0, overrideSpan.end(startingAt: o.item.start, startSeconds: newStart).1 - newStart))
            } else {
                singles[Schedule.normalised(o.recurrenceID, like: item.start, zones: zones)] = o
            }
        }
        future.sort { $0.wall < $1.wall }
        var laterShifts = [Int64](repeating: 0, count: future.count)
        var smallest = Int64.max
        for k in future.indices.reversed() {
            smallest = min(smallest, future[k].delta)
            laterShifts[k] = smallest
        }
        self.laterShifts = laterShifts
        let (periods, periodLength) = Self.periods(of: item, w)
        guard var iterator = plan.compiled ?? (try? item.recurrenceSet?.compiledIterator(floatingZone: zone, zones: zones)) else { return nil }
        let reach = max(length, periodLength, 0) + shift + 86_400
        iterator.begin(from: Date(timeIntervalSince1970: TimeInterval(a - reach)))
        self.item = item
        self.iterator = iterator
        self.singles = singles
        self.future = future
        self.periods = periods
        self.stop = b + shift + 86_400
        for (id, o) in singles where !o.isCancelled {
            if let occurrence = Occurrence(placing: o.item, as: .init(uid: item.uid, recurrenceID: id), a, b, zone, zones) { moved.append(occurrence) }
        }
        peek()
    }

    /// The spans of a series' `RDATE` periods (RFC 5545 §3.8.5.2) by the
    /// instant each starts, and the longest of them.
    private static func periods(of item: CalendarItem, _ w: Window) -> ([Int64: InstanceSpan], Int64) {
        guard !item.recurrenceDateEnds.isEmpty else { return ([:], 0) }
        let starts = Set(item.recurrenceDates)
        var spans: [Int64: InstanceSpan] = [:]
        var longest: Int64 = 0
        for p in item.recurrenceDateEnds where starts.contains(p.start) {
            guard let s = try? p.start.epochSeconds(floatingZone: w.zone, zones: w.zones) else { continue }
            var period = item
            period.start = p.start
            period.end = p.end
            let span = period.span(floatingZone: w.zone, zones: w.zones)
            longest = max(longest, span.end(startingAt: p.start, startSeconds: s).1 - s)
            spans[s] = span
        }
        return (spans, longest)
    }

    /// No later occurrence of the rule starts before this instant; `nil` when there is none.
    var lowerBound: Int64? { hasPeeked ? peekedBound : nil }

    private mutating func peek() {
        guard let wall = iterator.nextWall() else {
            hasPeeked = false
            return
        }
        peekedWall = wall
        let instant = iterator.zone.instant(forWall: wall)
        hasPeeked = instant < stop
        // Instants follow wall readings except in a spring-forward gap: a
        // reading in the gap is placed with the offset before it, so the
        // next readings (after the gap) can map to earlier instants, by as
        // much as the gap. With the offset after it, no later reading can
        // start before this bound; away from a transition it is the instant.
        var bound = min(instant, wall - Int64(iterator.zone.offset(atInstant: instant + 86_400)))
        if !future.isEmpty {
            // The shift in force now, or any later change's, whichever is less.
            let k = future.lastIndex { $0.wall <= wall }
            let now = k.map { future[$0].delta } ?? 0
            let later = (k.map { $0 + 1 } ?? 0) < future.count ? laterShifts[k.map { $0 + 1 } ?? 0] : Int64.max
            bound += min(now, later)
        }
        peekedBound = bound
    }

    /// The rule's next occurrence that overlaps the window, or `nil` when no more can.
    mutating func next(_ w: Window) -> Occurrence? {
        while hasPeeked {
            let instance = iterator.makeInstance(LocalDateTime(localSeconds: peekedWall))
            peek()
            // A moved or changed instance is placed by its own start (`moved`).
            if !singles.isEmpty, singles[instance.recurrenceID] != nil { continue }
            var source = item
            var sourceSpan = span
            var start = instance.start
            var s = instance.epochSeconds
            // An RDATE period ends where it says (RFC 5545 §3.8.5.2), also when
            // it falls on DTSTART (the set has one instance there, and the
            // period is the more specific of the two, as recurring-ical-events
            // reads it) and when a THISANDFUTURE change shifts it: its length
            // then goes with it.
            let period = periods.isEmpty ? nil : periods[s]
            if !future.isEmpty, let f = future.last(where: { $0.wall <= instance.recurrenceID.wallTime.localSeconds }) {
                if f.override.isCancelled { continue }
                source = f.override.item
                sourceSpan = f.span
                s += f.delta
                start = f.override.item.start.shifted(toInstant: s, floatingZone: w.zone, zones: w.zones)
            }
            if let period { sourceSpan = period }
            let (end, e) = sourceSpan.end(startingAt: start, startSeconds: s)
            let occurrence = Occurrence(id: .init(uid: item.uid, recurrenceID: instance.recurrenceID), item: source, start: start, end: end, startSeconds: s, endSeconds: e)
            if occurrence.overlaps(w.a, w.b) { return occurrence }
        }
        return nil
    }
}

/// A binary min-heap ordered by the comparator each call passes
/// (CalendarCore depends on Foundation alone, so not swift-collections'
/// `Heap`; and the order of waiting occurrences reads state outside the heap).
struct MinHeap<Element: Sendable>: Sendable {
    private var storage: [Element] = []

    var first: Element? { storage.first }

    mutating func push(by precedes: (Element, Element) -> Bool, _ element: Element) {
        storage.append(element)
        var child = storage.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard precedes(storage[child], storage[parent]) else { break }
            storage.swapAt(child, parent)
            child = parent
        }
    }

    @discardableResult
    mutating func removeFirst(by precedes: (Element, Element) -> Bool) -> Element? {
        guard !storage.isEmpty else { return nil }
        storage.swapAt(0, storage.count - 1)
        let first = storage.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1
            guard left < storage.count else { break }
            var smallest = left
            if left + 1 < storage.count, precedes(storage[left + 1], storage[left]) { smallest = left + 1 }
            guard precedes(storage[smallest], storage[parent]) else { break }
            storage.swapAt(parent, smallest)
            parent = smallest
        }
        return first
    }
}
