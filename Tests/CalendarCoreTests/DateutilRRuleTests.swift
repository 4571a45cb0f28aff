import CalendarCore
import Foundation
import Testing
import _CalendarTestFixtures

/// python-dateutil's own rrule tests (its sdist's `tests/test_rrule.py`),
/// converted by `Scripts/convert_dateutil_rrule_tests.py` into
/// `Fixtures/dateutil_rrule_cases.json`: each case is a start, a rule and
/// dateutil's expected first occurrences.
///
/// Each case falls in one of three groups, decided here and not by hand:
/// - **RFC-valid, DTSTART synchronised** (dateutil's first occurrence is
///   DTSTART): we must give exactly dateutil's answer.
/// - **RFC-valid, DTSTART not synchronised**: RFC 5545 §3.8.5.3 makes DTSTART
///   the first instance and counts it toward COUNT; dateutil leaves it out.
///   We must give `[DTSTART] + dateutil`, cut to COUNT.
/// - **Not RFC-valid** (dateutil accepts what §3.3.10 forbids, such as
///   BYWEEKNO in a MONTHLY rule): strict parsing must refuse it with an error
///   naming the part. The list is in Docs/Recurrence.md.
@Suite("python-dateutil's rrule tests")
struct DateutilRRuleTests {
    struct Case: Decodable, Sendable, CustomTestStringConvertible {
        var name: String
        var dtstart: String
        var rrule: String
        var bounded: Bool
        var expected: [String]
        var testDescription: String { "\(name): \(rrule)" }
    }

    struct CaseFile: Decodable {
        var cases: [Case]
    }

    static let cases: [Case] = {
        guard let data = try? Fixture.data("dateutil_rrule_cases.json"),
            let fixture = try? JSONDecoder().decode(CaseFile.self, from: data)
        else { return [] }
        return fixture.cases
    }()

    enum Group: String { case synchronised, unsynchronised, rfcInvalid }

    static func group(_ c: Case) -> Group {
        do {
            let rule = try RecurrenceRule(parsing: c.rrule)
            try RecurrenceSet(start: CalendarTime(icalValue: c.dtstart), rules: [rule]).validate()
        } catch {
            return .rfcInvalid
        }
        return c.expected.first == c.dtstart ? .synchronised : .unsynchronised
    }

    @Test("the fixture is there and large")
    func fixtureLoads() {
        #expect(Self.cases.count > 400)
    }

    @Test(arguments: cases)
    func dateutilCase(_ c: Case) throws {
        switch Self.group(c) {
        case .rfcInvalid:
            // Strict parsing refuses, naming the part; lenient parsing reports it.
            #expect(throws: RecurrenceRuleError.self) {
                let rule = try RecurrenceRule(parsing: c.rrule)
                try RecurrenceSet(start: CalendarTime(icalValue: c.dtstart), rules: [rule]).validate()
            }
        case .synchronised, .unsynchronised:
            let rule = try RecurrenceRule(parsing: c.rrule)
            let start = try CalendarTime(icalValue: c.dtstart)
            var expected = c.expected.first == c.dtstart ? c.expected : [c.dtstart] + c.expected
            if let count = rule.count { expected = Array(expected.prefix(count)) }
            if !c.bounded { expected = Array(expected.prefix(c.expected.count)) }
            let set = RecurrenceSet(start: start, rules: [rule])
            let ours = try set.instances(limit: c.bounded ? nil : expected.count).map(\.start.icalValue)
            #expect(ours == expected)
        }
    }

    @Test("group sizes")
    func groups() {
        var counts: [String: Int] = [:]
        var invalid: [String] = []
        for c in Self.cases {
            let g = Self.group(c)
            counts[g.rawValue, default: 0] += 1
            if g == .rfcInvalid {
                var reason = ""
                do { _ = try RecurrenceRule(parsing: c.rrule) } catch { reason = error.description }
                invalid.append("\(c.name): \(c.rrule) — \(reason)")
            }
        }
        print("dateutil cases by group: \(counts.sorted { $0.key < $1.key })")
        if ProcessInfo.processInfo.environment["HORARI_LIST_INVALID"] != nil {
            print(invalid.joined(separator: "\n"))
        }
        // Guards against the fixture silently losing cases.
        #expect((counts["synchronised"] ?? 0) >= 80)
        #expect((counts["unsynchronised"] ?? 0) >= 250)
        #expect((counts["rfcInvalid"] ?? 0) >= 90)
    }
}
