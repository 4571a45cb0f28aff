import CalendarCore
import Foundation
import ICalendarKit

// Each file is imported, its occurrences listed over a window, exported, and
// the export imported again: the same occurrences must come back. Nothing here
// needs libical, and the output is the same with it (`--traits WithLibICal`).
print(ImportOptions.libicalIsAvailable ? "libical: checks each import" : "libical: none (Swift reader and writer only)")

let files = CommandLine.arguments.dropFirst().map { URL(fileURLWithPath: $0) }
let bundled = ["marta-google", "outlook-budget"].compactMap { Bundle.module.url(forResource: $0, withExtension: "ics") }
let window = DateInterval(start: Date(timeIntervalSince1970: 946_684_800), end: Date(timeIntervalSince1970: 1_893_456_000))  // 2000–2030, UTC

/// The occurrences a calendar has in the window, one line each, at most 2,000 a series.
func lines(_ calendar: ICalendar) -> [String] {
    var perSeries: [String: Int] = [:]
    var found: [String] = []
    var all = calendar.schedule().occurrenceSequence(in: window).makeIterator()
    while let o = all.next() {
        perSeries[o.id.uid, default: 0] += 1
        if perSeries[o.id.uid] == 2_000 { all.skipRemaining(ofSeries: o.id.uid) }
        found.append("\(o.startInstant.formatted(.iso8601)) – \(o.endInstant.formatted(.iso8601))  \(o.item.title)")
    }
    return found
}

var failed = false
for url in files.isEmpty ? bundled : files {
    do {
        let read = try ICalendarImporter().importCalendar(contentsOf: url)
        let producer = read.calendar.productID ?? "no PRODID"
        let occurrences = lines(read.calendar)
        let ours = read.diagnostics.filter { $0.code != .libicalError }  // libical's own findings come only with it
        print("\(url.lastPathComponent) (\(producer)): \(read.calendar.items.count) items, \(occurrences.count) occurrences, \(ours.count) diagnostics")
        for line in occurrences.prefix(4) { print("  \(line)") }
        if occurrences.count > 4 { print("  … and \(occurrences.count - 4) more") }
        let exported = ICalendarExporter().export(read.calendar)
        let again = try ICalendarImporter().importCalendar(from: exported).calendar
        let same = lines(again) == occurrences
        print("  exported (\(exported.utf8.count) bytes) and read back: \(same ? "the same occurrences" : "OTHER OCCURRENCES")")
        failed = failed || !same
    } catch {
        print("\(url.lastPathComponent): \(error.localizedDescription)")
        failed = true
    }
}
if failed { exit(1) }
