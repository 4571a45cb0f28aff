import CalendarCore
import Foundation
import ICalendarKit

/// What one fuzz input must survive, for each fuzzed entry point.
///
/// Not API: shared by the libFuzzer executables (`Fuzz/ICalendarImport`,
/// `Fuzz/Recurrence`) and the tests that replay every input the fuzzers ever
/// broke (`Tests/Fixtures/fuzz`). A crash is the fuzzer's
/// own finding; ``check(_:)`` adds the properties a crash would not reveal,
/// so that the fuzzer also hunts for wrong answers.
public enum FuzzTarget: String, CaseIterable, Sendable {
    /// `ICalendarImporter` on arbitrary bytes, then export → import → export.
    case icalendarImport = "import"
    /// `RecurrenceRule` parsing and `RecurrenceSet` expansion.
    case recurrence

    /// The properties `bytes` broke, each described for a person; empty when it passed.
    public func check(_ bytes: [UInt8]) -> [String] {
        switch self {
        case .icalendarImport: Self.checkImport(bytes)
        case .recurrence: Self.checkRecurrence(bytes)
        }
    }

    /// Runs ``check(_:)`` and stops the process, printing what broke, when
    /// anything did: libFuzzer then saves the input as a crash.
    public func runOrTrap(_ buffer: UnsafeRawBufferPointer) {
        let broken = check(Array(buffer))
        guard !broken.isEmpty else { return }
        FileHandle.standardError.write(Data(("fuzz property broken (\(rawValue)):\n" + broken.joined(separator: "\n") + "\n").utf8))
        abort()
    }

    // MARK: - Import

    /// Fixed, so that two exports of the same calendar are comparable byte for byte.
    private static let exporter = ICalendarExporter(options: .init(timestamp: Date(timeIntervalSince1970: 1_795_000_000)))

    /// The physical lines of an input as the importer numbers them: LF ends
    /// a line; when the first line break is a bare CR (classic Mac OS), a CR,
    /// an LF and a CRLF each end one.
    static func physicalLines(_ bytes: [UInt8]) -> Int {
        let first = bytes.indices.first { bytes[$0] == 10 || bytes[$0] == 13 }
        guard let first, bytes[first] == 13, first + 1 == bytes.count || bytes[first + 1] != 10 else {
            return bytes.reduce(1) { $0 + ($1 == 10 ? 1 : 0) }
        }
        var count = 1
        for i in bytes.indices where bytes[i] == 13 || (bytes[i] == 10 && (i == 0 || bytes[i - 1] != 13)) { count += 1 }
        return count
    }

    private static func checkImport(_ bytes: [UInt8]) -> [String] {
        var broken: [String] = []
        let lineCount = physicalLines(bytes)
        // Small limits, so that the fuzzer reaches them with small inputs.
        let options = ImportOptions(maxLineBytes: 512, maxComponentBytes: 2048, maxDepth: 4)
        for strict in [false, true] {
            var options = options
            options.strict = strict
            let result: ImportResult
            do {
                result = try ICalendarImporter(options: options).importCalendar(from: Data(bytes))
            } catch {
                // A typed error with a message is the documented answer.
                if error.message.isEmpty { broken.append("an ICalendarError with no message") }
                continue
            }
            for d in result.diagnostics where !(1...lineCount + 1).contains(d.line) {
                broken.append("diagnostic on line \(d.line) of a \(lineCount)-line input: \(d)")
            }
            if strict, result.hasErrors { broken.append("strict import returned errors instead of throwing") }
            if strict { continue }
            // Lossless: what we write, we read back to the same text.
            let first = exporter.export(result.calendar)
            do {
                let again = try ICalendarImporter().importCalendar(from: first)
                let second = exporter.export(again.calendar)
                if second != first {
                    broken.append("export → import → export differs:\n--- first\n\(first)--- second\n\(second)")
                }
            } catch {
                broken.append("our own export does not import: \(error)\n\(first)")
            }
        }
        return broken
    }

    // MARK: - Recurrence

