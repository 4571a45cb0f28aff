import CalendarCore
import Foundation
import Testing

@Suite("RecurrenceRule parsing, printing and validation")
struct RecurrenceRuleTests {
    @Test(arguments: [
        "FREQ=DAILY;COUNT=10",
        "FREQ=WEEKLY;UNTIL=19971224T000000Z;INTERVAL=2;BYDAY=MO,WE,FR;WKST=SU",
        "FREQ=MONTHLY;BYDAY=-1FR,2TU;BYSETPOS=-1",
        "FREQ=YEARLY;BYWEEKNO=20,-1;BYDAY=MO",
        "FREQ=YEARLY;BYYEARDAY=1,-366;BYMONTH=2",
        "FREQ=SECONDLY;BYSECOND=0,30;BYMINUTE=5;BYHOUR=9",
    ])
    func canonicalFormParsesBack(_ text: String) throws {
        let rule = try RecurrenceRule(parsing: text)
        let printed = rule.icalValue
        #expect(try RecurrenceRule(parsing: printed) == rule)
        #expect(printed.hasPrefix("FREQ="))
    }

    @Test func partsAreRead() throws {
        let rule = try RecurrenceRule(parsing: "rrule:freq=monthly;interval=2;byday=+2tu,-1FR;bymonthday=-3")
        #expect(rule.frequency == .monthly)
        #expect(rule.interval == 2)
        #expect(rule.byDay == [.init(2, .tuesday), .init(-1, .friday)])
        #expect(rule.byMonthDay == [-3])
        #expect(rule.icalValue == "FREQ=MONTHLY;INTERVAL=2;BYDAY=2TU,-1FR;BYMONTHDAY=-3")
    }

    struct Bad: Sendable, CustomTestStringConvertible {
        var rule: String
        var code: RecurrenceRuleError.Code
        var part: String?
        var testDescription: String { rule }
    }

    @Test(arguments: [
        Bad(rule: "COUNT=3", code: .missingFrequency, part: "FREQ"),
        Bad(rule: "FREQ=FORTNIGHTLY", code: .malformedValue, part: "FREQ"),
        Bad(rule: "FREQ=MONTHLY;BYWEEKNO=3", code: .partNotAllowed, part: "BYWEEKNO"),
        Bad(rule: "FREQ=DAILY;BYYEARDAY=100", code: .partNotAllowed, part: "BYYEARDAY"),
        Bad(rule: "FREQ=WEEKLY;BYYEARDAY=100", code: .partNotAllowed, part: "BYYEARDAY"),
        Bad(rule: "FREQ=MONTHLY;BYYEARDAY=100", code: .partNotAllowed, part: "BYYEARDAY"),
        Bad(rule: "FREQ=WEEKLY;BYMONTHDAY=3", code: .partNotAllowed, part: "BYMONTHDAY"),
        Bad(rule: "FREQ=WEEKLY;BYDAY=2MO", code: .partNotAllowed, part: "BYDAY"),
        Bad(rule: "FREQ=DAILY;BYDAY=-1FR", code: .partNotAllowed, part: "BYDAY"),
        Bad(rule: "FREQ=YEARLY;BYWEEKNO=1;BYDAY=1MO", code: .partNotAllowed, part: "BYDAY"),
        Bad(rule: "FREQ=MONTHLY;BYDAY=6MO", code: .valueOutOfRange, part: "BYDAY"),
        Bad(rule: "FREQ=YEARLY;BYDAY=54MO", code: .valueOutOfRange, part: "BYDAY"),
        Bad(rule: "FREQ=YEARLY;BYMONTH=13", code: .valueOutOfRange, part: "BYMONTH"),
        Bad(rule: "FREQ=YEARLY;BYMONTHDAY=0", code: .valueOutOfRange, part: "BYMONTHDAY"),
        Bad(rule: "FREQ=YEARLY;BYMONTHDAY=32", code: .valueOutOfRange, part: "BYMONTHDAY"),
        Bad(rule: "FREQ=YEARLY;BYYEARDAY=367", code: .valueOutOfRange, part: "BYYEARDAY"),
        Bad(rule: "FREQ=YEARLY;BYWEEKNO=54", code: .valueOutOfRange, part: "BYWEEKNO"),
        Bad(rule: "FREQ=DAILY;BYHOUR=24", code: .valueOutOfRange, part: "BYHOUR"),
        Bad(rule: "FREQ=DAILY;BYMINUTE=60", code: .valueOutOfRange, part: "BYMINUTE"),
        Bad(rule: "FREQ=DAILY;BYSECOND=61", code: .valueOutOfRange, part: "BYSECOND"),
        Bad(rule: "FREQ=DAILY;BYSETPOS=1", code: .missingCompanion, part: "BYSETPOS"),
        Bad(rule: "FREQ=DAILY;BYDAY=MO;BYSETPOS=0", code: .valueOutOfRange, part: "BYSETPOS"),
        Bad(rule: "FREQ=DAILY;COUNT=5;UNTIL=20260101T000000Z", code: .countAndUntil, part: "COUNT"),
        Bad(rule: "FREQ=DAILY;INTERVAL=0", code: .valueOutOfRange, part: "INTERVAL"),
        Bad(rule: "FREQ=DAILY;INTERVAL=two", code: .malformedValue, part: "INTERVAL"),
        Bad(rule: "FREQ=DAILY;COUNT=0", code: .valueOutOfRange, part: "COUNT"),
        Bad(rule: "FREQ=DAILY;UNTIL=20260231", code: .malformedValue, part: "UNTIL"),
        Bad(rule: "FREQ=DAILY;BYDAY=XX", code: .malformedValue, part: "BYDAY"),
        Bad(rule: "FREQ=DAILY;WKST=MONDAY", code: .malformedValue, part: "WKST"),
        Bad(rule: "FREQ=DAILY;FREQ=WEEKLY", code: .duplicatePart, part: "FREQ"),
        Bad(rule: "FREQ=DAILY;X-FOO=1", code: .unknownPart, part: "X-FOO"),
        Bad(rule: "FREQ=DAILY;RSCALE=GREGORIAN", code: .unknownPart, part: "RSCALE"),
        Bad(rule: "FREQ=DAILY;;COUNT=2", code: .malformedValue, part: nil),
    ])
    func strictRefusesNamingThePart(_ bad: Bad) {
        do {
            _ = try RecurrenceRule(parsing: bad.rule)
            Issue.record("accepted \(bad.rule)")
        } catch {
            #expect(error.code == bad.code)
            #expect(error.part == bad.part)
            #expect(!error.message.isEmpty)
            #expect(!error.message.hasSuffix("ignored"), "strict messages do not describe lenient repairs")
        }
    }

