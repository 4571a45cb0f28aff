import CalendarCore
import Foundation

/// A calendar file's text cut at its top-level components, without parsing
/// them: each component's name, where its bytes lie, and the values of the
/// few properties the caller asked for.
///
/// It is the cheap half of changing a large file in place: find the
/// components a change needs, parse only those (``calendarText(including:)``
/// gives them to ``ICalendarImporter`` with the calendar's own properties),
/// and write back only what changed with an ``ICalendarSplice``, every other
/// byte as it was. CalendarStore's `CalendarFile.splice(_:indexing:whileWaiting:_:)`
/// does that to a file, under its lock.
///
/// An outline is made only of text in the form ``ICalendarExporter`` writes
/// and the importer reads the same way: one `VCALENDAR` and nothing around
/// it, every line ended by CRLF, no blank line, no control character but the
/// tab, `BEGIN`/`END` lines without parameters and in balance. Any other text
/// gives no outline (`nil`): the caller then reads and writes the whole file,
/// whose next save is in that form.
///
/// ```swift
/// guard let outline = ICalendarOutline(bytes: bytes, indexing: ["UID"]) else { return wholeFile() }
/// let journals = outline.components.filter { $0.name == "VJOURNAL" }
/// ```
public struct ICalendarOutline: Sendable {
    /// One top-level component: its name, its bytes, the values of the indexed properties.
    public struct Component: Hashable, Sendable {
        /// The component's name, upper case (`VEVENT`, `X-EXAMPLE`).
        public let name: String
        /// Its bytes in ``ICalendarOutline/bytes``: from its `BEGIN` line through
        /// the CRLF of its `END` line.
        public let range: Range<Int>
        /// Its own properties (not its subcomponents') named in `indexing`,
        /// in file order, each value unfolded and as written (escapes kept).
        public let indexed: [Property]

        /// The first value of an indexed property, as written.
        /// - Parameter property: the property's name, upper case.
        public func value(_ property: String) -> String? { indexed.first { $0.name == property }?.value }

        /// The values of an indexed property, as written, in order.
        /// - Parameter property: the property's name, upper case.
        public func values(_ property: String) -> [String] { indexed.filter { $0.name == property }.map(\.value) }
    }

    /// An indexed property of a component: its name and its value as written.
    public struct Property: Hashable, Sendable {
        /// The name, upper case.
        public let name: String
        /// The value, unfolded, escapes kept.
        public let value: String
    }

    /// The text the outline was made of.
    public let bytes: [UInt8]
    /// The top-level components, in file order.
    public let components: [Component]
    /// The calendar's own properties (`VERSION`, `X-WR-TIMEZONE`…) by
    /// upper-case name, unfolded and as written, in order.
    public let calendarValues: [String: [String]]
    /// The `BEGIN:VCALENDAR` line, the calendar's property lines and the
    /// `END:VCALENDAR` line, as byte ranges.
    private let openLine: Range<Int>, propertyLines: [Range<Int>], closeLine: Range<Int>

    /// Outlines iCalendar text, or gives `nil` when it is not in the form
    /// described above.
    /// - Parameters:
    ///   - bytes: the text.
    ///   - indexing: the names (upper case) of the component properties
    ///     whose values ``Component/indexed`` keeps.
    public init?(bytes: [UInt8], indexing: Set<String> = []) {
        var scanner = OutlineScanner(wanted: Array(indexing))
        let ok = bytes.withUnsafeBufferPointer { scanner.scan($0) }
        guard ok, let open = scanner.openLine, let close = scanner.closeLine else { return nil }
        self.bytes = bytes
        components = scanner.components
        calendarValues = scanner.calendarValues
        openLine = open
        propertyLines = scanner.propertyLines
        closeLine = close
    }

