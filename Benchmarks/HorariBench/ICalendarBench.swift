#if LibICal  // the benchmark measures against libical; without it, WithoutLibICal.swift
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
    /// Both synthetic files: the plain one and the rich one (real apps' properties, about 20 MB at 50,000 events).
    static func run(count: Int, summary: inout Summary) throws {
        try run(count: count, rich: false, summary: &summary)
        print("")
        try run(count: count, rich: true, summary: &summary)
    }

    static func run(count: Int, rich: Bool, summary: inout Summary) throws {
        let calendar = ICalendar(name: "Synthetic", items: try SyntheticCalendar(count: count, rich: rich).items)
        let exporter = ICalendarExporter(options: .init(timestamp: Date(timeIntervalSince1970: 1_790_000_000)))
        // Every time is the best of `rounds`, each side's (this machine is noisy, and
        // the first round in a process pays for warming up the heap and the zone data).
        let rounds = 3
        var data = Data()
        var exportTime = Double.infinity
        for _ in 0..<rounds { exportTime = min(exportTime, HorariBench.seconds { data = exporter.exportData(calendar) }) }
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("horari-bench-\(getpid())-\(rich ? "rich" : "plain").ics")
        try data.write(to: url)
        // `--keep-file` leaves it for profiling (`perf record HorariBench --import-only FILE`).
        let keep = CommandLine.arguments.contains("--keep-file")
        defer { if keep { print("kept \(url.path)") } else { try? FileManager.default.removeItem(at: url) } }
        let megabytes = Double(data.count) / 1_048_576

        // libical: parse the whole file, then serialise the tree.
        var text = [CChar](repeating: 0, count: data.count + 1)
        data.withUnsafeBytes { raw in
            for (i, b) in raw.enumerated() { text[i] = CChar(bitPattern: b) }
        }
        var libParse = Double.infinity
        var libSerialise = Double.infinity
        var libicalBytes = 0
        for _ in 0..<rounds {
            LibICal.serialized {
                var tree: OpaquePointer?
                libParse = min(libParse, HorariBench.seconds { tree = icalparser_parse_string(text) })
                libSerialise = min(libSerialise, HorariBench.seconds {
                    if let tree, let out = icalcomponent_as_ical_string_r(tree) {
                        libicalBytes = strlen(out)
                        icalmemory_free_buffer(out)
                    }
                })
                if let tree { icalcomponent_free(tree) }
            }
        }
        var imported = 0
        var importTime = Double.infinity
        var importCPU = Double.infinity
        for _ in 0..<rounds {
            let cpuBefore = cpuSeconds()
            importTime = min(importTime, try HorariBench.seconds {
                imported = try ICalendarImporter().importCalendar(contentsOf: url).calendar.items.count
            })
            importCPU = min(importCPU, cpuSeconds() - cpuBefore)
        }
        let peak = childPeakResidentBytes(url)
        // The same child on an empty calendar: what the process costs before any data
        // (the Swift runtime, Foundation, ICU, libical), so the growth can be told apart.
        let emptyURL = url.deletingPathExtension().appendingPathExtension("empty.ics")
        try Data("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Horari//bench//EN\r\nEND:VCALENDAR\r\n".utf8).write(to: emptyURL)
        defer { try? FileManager.default.removeItem(at: emptyURL) }
        let baseline = childPeakResidentBytes(emptyURL)
        print("iCalendar import and export: \(count) \(rich ? "rich" : "plain") events, \(String(format: "%.1f", megabytes)) MB file (\(imported) items imported)")
        print(HorariBench.row("(best of \(rounds))", "Horari", "libical", "ratio"))
        print(HorariBench.row("import (parse + mapping)", String(format: "%.2f s  %.1f MB/s", importTime, megabytes / importTime),
                              String(format: "%.2f s", libParse), String(format: "%.2f× (target ≤ 1.5×)", importTime / libParse)))
        // libical's parse of each item runs on a second thread beside ours (see
        // LibICalChecker): the wall time above, the CPU time of both threads here.
        print(HorariBench.row("  CPU time of the import", String(format: "%.2f s", importCPU), "",
                              String(format: "%.2f× libical's parse", importCPU / libParse)))
        print(HorariBench.row("export", String(format: "%.2f s  %.1f MB/s", exportTime, megabytes / exportTime),
                              String(format: "%.2f s", libSerialise), String(format: "%.2f× (target ≤ 1.3×; libical wrote %.1f MB)", exportTime / libSerialise, Double(libicalBytes) / 1_048_576)))
        let kind = "\(rich ? "rich" : "plain") \(String(format: "%.1f", megabytes)) MB"
        // libical alone in a process (Benchmarks/libical_ref.c): its parse time and peak memory.
        let alone = References.libical("parse", url)
        let aloneOut = References.libical("serialize", url)
        // Each time beside libical alone when it ran, else beside libical in this process.
        func timeRow(_ measure: String, _ ours: Double, _ what: String, alone: Double?, inProcess: Double, _ target: String) {
            let (reference, label) = alone.map { ($0, what) } ?? (inProcess, what + ", in process")
            summary.add("\(measure), \(kind)", Figure.mbps(megabytes, ours), "libical \(label): " + Figure.mbps(megabytes, reference),
                        Figure.times(ours / reference, "time"), target)
        }
        timeRow("import", importTime, "parse", alone: alone?.0, inProcess: libParse, "≤ 1.5×")
        if let peak {
            let reference = alone.map { "libical parse: " + Figure.mb(Int($0.1)) + String(format: " (%.2f× the file)", $0.1 / Double(data.count)) } ?? "libical: skipped"
            // Issue 3's target is for the 50,000-event file of about 20 MB: the rich
            // one. The plain file is 9 MB, and the process's own 22 MB (runtime,
            // Foundation, ICU and libical's libraries, before any data) is 2.4×
            // it alone, so it is shown for context beside that baseline.
            let target = rich ? "≤ 3× the file" : "context: " + (baseline.map(Figure.mb) ?? "?") + " before any data"
            summary.add("import peak memory, \(kind)", Figure.mb(peak) + String(format: " (%.2f× the file)", Double(peak) / Double(data.count)), reference,
                        alone.map { Figure.times(Double(peak) / $0.1, "memory") } ?? "", target)
        }
        timeRow("export", exportTime, "serialiser", alone: aloneOut?.0, inProcess: libSerialise, "≤ 1.3×")
        if let (t, pythonPeak) = References.python(["parse", url.path]) {
            print(HorariBench.row("Python icalendar parse", "", String(format: "%.2f s, peak ", t) + Figure.mb(Int(pythonPeak)),
                                  String(format: "for context: %.1f× Horari's import", t / importTime)))
            summary.add("import vs Python, \(kind)", Figure.mbps(megabytes, importTime) + (peak.map { ", peak " + Figure.mb($0) } ?? ""),
                        "icalendar: " + Figure.mbps(megabytes, t) + ", peak " + Figure.mb(Int(pythonPeak)), Figure.times(importTime / t, "time"), "")
        } else {
            print("Python icalendar parse: skipped (make corpus installs the peers in .venv-conformance)")
        }
        if let (t, p) = alone {
            print(HorariBench.row("libical alone (libical_ref)", "", String(format: "parse %.2f s, peak ", t) + Figure.mb(Int(p)), ""))
        }
        if let peak, let baseline {
            let mb = { (bytes: Int) in String(format: "%.0f MB", Double(bytes) / 1_048_576) }
            print(HorariBench.row("import peak resident memory", mb(peak) + " (empty: " + mb(baseline) + ")", "",
                                  String(format: "%.2f× the file; %.2f× above the empty import" + (rich ? " (target ≤ 3×)" : " (context)"),
                                         Double(peak) / Double(data.count), Double(peak - baseline) / Double(data.count))))
        }
    }

    /// User and system CPU time of this process so far (every thread).
    static func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(Int32(RUSAGE_SELF.rawValue), &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }

    /// Runs `HorariBench --import-only FILE` and returns its peak resident set.
    static func childPeakResidentBytes(_ url: URL) -> Int? {
        runChild(URL(fileURLWithPath: CommandLine.arguments[0]), ["--import-only", url.path]).flatMap(Int.init)
    }

    /// Runs a program and returns its standard output, trimmed; `nil` when it cannot start.
    static func runChild(_ executable: URL, _ arguments: [String]) -> String? {
        let child = Process()
        child.executableURL = executable
        child.arguments = arguments
        let pipe = Pipe()
        child.standardOutput = pipe
        do { try child.run() } catch { return nil }
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        child.waitUntilExit()
        return String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The child's side: import the file and print its peak resident set in bytes.
    ///
    /// The peak is the kernel's `VmHWM` for this process, not `getrusage`'s
    /// `ru_maxrss`: Linux carries `ru_maxrss` over from the parent across
    /// fork and exec, so a child of a 200 MB benchmark reports at least
    /// 200 MB whatever it does (the first version of this benchmark fell for
    /// that). `VmHWM` belongs to the memory map that exec creates afresh.
    static func importOnly(_ path: String) throws {
        let result = try ICalendarImporter().importCalendar(contentsOf: URL(fileURLWithPath: path))
        withExtendedLifetime(result) { print(peakResidentBytes() ?? 0) }
    }

    /// `VmHWM` from `/proc/self/status`, in bytes.
    static func peakResidentBytes() -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
              let kB = Int(line.dropFirst(6).filter(\.isNumber)) else { return nil }
        return kB * 1024
    }
}
#endif
