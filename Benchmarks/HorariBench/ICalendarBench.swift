import CLibICal
import CalendarCore
import Foundation
import ICalendarKit

#if canImport(Glibc)
import Glibc
#endif

/// Import and export of the synthetic calendar against libical in the same
/// process: libical's bare parse of the whole file, and libical's serialiser
/// on the tree it parsed. Peak memory of our import is measured in a child
/// process (`HorariBench --import-only FILE`) so nothing else counts in it.
enum ICalendarBench {
    static func run(count: Int) throws {
        let calendar = ICalendar(name: "Synthetic", items: try SyntheticCalendar(count: count).items)
        let exporter = ICalendarExporter(options: .init(timestamp: Date(timeIntervalSince1970: 1_790_000_000)))
        var data = Data()
        let exportTime = HorariBench.seconds { data = exporter.exportData(calendar) }
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("horari-bench-\(getpid()).ics")
        try data.write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let megabytes = Double(data.count) / 1_048_576

        // libical: parse the whole file, then serialise the tree.
        var text = [CChar](repeating: 0, count: data.count + 1)
        data.withUnsafeBytes { raw in
            for (i, b) in raw.enumerated() { text[i] = CChar(bitPattern: b) }
        }
        var libParse = 0.0
        var libSerialise = 0.0
        var libicalBytes = 0
        LibICal.serialized {
            var tree: OpaquePointer?
            libParse = HorariBench.seconds { tree = icalparser_parse_string(text) }
            libSerialise = HorariBench.seconds {
                if let tree, let out = icalcomponent_as_ical_string_r(tree) {
                    libicalBytes = strlen(out)
                    icalmemory_free_buffer(out)
                }
            }
            if let tree { icalcomponent_free(tree) }
        }
        var imported = 0
        let importTime = try HorariBench.seconds {
            imported = try ICalendarImporter().importCalendar(contentsOf: url).calendar.items.count
        }
        let peak = childPeakResidentBytes(url)
        print("iCalendar import and export: \(count) events, \(String(format: "%.1f", megabytes)) MB file (\(imported) items imported)")
        print(HorariBench.row("", "Horari", "libical", "ratio"))
        print(HorariBench.row("import (parse + mapping)", String(format: "%.2f s  %.1f MB/s", importTime, megabytes / importTime),
                              String(format: "%.2f s", libParse), String(format: "%.2f× (target ≤ 1.5×)", importTime / libParse)))
        print(HorariBench.row("export", String(format: "%.2f s  %.1f MB/s", exportTime, megabytes / exportTime),
                              String(format: "%.2f s", libSerialise), String(format: "%.2f× (target ≤ 1.3×; libical wrote %.1f MB)", exportTime / libSerialise, Double(libicalBytes) / 1_048_576)))
        if let peak {
            print(HorariBench.row("import peak resident memory", String(format: "%.0f MB", Double(peak) / 1_048_576), "",
                                  String(format: "%.2f× the file (target ≤ 3×)", Double(peak) / Double(data.count))))
        }
    }

    /// Runs `HorariBench --import-only FILE` and returns its peak resident set.
    static func childPeakResidentBytes(_ url: URL) -> Int? {
        let child = Process()
        child.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        child.arguments = ["--import-only", url.path]
        let pipe = Pipe()
        child.standardOutput = pipe
        do { try child.run() } catch { return nil }
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        child.waitUntilExit()
        return Int(String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// The child's side: import the file and print the peak resident set in bytes.
    static func importOnly(_ path: String) throws {
        let result = try ICalendarImporter().importCalendar(contentsOf: URL(fileURLWithPath: path))
        var usage = rusage()
        getrusage(Int32(RUSAGE_SELF.rawValue), &usage)
        withExtendedLifetime(result) { print(Int(usage.ru_maxrss) * 1024) }
    }
}