    /// The values of one of a component's own properties, unfolded and as
    /// written, in order (read from its bytes: any property, indexed or not).
    /// - Parameters:
    ///   - property: the property's name, upper case.
    ///   - component: one of ``components``.
    public func values(_ property: String, in component: Component) -> [String] {
        let scanner = OutlineScanner(wanted: [property])
        return bytes.withUnsafeBufferPointer { p in scanner.values(in: p, component.range) }
    }

    /// A calendar of the calendar's own properties and some of its
    /// components, as text: `BEGIN:VCALENDAR`, the property lines, the
    /// components' bytes in the order given, `END:VCALENDAR`.
    /// - Parameter included: components of this outline.
    public func calendarText(including included: [Component]) -> [UInt8] {
        var out = Array(bytes[openLine])
        for r in propertyLines { out += bytes[r] }
        for c in included { out += bytes[c.range] }
        out += bytes[closeLine]
        return out
    }
}

extension ICalendarOutline {
    /// A component's text as a store keeps it: its name, its `UID`, its bytes.
    package struct StoredComponent: Sendable {
        /// Its name (`VEVENT`, `VJOURNAL`…).
        package var name: String
        /// Its `UID`, when it has one.
        package var uid: String?
        /// Its lines, each ended by CRLF.
        package var text: ArraySlice<UInt8>
    }

    /// Text in outline form cut as a store keeps a calendar: its own lines
    /// (a `VCALENDAR` without components) and each top-level component, with
    /// its `UID`; `nil` when the text is not in outline form.
    package static func cut(_ bytes: [UInt8]) -> (header: [UInt8], components: [StoredComponent])? {
        guard let outline = ICalendarOutline(bytes: bytes, indexing: ["UID"]) else { return nil }
        return (outline.calendarText(including: []),
                outline.components.map { StoredComponent(name: $0.name, uid: $0.value("UID"), text: bytes[$0.range]) })
    }

    /// The reverse of ``cut(_:)``: the calendar's own lines with the
    /// components' texts put in before its `END:VCALENDAR`.
    package static func joined(header: some Collection<UInt8>, components: some Sequence<some Collection<UInt8>>) -> [UInt8] {
        var text = Array(header)
        let end = Array("END:VCALENDAR\r\n".utf8)
        if text.count >= end.count, Array(text.suffix(end.count)) == end { text.removeLast(end.count) }
        for component in components { text += component }
        return text + end
    }
}

/// Changes to an outlined text: components replaced, removed or inserted;
/// every other byte stays as it was.
///
/// ```swift
/// var splice = ICalendarSplice()
/// splice.replace(roster, with: newRosterText)
/// let bytes = splice.applied(to: outline)
/// ```
public struct ICalendarSplice: Sendable {
    private struct Edit: Sendable {
        var range: Range<Int>
        var bytes: [UInt8]
        var order: Int
    }

    private var edits: [Edit] = []

    /// The texts the splice puts in.
    private var texts: [[UInt8]] { edits.map(\.bytes) }

    /// Whether every text the splice puts in is whole components, so that
    /// the spliced text is in outline form as the text it is applied to is.
    package var putsWholeComponents: Bool {
        let open = Array("BEGIN:VCALENDAR\r\n".utf8), close = Array("END:VCALENDAR\r\n".utf8)
        return texts.allSatisfy { ICalendarOutline(bytes: open + $0 + close) != nil }
    }

    /// An empty splice.
    public init() {}

    /// Whether the splice changes nothing.
    public var isEmpty: Bool { edits.isEmpty }

    /// Puts other text in a component's place.
    /// - Parameters:
    ///   - component: a component of the outline the splice is applied to.
    ///   - text: whole components, each line ended by CRLF.
    public mutating func replace(_ component: ICalendarOutline.Component, with text: [UInt8]) {
        add(component.range, text)
    }

    /// Takes a component out.
    /// - Parameter component: a component of the outline the splice is applied to.
    public mutating func remove(_ component: ICalendarOutline.Component) {
        add(component.range, [])
    }