    @Test func errorCodesMatchInCatch() {
        do {
            _ = try RecurrenceRule(parsing: "FREQ=MONTHLY;BYWEEKNO=3")
        } catch let error where error.code == .partNotAllowed {
            return
        } catch {
            Issue.record("wrong error \(error)")
        }
        Issue.record("no error")
    }

    @Test func lenientRepairsAndReports() throws {
        let result = try RecurrenceRule.parse("FREQ=WEEKLY;COUNT=5;UNTIL=20260101T000000Z;BYDAY=2MO;BYMONTHDAY=3;X-NAME=keep;", mode: .lenient)
        #expect(result.rule.count == 5)
        #expect(result.rule.until == .utc(try LocalDateTime(year: 2026, month: 1, day: 1)))
        #expect(result.rule.byDay == [.init(.monday)])
        #expect(result.rule.byMonthDay.isEmpty)
        #expect(result.rule.extensionParts == [.init(name: "X-NAME", value: "keep")])
        #expect(Set(result.issues.map(\.code)) == [.countAndUntil, .partNotAllowed, .unknownPart, .malformedValue])
        #expect(result.rule.icalValue.hasSuffix("X-NAME=keep"))
    }

    @Test func lenientStillNeedsAFrequency() {
        #expect(throws: RecurrenceRuleError.self) { try RecurrenceRule.parse("COUNT=2", mode: .lenient) }
    }

    @Test("COUNT and UNTIL together end at whichever comes first (lenient)")
    func countAndUntilTogether() throws {
        let rule = try RecurrenceRule.parse("FREQ=DAILY;COUNT=10;UNTIL=20260105T090000", mode: .lenient).rule
        let set = RecurrenceSet(start: .floating(try LocalDateTime(year: 2026, month: 1, day: 1, hour: 9)), rules: [rule])
        #expect(try set.instances().count == 5)
    }

