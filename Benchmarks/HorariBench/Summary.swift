#if LibICal  // the benchmark measures against libical; without it, WithoutLibICal.swift
import CLibICal
import Foundation

/// The one table `make bench` ends with: each figure, its reference measured
/// in the same run, the ratio between them and the target the issues set.
struct Summary {
    struct Row {
        var measure: String
        var horari: String
        var reference: String
        var ratio: String
        var target: String
    }

    var rows: [Row] = []

    mutating func add(_ measure: String, _ horari: String, _ reference: String, _ ratio: String, _ target: String = "") {
        rows.append(Row(measure: measure, horari: horari, reference: reference, ratio: ratio, target: target))
    }

    /// A Markdown table, to paste into Benchmarks/RESULTS.md as it is.
    func table() -> String {
        var out = "| measure | Horari | reference (same run) | ratio | target |\n|---|---|---|---|---|\n"
        for r in rows { out += "| \(r.measure) | \(r.horari) | \(r.reference) | \(r.ratio) | \(r.target) |\n" }
        return out
    }

    /// Where the figures were measured: cores, memory, processor, system, Swift, libical.
    static func machine() -> String {
        func firstLine(_ path: String, _ prefix: String) -> String? {
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
            return text.split(separator: "\n").first { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)).trimmingCharacters(in: .whitespaces) }
        }
        let cpu = firstLine("/proc/cpuinfo", "model name\t:") ?? "unknown processor"
        let memory = Double(ProcessInfo.processInfo.physicalMemory) / 1_073_741_824
        let os = firstLine("/etc/os-release", "PRETTY_NAME=")?.replacingOccurrences(of: "\"", with: "") ?? ProcessInfo.processInfo.operatingSystemVersionString
        #if compiler(>=6.4)
        let swift = "Swift 6.4 or later"
        #elseif compiler(>=6.3)
        let swift = "Swift 6.3"
        #else
        let swift = "Swift 6.2 or earlier"
        #endif
        return "\(ProcessInfo.processInfo.processorCount) cores (\(cpu)), \(String(format: "%.0f", memory)) GiB, \(os), \(swift), libical \(LibicalVersion.text)"
    }
}

/// Formatting shared by the rows.
enum Figure {
    static func mbps(_ megabytes: Double, _ seconds: Double) -> String { String(format: "%.1f MB/s", megabytes / seconds) }
    static func rate(_ count: Double, _ seconds: Double) -> String { String(format: "%.0f/s", count / seconds) }
    static func mb(_ bytes: Int) -> String { String(format: "%.0f MB", Double(bytes) / 1_048_576) }
    /// `1.32× the time`: what the ratio divides says which way is better.
    static func times(_ x: Double, _ of: String) -> String { String(format: "%.2f× the ", x) + of }
}

/// The external references: libical alone in a process (`Benchmarks/libical_ref.c`,
/// built by `make bench`) and the Python peers (`Benchmarks/peers_bench.py`, in
/// the peers' virtual environment). Each is skipped, and says so, when missing.
enum References {
    static func argument(_ name: String) -> String? {
        guard let i = CommandLine.arguments.firstIndex(of: name), i + 1 < CommandLine.arguments.count else { return nil }
        return CommandLine.arguments[i + 1]
    }

    static var libical: URL? {
        let path = argument("--libical-ref") ?? ".build/libical_ref"
        return FileManager.default.isExecutableFile(atPath: path) ? URL(fileURLWithPath: path) : nil
    }

    static var python: URL? {
        let path = argument("--python") ?? ".venv-conformance/bin/python"
        return FileManager.default.isExecutableFile(atPath: path) ? URL(fileURLWithPath: path) : nil
    }

    /// Two numbers a reference program printed, or `nil` when it is missing or failed.
    static func run(_ program: URL?, _ arguments: [String]) -> (Double, Double)? {
        guard let program, let out = ICalendarBench.runChild(program, arguments) else { return nil }
        let parts = out.split(separator: " ").compactMap { Double($0) }
        return parts.count == 2 ? (parts[0], parts[1]) : nil
    }

    static func libical(_ mode: String, _ file: URL) -> (Double, Double)? { run(libical, [mode, file.path]) }

    static func python(_ arguments: [String]) -> (Double, Double)? {
        guard let python else { return nil }
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("peers_bench.py")
        return run(python, [script.path] + arguments)
    }
}

/// The libical the benchmark linked, from its headers.
enum LibicalVersion {
    static let text = "\(ICAL_MAJOR_VERSION).\(ICAL_MINOR_VERSION).\(ICAL_PATCH_VERSION)"
}
#endif