    /// Puts text just before a component.
    /// - Parameters:
    ///   - text: whole components, each line ended by CRLF.
    ///   - component: a component of the outline the splice is applied to.
    public mutating func insert(_ text: [UInt8], before component: ICalendarOutline.Component) {
        add(component.range.lowerBound..<component.range.lowerBound, text)
    }

    /// Puts text just after a component.
    /// - Parameters:
    ///   - text: whole components, each line ended by CRLF.
    ///   - component: a component of the outline the splice is applied to.
    public mutating func insert(_ text: [UInt8], after component: ICalendarOutline.Component) {
        add(component.range.upperBound..<component.range.upperBound, text)
    }

    private mutating func add(_ range: Range<Int>, _ bytes: [UInt8]) {
        edits.append(Edit(range: range, bytes: bytes, order: edits.count))
    }

    /// The outline's text with the changes made, or `nil` when two of them
    /// change the same bytes.
    /// - Parameter outline: the outline whose components the changes name.
    public func applied(to outline: ICalendarOutline) -> [UInt8]? {
        guard let pieces = pieces(of: outline) else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(pieces.reduce(0) { $0 + $1.count })
        for piece in pieces { out += piece }
        return out
    }

    /// The spliced text as the pieces it is made of, in order: the
    /// outline's bytes between the edits and the texts put in, as slices,
    /// none copied; `nil` when edits overlap or one lies outside the text.
    /// ``applied(to:)`` joins them; CalendarStore's `CalendarFile.splice`
    /// writes them to the file one after the other, so that a large file is
    /// not held twice (nor its pages touched twice) to change one component.
    package func pieces(of outline: ICalendarOutline) -> [ArraySlice<UInt8>]? {
        let sorted = edits.sorted { ($0.range.lowerBound, $0.range.upperBound, $0.order) < ($1.range.lowerBound, $1.range.upperBound, $1.order) }
        var pieces: [ArraySlice<UInt8>] = []
        pieces.reserveCapacity(2 * sorted.count + 1)
        var at = 0
        for e in sorted {
            guard e.range.lowerBound >= at, e.range.upperBound <= outline.bytes.count else { return nil }
            pieces.append(outline.bytes[at..<e.range.lowerBound])
            pieces.append(e.bytes[...])
            at = e.range.upperBound
        }
        pieces.append(outline.bytes[at...])
        return pieces
    }
}

/// The one pass over the bytes that makes an outline.
private struct OutlineScanner {
    let wanted: [[UInt8]], wantedNames: [String]
    var components: [ICalendarOutline.Component] = []
    var calendarValues: [String: [String]] = [:]
    var propertyLines: [Range<Int>] = []
    var openLine: Range<Int>?
    var closeLine: Range<Int>?

    init(wanted: [String]) {
        wantedNames = wanted
        self.wanted = wanted.map { Array($0.utf8) }
    }

    private static let begin = Array("BEGIN".utf8), end = Array("END".utf8)

