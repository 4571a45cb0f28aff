import Foundation

/// One line on standard error, rewritten in place, while a large file is read
/// or written: only on a terminal (a pipe or a log gets nothing) and only for
/// files of a megabyte or more, where the wait is long enough to wonder.
struct ProgressLine {
    /// Files from this size on get a progress line.
    static let threshold = 1 << 20

    let enabled: Bool
    private let total: Int

    /// A progress line for a file of `bytes` bytes.
    init(bytes: Int, environment: [String: String] = ProcessInfo.processInfo.environment) {
        enabled = bytes >= Self.threshold && isatty(STDERR_FILENO) == 1 && environment["TERM"] != "dumb"
        total = bytes
    }

    /// A progress line for the file at `path` (none when it cannot be measured).
    init(file path: String) {
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        self.init(bytes: attributes?[.size] as? Int ?? 0)
    }

    /// "Importing big.ics: 12.0 of 25.3 MB (47%)".
    func update(_ verb: String, _ name: String, done: Int) {
        guard enabled else { return }
        let percent = total > 0 ? min(100, done * 100 / total) : 0
        show("\(verb) \(name): \(megabytes(done)) of \(megabytes(total)) MB (\(percent)%)")
    }

    /// A step without a measure: "Merging 50,000 items…".
    func show(_ text: String) {
        guard enabled else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K\(text)".utf8))
    }

    /// Clears the line, so what follows starts on a clean one.
    func finish() {
        guard enabled else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    }

    private func megabytes(_ bytes: Int) -> String { String(format: "%.1f", Double(bytes) / 1_000_000) }
}
