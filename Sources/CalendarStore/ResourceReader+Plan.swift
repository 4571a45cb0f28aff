import ICalendarKit

extension ResourceReader {
    /// How sources are read together: what ``plan(_:options:)`` decides
    /// from their texts alone. A collection's cache keeps it with its
    /// ``MemberPack`` (``encoded``), so that reading an unchanged collection
    /// does not scan and join 10,000 texts again (issue 42, 2).
    struct Plan: Equatable {
        /// One line of the joined text: the source it came from (−1: a line the join writes) and its line there.
        struct Origin: Equatable {
            var source: Int
            var line: Int
        }

        /// The sources' names, in order: the plan is for these.
        var names: [String]
        /// The `maxLineBytes` the texts were scanned with.
        var maxLineBytes: Int
        /// The Horari that made it (``HorariVersion/current``): another may
        /// scan, join or decide otherwise (a change of that within a version
        /// changes the form's first line).
        var horari: String = HorariVersion.current
        /// Each TZID the scans met, and whether it is read with the system's
        /// zone (then its definitions were not compared): a system whose
        /// zones say otherwise makes the plan stale.
        var zones: [String: Bool]
        /// The sources read alone, ascending: not one whole `VCALENDAR`, a
        /// UID another has too, a zone defined otherwise.
        var alone: [Int]
        /// Warnings about them (line 1 of nothing in particular).
        var notes: [String]
        /// Each UID the scans found, and the source holding it (the last one, when several do).
        var owners: [String: Int]
        /// The other sources' components under one `VCALENDAR`, each `VTIMEZONE` once.
        var text: [UInt8]
        /// Each line of `text`, from the first.
        var origin: [Origin]
        /// The libical, Horari and import limits (``libicalKey(_:)``) under
        /// which libical's checks of `text` found nothing; `nil` when they
        /// found something or have not run. A read with checks then reads `text` without them:
        /// no value of the calendar comes from libical, only its findings,
        /// and there were none (the checks are a quarter of the CPU of an
        /// unchanged read of 10,000 members; issue 42, 2).
        var libicalClean: String? = nil

        /// What ``libicalClean`` holds for a verdict of this process's
        /// libical (``ImportOptions/libicalVersion``) and Horari under
        /// `options`' limits, which decide what libical is given (a component
        /// over them is not); `nil` when there is no libical.
        static func libicalKey(_ options: ImportOptions) -> String? {
            ImportOptions.libicalVersion.map {
                "\($0) \(HorariVersion.current) \(options.maxLineBytes) \(options.maxComponentBytes) \(options.maxPropertiesPerComponent) \(options.maxDepth)"
            }
        }

        /// Whether this plan is the one ``ResourceReader/plan(_:options:)``
        /// would make of sources with these names (and the texts it was
        /// made of) under `options`: the same names, line limit and Horari,
        /// and each TZID it met still read with a system zone, or still not.
        func fits(_ names: [String], options: ImportOptions) -> Bool {
            names == self.names && maxLineBytes == options.maxLineBytes && horari == HorariVersion.current
                && zones.allSatisfy { ICalendarImporter.readsWithSystemZone($0.key) == $0.value }
        }
    }
}

extension ResourceReader.Plan {
    private static let firstLine = Array("horari read plan 2\n".utf8)
    private static let lastLine = Array("end\n".utf8)

    /// The plan as bytes, for ``init(encoded:)``: a first line, then each
    /// field in turn, a number as its decimal and `;`, a text as its length
    /// in bytes, `:` and the text, a list as its count and its elements;
    /// the runs of lines that follow one another in one source as one
    /// origin; whether libical's checks found it clean (`1;` and under what,
    /// or `0;`); a last line `end`. The same plan gives the same bytes.
    var encoded: [UInt8] {
        var out = Self.firstLine
        func number(_ n: Int) {
            out += String(n).utf8
            out.append(UInt8(ascii: ";"))
        }
        func text(_ t: some Collection<UInt8>) {
            out += String(t.count).utf8
            out.append(UInt8(ascii: ":"))
            out += t
        }
        number(maxLineBytes)
        text(horari.utf8)
        number(names.count)
        for name in names { text(name.utf8) }
        let zoneNames = zones.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        number(zoneNames.count)
        for tzid in zoneNames {
            text(tzid.utf8)
            number(zones[tzid] == true ? 1 : 0)
        }
        number(alone.count)
        for i in alone { number(i) }
        number(notes.count)
        for note in notes { text(note.utf8) }
        let uids = owners.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
        number(uids.count)
        for (uid, source) in uids {
            text(uid.utf8)
            number(source)
        }
        var runs: [(source: Int, line: Int, count: Int)] = []
        for o in origin {
            if let last = runs.last, last.source == o.source, last.line + last.count == o.line {
                runs[runs.count - 1].count += 1
            } else {
                runs.append((o.source, o.line, 1))
            }
        }
        number(runs.count)
        for run in runs {
            number(run.source)
            number(run.line)
            number(run.count)
        }
        text(self.text)
        if let libicalClean {
            number(1)
            text(libicalClean.utf8)
        } else {
            number(0)
        }
        out += Self.lastLine
        return out
    }