    /// Reads `DTSTART`, `RRULE`, `RDATE` and `EXDATE` lines (one value each;
    /// `DTSTART` may carry `;TZID=`), expands the set and checks what it gave.
    private static func checkRecurrence(_ bytes: [UInt8]) -> [String] {
        var broken: [String] = []
        let text = String(decoding: bytes, as: UTF8.self)
        var start = CalendarTime.floating(LocalDateTime(localSeconds: 1_767_258_000))  // 2026-01-01 09:00
        var rules: [RecurrenceRule] = []
        var additions: [CalendarTime] = []
        var exclusions: [CalendarTime] = []
        for raw in text.split(whereSeparator: \.isNewline) {
            guard let colon = raw.firstIndex(of: ":") else { continue }
            let params = raw[..<colon].split(separator: ";")
            let name = params.first?.uppercased() ?? ""
            let tzid = params.dropFirst().first { $0.uppercased().hasPrefix("TZID=") }.map { String($0.dropFirst(5)) }
            let value = raw[raw.index(after: colon)...]
            switch name {
            case "DTSTART":
                if let t = try? CalendarTime(icalValue: value, tzid: tzid) { start = t }
            case "RRULE":
                broken += checkRule(value)
                if let parsed = try? RecurrenceRule.parse(value, mode: .lenient) { rules.append(parsed.rule) }
            case "RDATE", "EXDATE":
                for v in value.split(separator: ",") {
                    guard let t = try? CalendarTime(icalValue: v, tzid: tzid) else { continue }
                    if name == "RDATE" { additions.append(t) } else { exclusions.append(t) }
                }
            default: continue
            }
        }
        let set = RecurrenceSet(start: start, rules: rules, additions: additions, exclusions: exclusions)
        guard (try? set.validate()) != nil else { return broken }
        let zone = (try? ZoneRules.named("Europe/Madrid")) ?? .utc
        let from = Date(timeIntervalSince1970: 1_700_000_000)
        let to = Date(timeIntervalSince1970: 1_900_000_000)
        let limit = 64
        let window: [RecurrenceSet.Instance]
        let first: [RecurrenceSet.Instance]
        do {
            window = try set.instances(from: from, to: to, limit: limit, floatingZone: zone)
            first = try set.instances(limit: limit, floatingZone: zone)
        } catch {
            return broken  // an unknown zone: a typed error is the answer
        }
        for (name, list) in [("window", window), ("first", first)] {
            if list.count > limit { broken.append("\(name): \(list.count) instances, over the limit of \(limit)") }
            for (a, b) in zip(list, list.dropFirst()) where !(a < b) {
                broken.append("\(name): instances out of order or repeated: \(a.start.icalValue) then \(b.start.icalValue)")
                break
            }
        }
        for i in window where i.epochSeconds < 1_700_000_000 || i.epochSeconds >= 1_900_000_000 {
            broken.append("window: \(i.start.icalValue) lies outside it")
            break
        }
        // The lazy iterator and the expansion agree.
        if var iterator = try? set.makeIterator(floatingZone: zone) {
            var lazy: [RecurrenceSet.Instance] = []
            while lazy.count <= limit, let next = iterator.next() { lazy.append(next) }
            if Array(lazy.prefix(limit)) != first {
                broken.append("the iterator's first \(min(lazy.count, limit)) instances differ from instances(limit:)'s \(first.count)")
            }
        }
        // A single rule with COUNT and nothing added gives at most COUNT instances.
        if rules.count == 1, additions.isEmpty, let count = rules[0].count, first.count > count {
            broken.append("COUNT=\(count) but \(first.count) instances")
        }
        return broken
    }

    /// What a rule's text must satisfy whatever it holds.
    private static func checkRule(_ value: Substring) -> [String] {
        var broken: [String] = []
        if let rule = try? RecurrenceRule(parsing: value) {
            // Documented: parsing `icalValue` gives back an equal rule.
            if let again = try? RecurrenceRule(parsing: rule.icalValue) {
                if again != rule { broken.append("RRULE:\(value) → \(rule.icalValue) reads back as another rule, \(again.icalValue)") }
            } else {
                broken.append("RRULE:\(value) is valid, but its canonical form \(rule.icalValue) is not")
            }
        }
        if let lenient = try? RecurrenceRule.parse(value, mode: .lenient) {
            if let again = try? RecurrenceRule.parse(lenient.rule.icalValue, mode: .lenient), again.rule != lenient.rule {
                broken.append("lenient RRULE:\(value) → \(lenient.rule.icalValue) reads back as \(again.rule.icalValue)")
            }
        }
        return broken
    }
}
