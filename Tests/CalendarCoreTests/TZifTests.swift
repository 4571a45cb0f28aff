@testable import CalendarCore
import Foundation
import Testing

/// The system's compiled tz files (RFC 8536) as the source of named zones'
/// rules, checked against Foundation's ICU copy of the same database, and
/// their footer rules against CPython's `zoneinfo` on RFC 8536's examples.
@Suite("tz files")
struct TZifTests {
    /// Where the tz file's table and ICU's disagree in 1970–2150, by zone.
    static func disagreements() -> (offsets: [String: String], daylight: [String: [Int64]], compared: Int) {
        let start: Int64 = 0, end: Int64 = 5_680_281_600
        var offsets: [String: String] = [:], daylight: [String: [Int64]] = [:], compared = 0
        for id in TimeZone.knownTimeZoneIdentifiers {
            guard let file = TZif.zone(id), let zone = TimeZone(identifier: id) else { continue }
            compared += 1
            let a = ZoneRules(identifier: id, file: file).transitions(from: start, to: end)
            let b = ZoneRules(zone).transitions(from: start, to: end)
            if a.map(\.instant) != b.map(\.instant) || a.map(\.offsetAfter) != b.map(\.offsetAfter) {
                let first = zip(a, b).first { $0.instant != $1.instant || $0.offsetAfter != $1.offsetAfter }
                offsets[id] = "\(a.count) vs \(b.count) changes, first apart: \(first.map { "\($0.0.instant) \($0.0.offsetAfter) vs \($0.1.instant) \($0.1.offsetAfter)" } ?? "past the shorter")"
            } else {
                let apart = zip(a, b).filter { $0.isDaylightSaving != $1.isDaylightSaving }.map(\.0.instant)
                if !apart.isEmpty { daylight[id] = apart }
            }
        }
        return (offsets, daylight, compared)
    }

    @Test("every zone's table from its tz file agrees with ICU's from 1970 to 2150, past the file's last change")
    func tablesAgreeWithICU() throws {
        let (offsets, daylight, compared) = Self.disagreements()
        #expect(compared > 300, "this machine's tzdata (/usr/share/zoneinfo) should hold ICU's zones")
        // The two copies of the database may be a release apart: a zone that
        // changed in between may differ, but not more than a handful, and
        // never the zones the tests and samples use.
        #expect(offsets.count <= compared / 50, "\(offsets)")
        for id in ["Europe/Madrid", "Europe/London", "Europe/Dublin", "America/New_York", "America/Los_Angeles", "America/Sao_Paulo",
                   "Asia/Tokyo", "Asia/Kolkata", "Australia/Sydney", "Australia/Lord_Howe", "Pacific/Auckland", "Pacific/Chatham",
                   "Pacific/Apia", "Africa/Johannesburg", "America/Nuuk", "Asia/Jerusalem"] {
            #expect(offsets[id] == nil, "\(id): \(offsets[id] ?? "")")
        }
        // Daylight flags: ICU calls some past changes of standard time
        // daylight time (Moscow's move to +04 for good in March 2011); the
        // tz database's own flag is kept there. Since 2018 they agree.
        #expect(daylight.values.allSatisfy { $0.allSatisfy { $0 < 1_514_764_800 } }, "\(daylight)")
        #expect(daylight["Europe/Dublin"] == nil && daylight["Africa/Windhoek"] == nil, "negative daylight saving reads as ICU reads it")
    }