    /// Walks the lines of `p[range]`, calling `visit` with each logical line
    /// (unfolded, without its CRLF) and the range of its physical lines
    /// (with their CRLFs); `false` when the text is not in outline form or
    /// `visit` says stop.
    ///
    /// A folded line is unfolded only when `unfolds`, given its first
    /// physical line, says its visit needs more than that: else `visit` is
    /// given the first physical line alone. (A 20-year gym file has 25,000
    /// folded roster lines, none of whose values the outline keeps.)
    private static func lines(_ p: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, unfolds: (UnsafeBufferPointer<UInt8>) -> Bool = { _ in true },
                              _ visit: (UnsafeBufferPointer<UInt8>, Range<Int>) -> Bool) -> Bool {
        guard let base = p.baseAddress else { return false }
        var i = range.lowerBound
        let n = range.upperBound
        // The end of the physical line at `start` (after its CRLF), or nil
        // when it has no CRLF or holds a control character other than the tab.
        func physical(_ start: Int) -> Int? {
            var k = start
            while true {
                // Eight bytes at a time while none is under 0x20 or 0x7F (exact
                // tests for "some byte is": Hacker's Delight's haszero/hasless);
                // the CR that ends the line is under 0x20, so one pass finds it
                // and the control characters both. The lowest byte flagged is
                // the first such byte: a borrow carries only upward, from a byte
                // that is one, so a flag above it may be false, none below it.
                while k + 8 <= n {
                    let w = UInt64(littleEndian: UnsafeRawPointer(base + k).loadUnaligned(as: UInt64.self))
                    let under = (w &- 0x2020_2020_2020_2020) & ~w & 0x8080_8080_8080_8080
                    let x = w ^ 0x7F7F_7F7F_7F7F_7F7F
                    let delete = (x &- 0x0101_0101_0101_0101) & ~x & 0x8080_8080_8080_8080
                    let flags = under | delete
                    if flags != 0 {
                        k += flags.trailingZeroBitCount >> 3
                        break
                    }
                    k += 8
                }
                // The text's last few bytes one at a time (after a flag, this
                // stops at once, on the byte flagged).
                while k < n, base[k] >= 0x20, base[k] != 0x7F { k += 1 }
                if k >= n { return nil }
                // A tab goes on, a CRLF ends the line, anything else is not outline form.
                let b = base[k]
                if b == 0x09 {
                    k += 1
                } else if b == 0x0D, k + 1 < n, base[k + 1] == 0x0A {
                    return k + 2
                } else {
                    return nil
                }
            }
        }
        while i < n {
            // A blank line, or a continuation with nothing to continue, is not outline form.
            guard let next = physical(i), next - 2 > i, base[i] != 0x20, base[i] != 0x09 else { return false }
            var stop = next
            var unfolded: [UInt8]?
            let first = UnsafeBufferPointer(rebasing: p[i..<(next - 2)])
            var whole: Bool?
            while stop < n, base[stop] == 0x20 || base[stop] == 0x09 {
                guard let after = physical(stop) else { return false }
                if whole == nil { whole = unfolds(first) }
                if whole == true {
                    if unfolded == nil { unfolded = Array(first) }
                    unfolded?.append(contentsOf: UnsafeBufferPointer(rebasing: p[(stop + 1)..<(after - 2)]))
                }
                stop = after
            }
            let going: Bool
            if let unfolded {
                going = unfolded.withUnsafeBufferPointer { visit($0, i..<stop) }
            } else {
                going = visit(first, i..<stop)
            }
            guard going else { return false }
            i = stop
        }
        return true
    }

    /// Where the name ends (`;` or `:`) in a line, or nil.
    private static func nameEnd(_ line: UnsafeBufferPointer<UInt8>) -> Int? {
        line.firstIndex { $0 == 0x3B || $0 == 0x3A }
    }

    /// Whether the line's name, `line[0..<to]`, is `name` (upper case), ignoring ASCII case.
    private static func named(_ line: UnsafeBufferPointer<UInt8>, _ to: Int, _ name: [UInt8]) -> Bool {
        guard to == name.count else { return false }
        for k in 0..<to {
            let b = line[k]
            if (b >= 0x61 && b <= 0x7A ? b - 0x20 : b) != name[k] { return false }
        }
        return true
    }

    /// The value of a property line: what follows the first `:` outside quotes.
    private static func value(_ line: UnsafeBufferPointer<UInt8>, from: Int) -> String {
        var quoted = false
        var k = from
        while k < line.count {
            let b = line[k]
            if b == 0x22 {
                quoted.toggle()
            } else if b == 0x3A, !quoted {
                return String(decoding: UnsafeBufferPointer(rebasing: line[(k + 1)...]), as: UTF8.self)
            }
            k += 1
        }
        return ""
    }

    private static func wanted(_ wanted: [[UInt8]], _ line: UnsafeBufferPointer<UInt8>, _ to: Int) -> Int? {
        wanted.firstIndex { named(line, to, $0) }
    }