    /// The plan ``encoded`` wrote; `nil` unless every field is there, in
    /// range and in order, and nothing follows the last line.
    init?(encoded bytes: ArraySlice<UInt8>) {
        guard bytes.starts(with: Self.firstLine) else { return nil }
        var reader = Reader(bytes: bytes, at: bytes.startIndex + Self.firstLine.count)
        guard let maxLineBytes = reader.number(), let horari = reader.text(), let nameCount = reader.count() else { return nil }
        var names: [String] = []
        names.reserveCapacity(nameCount)
        for _ in 0..<nameCount {
            guard let name = reader.text() else { return nil }
            names.append(String(decoding: name, as: UTF8.self))
        }
        guard let zoneCount = reader.count() else { return nil }
        var zones: [String: Bool] = [:]
        for _ in 0..<zoneCount {
            guard let tzid = reader.text(), let system = reader.number(), system == 0 || system == 1,
                  zones.updateValue(system == 1, forKey: String(decoding: tzid, as: UTF8.self)) == nil else { return nil }
        }
        guard let aloneCount = reader.count() else { return nil }
        var alone: [Int] = []
        for _ in 0..<aloneCount {
            guard let i = reader.number(), names.indices.contains(i), i > alone.last ?? -1 else { return nil }
            alone.append(i)
        }
        guard let noteCount = reader.count() else { return nil }
        var notes: [String] = []
        for _ in 0..<noteCount {
            guard let note = reader.text() else { return nil }
            notes.append(String(decoding: note, as: UTF8.self))
        }
        guard let uidCount = reader.count() else { return nil }
        var owners: [String: Int] = [:]
        owners.reserveCapacity(uidCount)
        for _ in 0..<uidCount {
            guard let uid = reader.text(), let source = reader.number(), names.indices.contains(source),
                  owners.updateValue(source, forKey: String(decoding: uid, as: UTF8.self)) == nil else { return nil }
        }
        guard let runCount = reader.count() else { return nil }
        var runs: [(source: Int, line: Int, count: Int)] = []
        for _ in 0..<runCount {
            guard let source = reader.number(), source >= -1, source < names.count,
                  let line = reader.number(), line >= 0, let count = reader.count(), count > 0, count <= Int.max - line else { return nil }
            runs.append((source, line, count))
        }
        // No more origins than the text has lines (the join's last line has none), checked before any is made.
        guard let text = reader.text(), runs.reduce(0, { $0 + $1.count }) <= text.reduce(0, { $0 + ($1 == 0x0A ? 1 : 0) }),
              let checked = reader.number(), checked == 0 || checked == 1 else { return nil }
        var origin: [Origin] = []
        origin.reserveCapacity(runs.reduce(0) { $0 + $1.count })
        for run in runs {
            for k in 0..<run.count { origin.append(Origin(source: run.source, line: run.line + k)) }
        }
        var libicalClean: String?
        if checked == 1 {
            guard let key = reader.text() else { return nil }
            libicalClean = String(decoding: key, as: UTF8.self)
        }
        guard bytes[reader.at...].elementsEqual(Self.lastLine) else { return nil }
        self.init(names: names, maxLineBytes: maxLineBytes, horari: String(decoding: horari, as: UTF8.self), zones: zones, alone: alone,
                  notes: notes, owners: owners, text: Array(text), origin: origin, libicalClean: libicalClean)
    }

    /// Reads ``encoded``'s numbers and texts, each in bounds or `nil`.
    private struct Reader {
        let bytes: ArraySlice<UInt8>
        var at: Int

        /// A decimal (an `Int`, a `-` before it allowed) and its `;`.
        mutating func number() -> Int? { decimal(endedBy: UInt8(ascii: ";"), signed: true) }

        /// A count of things each at least a byte long: never more than the bytes left.
        mutating func count() -> Int? {
            guard let n = decimal(endedBy: UInt8(ascii: ";"), signed: false), n <= bytes.endIndex - at else { return nil }
            return n
        }

        /// A length, `:` and that many bytes.
        mutating func text() -> ArraySlice<UInt8>? {
            guard let n = decimal(endedBy: UInt8(ascii: ":"), signed: false), n <= bytes.endIndex - at else { return nil }
            defer { at += n }
            return bytes[at..<(at + n)]
        }

        private mutating func decimal(endedBy end: UInt8, signed: Bool) -> Int? {
            var i = at
            let negative = signed && i < bytes.endIndex && bytes[i] == UInt8(ascii: "-")
            if negative { i += 1 }
            var n = 0
            let first = i
            while i < bytes.endIndex, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[i]) {
                let (tens, over) = n.multipliedReportingOverflow(by: 10)
                let (sum, overAgain) = tens.addingReportingOverflow(Int(bytes[i] - UInt8(ascii: "0")))
                guard !over, !overAgain else { return nil }
                n = sum
                i += 1
            }
            guard i > first, i < bytes.endIndex, bytes[i] == end else { return nil }
            at = i + 1
            return negative ? -n : n
        }
    }
}