    @Test("footer rules give the changes CPython's zoneinfo and glibc give (RFC 8536 §3.3 forms)", arguments: [
        ("EST5EDT,M3.2.0,M11.1.0", [(1_899_356_400, -14400), (1_919_916_000, -18000)]),
        // 26 hours: the Friday before the last Sunday of March, 02:00.
        ("IST-2IDT,M3.4.4/26,M10.5.0", [(1_900_972_800, 10800), (1_919_286_000, 7200)]),
        // A negative time: 23:00 the day before.
        ("<-02>2<-01>,M3.5.0/-1,M10.5.0/0", [(1_901_149_200, -3600), (1_919_293_200, -7200)]),
        // The southern hemisphere: out of daylight time first.
        ("AEST-10AEDT,M10.1.0,M4.1.0/3", [(1_901_721_600, 36000), (1_917_446_400, 39600)]),
        ("<+1030>-10:30<+11>-11,M10.1.0,M4.1.0", [(1_901_718_000, 37800), (1_917_444_600, 39600)]),
        // Julian (29 February not counted: J60 is 1 March) and zero-based
        // days (300 is 28 October in 2030). Here CPython (3.11) says
        // 27 October, a day early; POSIX counts from 0 on 1 January, and
        // glibc agrees with us: `TZ='XXX3YYY,J60/2,300/3' date -d @1919394000`
        // is the first second of standard time.
        ("XXX3YYY,J60/2,300/3", [(1_898_571_600, -7200), (1_919_394_000, -10800)]),
    ])
    func footerRules(_ text: String, _ expected: [(Int, Int)]) throws {
        let rule = try #require(PosixRule(text))
        let year = rule.transitions(in: 2030).map { (Int($0.0), $0.1.offset) }
        #expect(year.map(\.0) == expected.map(\.0))
        #expect(year.map(\.1) == expected.map(\.1))
    }

    @Test("daylight time all year (EST5EDT,0/0,J365/25) is one offset, with no change at the turn of the year")
    func daylightAllYear() throws {
        let rule = try #require(PosixRule("EST5EDT,0/0,J365/25"))
        #expect(rule.type(atInstant: 1_909_000_000).offset == -14400)
        var file = TZif()
        file.types = [.init(offset: -18000, isDaylight: false, name: "EST")]
        file.times = [0]
        file.typeIndices = [0]
        file.rule = rule
        let table = file.table(from: 0, to: 1_990_000_000)
        #expect(table.changes.map(\.type.offset) == [-14400], "one change, into daylight time, in 1970")
    }

    @Test("malformed footers are refused rather than half read", arguments: ["", "C", "CET", "CET-1CEST", "CET-1CEST,M3.5.0", "CET-1CEST,M13.5.0,M10.5.0", "CET-1CEST,M3.6.0,M10.5.0", "CET-1CEST,J0,J365", "<>5"])
    func malformedFooters(_ text: String) {
        #expect(PosixRule(text) == nil)
    }

    @Test("abbreviations are the tz database's, period by period")
    func abbreviations() throws {
        let madrid = try ZoneRules.named("Europe/Madrid")
        #expect(madrid.abbreviation(atInstant: 1_767_225_600) == "CET")  // 2026-01-01
        #expect(madrid.abbreviation(atInstant: 1_782_864_000) == "CEST")  // 2026-07-01
        #expect(madrid.abbreviation(atInstant: 4_102_444_800 + 180 * 86_400) == "CEST", "2100, from the footer rule")
        #expect(try ZoneRules.named("America/Sao_Paulo").abbreviation(atInstant: 1_767_225_600) == "-03")
        // Moscow was +04 twice: as summer time (MSD) in 2009 and as standard time (MSK) in 2012.
        let moscow = try ZoneRules.named("Europe/Moscow")
        #expect(moscow.abbreviation(atInstant: 1_246_406_400) == "MSD")  // 2009-07-01
        #expect(moscow.abbreviation(atInstant: 1_341_100_800) == "MSK")  // 2012-07-01
    }

    @Test("names outside the zones are not zones: the posix and right trees, climbing out, empty parts")
    func notZones() {
        for name in ["posix/Europe/Madrid", "right/Europe/Madrid", "posixrules", "localtime", "../zoneinfo/Europe/Madrid", "Europe//Madrid", "/Europe/Madrid", "Europe", "zone.tab"] {
            #expect(TZif.zone(name) == nil, "\(name)")
        }
        #expect(TZif.zone("Europe/Madrid") != nil)
    }
}