    /// recurring-ical-events' issue_128_only_first_event.ics: a producer
    /// wrote `COUNT=-1` for "no count" beside an UNTIL. The invalid COUNT is
    /// ignored and UNTIL ends the rule: 7 Mondays, as the file's author and
    /// the peer see it (before, the repair said "ends at whichever comes
    /// first" and the rule gave only DTSTART).
    @Test("an invalid COUNT beside UNTIL is ignored; UNTIL ends the rule (lenient)")
    func invalidCountBesideUntil() throws {
        let parsed = try RecurrenceRule.parse("FREQ=WEEKLY;UNTIL=20240331;COUNT=-1;INTERVAL=4;BYDAY=MO", mode: .lenient)
        #expect(parsed.rule.count == nil)
        #expect(parsed.rule.until == .date(try LocalDate(year: 2024, month: 3, day: 31)))
        #expect(parsed.issues.map(\.code) == [.valueOutOfRange])
        #expect(parsed.issues.first?.message.contains("UNTIL ends the rule") == true)
        #expect(parsed.rule.icalValue == "FREQ=WEEKLY;UNTIL=20240331;INTERVAL=4;BYDAY=MO")
        let set = RecurrenceSet(start: .date(try LocalDate(year: 2023, month: 10, day: 2)), rules: [parsed.rule])
        let days = try set.instances().map { $0.start.icalValue }
        #expect(days == ["20231002", "20231030", "20231127", "20231225", "20240122", "20240219", "20240318"])
        // Alone, COUNT=0 still says what it says: DTSTART and nothing more.
        let alone = try RecurrenceRule.parse("FREQ=DAILY;COUNT=0", mode: .lenient)
        #expect(alone.rule.count == 0)
        #expect(try RecurrenceSet(start: .date(try LocalDate(year: 2026, month: 1, day: 1)), rules: [alone.rule]).instances().count == 1)
    }

    /// A date UNTIL on a date-time series is invalid by the letter of RFC 5545
    /// §3.3.10, and common: every peer (dateutil, recurring-ical-events,
    /// libical) reads it as the start of that day on the series' clock, so
    /// the day itself is not included. `validate()` still names it.
    @Test("a date UNTIL on a timed series ends at the start of that day", arguments: ["floating", "zoned", "utc"])
    func dateUntilOnTimedSeries(kind: String) throws {
        let nine = try LocalDateTime(year: 2026, month: 3, day: 2, hour: 9)
        let start: CalendarTime = kind == "floating" ? .floating(nine) : kind == "zoned" ? .zoned(nine, "Europe/Madrid") : .utc(nine)
        let set = RecurrenceSet(start: start, rules: [try RecurrenceRule(parsing: "FREQ=DAILY;UNTIL=20260305")])
        let days = try set.instances().map { $0.start.localDate.day }
        #expect(days == [2, 3, 4])
        #expect(throws: RecurrenceRuleError.self) { try set.validate() }
        // A timed instance at midnight on the UNTIL day is still included (inclusive bound).
        let midnight = start.withWallTime(try LocalDateTime(year: 2026, month: 3, day: 2))
        let atMidnight = RecurrenceSet(start: midnight, rules: [try RecurrenceRule(parsing: "FREQ=DAILY;UNTIL=20260305")])
        #expect(try atMidnight.instances().map { $0.start.localDate.day } == [2, 3, 4, 5])
    }

    @Test("a date start refuses BYHOUR and sub-daily rules; UNTIL must match DTSTART's type")
    func setValidation() throws {
        let day = CalendarTime.date(try LocalDate(year: 2026, month: 3, day: 2))
        #expect(throws: RecurrenceRuleError.self) {
            try RecurrenceSet(start: day, rules: [RecurrenceRule(parsing: "FREQ=DAILY;BYHOUR=9")]).validate()
        }
        #expect(throws: RecurrenceRuleError.self) {
            try RecurrenceSet(start: day, rules: [RecurrenceRule(parsing: "FREQ=HOURLY")]).validate()
        }
        let zoned = CalendarTime.zoned(try LocalDateTime(year: 2026, month: 3, day: 2, hour: 9), "Europe/Madrid")
        do {
            try RecurrenceSet(start: zoned, rules: [RecurrenceRule(parsing: "FREQ=DAILY;UNTIL=20260310T090000")]).validate()
            Issue.record("accepted a floating UNTIL for a zoned start")
        } catch {
            #expect(error.code == .untilTypeMismatch)
            #expect(error.message.contains("UTC"))
        }
    }
}
