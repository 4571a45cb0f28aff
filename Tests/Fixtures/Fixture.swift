import Foundation

/// The test data in `Tests/Fixtures`, shared by the test targets.
///
/// Not API: the module exists so that every test target reaches the same
/// files, each kept once: `ics/` (real and broken calendar files), `fuzz/`
/// (every input a fuzzer broke, by target), `dateutil_rrule_cases.json`
/// and `ciede2000_css_vs_red.json` (generated references). The Makefile,
/// the conformance and fuzz scripts and the CLI's tests read the same
/// folder by its path in the repository.
///
/// ```swift
/// let text = try Fixture.text("ics/gym.ics")
/// let findings = try Fixture.url("fuzz/import")
/// ```
public enum Fixture {
    /// A fixture that is not there.
    public struct Missing: Error, CustomStringConvertible {
        /// The fixture's path under `Tests/Fixtures`.
        public var path: String
        /// Names the fixture and where it should be.
        public var description: String { "no fixture Tests/Fixtures/\(path) in the test bundle" }
    }

    /// The URL of a fixture file or folder.
    ///
    /// - Parameter path: the fixture's path under `Tests/Fixtures`, such as
    ///   `"ics/gym.ics"` or `"fuzz/import"`.
    /// - Throws: ``Missing`` when the bundle has no such fixture.
    public static func url(_ path: String) throws(Missing) -> URL {
        let parts = path.split(separator: "/").map(String.init)
        guard let name = parts.last,
              let url = Bundle.module.url(
                  forResource: name, withExtension: nil,
                  subdirectory: parts.count > 1 ? parts.dropLast().joined(separator: "/") : nil)
        else { throw Missing(path: path) }
        return url
    }

    /// The bytes of a fixture file.
    ///
    /// - Parameter path: the file's path under `Tests/Fixtures`.
    /// - Throws: ``Missing``, or the error reading the file.
    public static func data(_ path: String) throws -> Data {
        try Data(contentsOf: url(path))
    }

    /// The text of a fixture file, read as UTF-8.
    ///
    /// - Parameter path: the file's path under `Tests/Fixtures`.
    /// - Throws: ``Missing``, or the error reading the file.
    public static func text(_ path: String) throws -> String {
        try String(contentsOf: url(path), encoding: .utf8)
    }
}
