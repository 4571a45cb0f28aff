import CalendarCore
import Foundation

/// One calendar object resource (RFC 4791 §4.1: a `VCALENDAR` whose
/// components share one `UID`, with the `VTIMEZONE`s they use) cut into its
/// components, so that the thousands of small resources of a folder or a
/// CalDAV collection are read as one import (``join(_:)``).
///
/// It reads with the importer's own lexer (`ContentLineReader`, the one
/// content-line scanner: folded lines, CRLF or LF, a byte-order mark), so a
/// resource is cut where the importer would cut it. A resource it cannot
/// cut so — not one whole `VCALENDAR`, a component without a `UID` (a
/// `VTIMEZONE` without a `TZID`), a line the importer would shorten or
/// clean, a `BEGIN`, `END`, `UID` or `TZID` it cannot read — gives no scan,
/// and its reader imports it alone, where the importer says what is wrong
/// with it. Any other line is joined as it is: the joined import says what
/// is wrong with it, at the resource's line.
package struct ICalendarResourceScan: Sendable {
    /// A top-level component of the resource.
    package struct Block: Sendable {
        /// A `VTIMEZONE`'s `TZID`; `nil` for any other component.
        package var timeZone: String?
        /// Its content lines, unfolded, each with the line of the resource it starts on.
        package var lines: [Line]

        /// The lines as one text: two definitions of a zone are alike when their texts are.
        package var text: [UInt8] { lines.reduce(into: []) { $0 += $1.bytes + [0x0A] } }
    }

    /// A content line, unfolded, and the line of the resource it starts on.
    package struct Line: Sendable {
        /// The line of the resource it starts on, from 1.
        package var number: Int
        /// Its bytes, without a line break.
        package var bytes: [UInt8]
    }

    /// The components, in the resource's order.
    package private(set) var blocks: [Block] = []
    /// The `UID` of each component that is not a `VTIMEZONE`, in order.
    package private(set) var uids: [String] = []
    /// The calendar's `PRODID` line, unfolded, with its CRLF.
    package private(set) var productLine: [UInt8]?

    /// Cuts a resource into its components, or gives `nil` (see above).
    /// - Parameters:
    ///   - bytes: the resource's text.
    ///   - maxLineBytes: the longest content line the importer reads whole (``ImportOptions/maxLineBytes``).
    ///   - joining: whether the scan is for ``join(_:)``, which refuses a line
    ///     the importer would shorten or clean; `false` takes it, for a
    ///     caller that wants the resource's ``uids`` alone (a collection's
    ///     index of which member holds which `UID`).
    package init?(bytes: [UInt8], maxLineBytes: Int = ImportOptions().maxLineBytes, joining: Bool = true) {
        var reader = ContentLineReader(bytes: bytes, maxLineBytes: maxLineBytes)
        var open: [String] = []
        var block = Block(lines: [])
        var uid: String?
        var ended = false
        while true {
            let next: RawLine?
            do { next = try reader.next() } catch { return nil }
            guard let raw = next else { break }
            guard !ended, !joining || (!raw.truncated && raw.controlCharactersRemoved == 0) else { return nil }
            // The name alone for most lines; the whole line, as the importer reads it, for the few the cut needs.
            let name = Self.name(of: raw.bytes)
            var value = ""
            if name != .other {
                guard case .success(let parsed) = ContentLineSyntax.parse(raw.bytes) else { return nil }
                value = parsed.value
            }
            switch name {
            case .begin:
                let name = value.uppercased()
                open.append(name)
                if open.count == 1 {
                    guard name == "VCALENDAR" else { return nil }
                    continue
                }
                if open.count == 2 { (block, uid) = (Block(lines: []), nil) }
            case .end:
                guard let closed = open.popLast(), closed == value.uppercased() else { return nil }
                if open.isEmpty { ended = true; continue }
                if open.count == 1 {
                    // A component of the calendar has ended.
                    block.lines.append(Line(number: raw.number, bytes: raw.bytes))
                    if closed == "VTIMEZONE" {
                        guard block.timeZone != nil else { return nil }
                    } else {
                        guard let uid else { return nil }
                        uids.append(uid)
                    }
                    blocks.append(block)
                    continue
                }
            case .prodid where open.count == 1:
                if productLine == nil { productLine = raw.bytes + [0x0D, 0x0A] }
                continue
            case _ where open.count == 1:
                continue  // the calendar's own properties: the joined calendar has its own
            case .uid where open.count == 2:
                if uid == nil { uid = value }
            case .tzid where open.count == 2 && open.last == "VTIMEZONE":
                if block.timeZone == nil { block.timeZone = value }
            default:
                guard !open.isEmpty else { return nil }
            }
            block.lines.append(Line(number: raw.number, bytes: raw.bytes))
        }
        guard ended else { return nil }
    }

    /// The names whose values the cut reads; any other is `other`.
    private enum Name { case begin, end, uid, tzid, prodid, other }

    private static let namesRead: [(name: Name, upper: [UInt8])] = [
        (.begin, Array("BEGIN".utf8)), (.end, Array("END".utf8)), (.uid, Array("UID".utf8)),
        (.tzid, Array("TZID".utf8)), (.prodid, Array("PRODID".utf8)),
    ]

    /// A line's name — what comes before its first `;` or `:` — in any case,
    /// compared byte by byte (no string made and hashed for every line: a
    /// fifth of the scan's time in an unchanged collection's read).
    private static func name(of line: [UInt8]) -> Name {
        let end = line.firstIndex { $0 == 0x3B || $0 == 0x3A } ?? line.endIndex
        // The names are letters: `& 0xDF` makes a lower-case letter upper case, and changes no byte into a letter.
        for (name, upper) in namesRead where upper.count == end
            && zip(line[..<end], upper).allSatisfy({ $0 & 0xDF == $1 }) {
            return name
        }
        return .other
    }

    /// The resources' components as one calendar: `BEGIN:VCALENDAR`, the
    /// first `PRODID` read (Horari's when none has one), every component of
    /// every scan in order, each `VTIMEZONE` once (the first definition of
    /// its `TZID`), `END:VCALENDAR`.
    ///
    /// - Parameter scans: the resources, `nil` for one read alone (left out).
    /// - Returns: the text, and for each of its lines, from the first, the
    ///   index in `scans` of the resource it came from and its line there
    ///   (`source` −1 for the lines the join writes), so that a diagnostic
    ///   names its resource's line.
    package static func join(_ scans: [ICalendarResourceScan?]) -> (text: [UInt8], origin: [(source: Int, line: Int)]) {
        var text: [UInt8] = Array("BEGIN:VCALENDAR\r\nVERSION:2.0\r\n".utf8)
        text += scans.lazy.compactMap { $0?.productLine }.first ?? Array("PRODID:\(HorariVersion.productID)\r\n".utf8)
        var origin: [(source: Int, line: Int)] = [(-1, 0), (-1, 0), (-1, 0)]
        var zones: Set<String> = []
        for (i, scan) in scans.enumerated() {
            for block in scan?.blocks ?? [] {
                if let tzid = block.timeZone, !zones.insert(tzid).inserted { continue }
                for line in block.lines {
                    text += line.bytes + [0x0D, 0x0A]
                    origin.append((i, line.number))
                }
            }
        }
        text += Array("END:VCALENDAR\r\n".utf8)
        return (text, origin)
    }
}