    mutating func scan(_ p: UnsafeBufferPointer<UInt8>) -> Bool {
        guard p.count >= 3, !(p[0] == 0xEF && p[1] == 0xBB && p[2] == 0xBF) else { return false }
        var stack: [String] = []
        var current: (name: String, start: Int, indexed: [ICalendarOutline.Property])?
        var done = false
        let (wanted, wantedNames, begin, end) = (wanted, wantedNames, Self.begin, Self.end)
        var components: [ICalendarOutline.Component] = [], calendarValues: [String: [String]] = [:], propertyLines: [Range<Int>] = []
        var openLine: Range<Int>?, closeLine: Range<Int>?
        // A folded line is read whole where its value is kept or its name is
        // not all in its first physical line; elsewhere (inside a component)
        // only its name matters.
        let ok = Self.lines(p, 0..<p.count, unfolds: { first in
            guard stack.count >= 2, let to = Self.nameEnd(first) else { return true }
            return Self.named(first, to, begin) || Self.named(first, to, end) || (stack.count == 2 && Self.wanted(wanted, first, to) != nil)
        }) { line, range in
            guard !done, let to = Self.nameEnd(line) else { return false }
            let isBegin = Self.named(line, to, begin), isEnd = !isBegin && Self.named(line, to, end)
            if isBegin || isEnd {
                guard line[to] == 0x3A else { return false }  // BEGIN;X=…: not outline form
                let value = UnsafeBufferPointer(rebasing: line[(to + 1)...])
                var name = String(decoding: value, as: UTF8.self)
                if value.contains(where: { $0 >= 0x61 && $0 <= 0x7A }) { name = name.uppercased() }
                if isBegin {
                    if stack.isEmpty {
                        guard name == "VCALENDAR", openLine == nil, range.lowerBound == 0 else { return false }
                        openLine = range
                    } else if stack.count == 1 {
                        current = (name, range.lowerBound, [])
                    } else if let outer = stack.last, ComponentNesting.cannotContain(outer, name) {
                        return false  // the importer closes `outer` here: not read the same way
                    }
                    stack.append(name)
                    return stack.count <= 64
                }
                guard stack.last == name else { return false }
                stack.removeLast()
                if stack.isEmpty {
                    closeLine = range
                    done = range.upperBound == p.count
                    return done
                }
                if stack.count == 1, let c = current {
                    components.append(.init(name: c.name, range: c.start..<range.upperBound, indexed: c.indexed))
                    current = nil
                }
                return true
            }
            switch stack.count {
            case 0: return false
            case 1:
                propertyLines.append(range)
                let name = String(decoding: UnsafeBufferPointer(rebasing: line[..<to]), as: UTF8.self).uppercased()
                calendarValues[name, default: []].append(Self.value(line, from: to))
            case 2:
                if let k = Self.wanted(wanted, line, to) { current?.indexed.append(.init(name: wantedNames[k], value: Self.value(line, from: to))) }
            default: break
            }
            return true
        }
        (self.components, self.calendarValues, self.propertyLines, self.openLine, self.closeLine) = (components, calendarValues, propertyLines, openLine, closeLine)
        return ok && done
    }

    /// The values of the wanted properties among the own properties of the
    /// component at `range` (already outlined, so well formed).
    func values(in p: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> [String] {
        var depth = 0
        var found: [String] = []
        let (wanted, begin, end) = (wanted, Self.begin, Self.end)
        _ = Self.lines(p, range) { line, _ in
            guard let to = Self.nameEnd(line) else { return true }
            if Self.named(line, to, begin) {
                depth += 1
            } else if Self.named(line, to, end) {
                depth -= 1
            } else if depth == 1, Self.wanted(wanted, line, to) != nil {
                found.append(Self.value(line, from: to))
            }
            return true
        }
        return found
    }
}
