import Foundation
import Testing

/// What a `horari` process loads before it does anything: libcurl and its two
/// dozen libraries are opened only when a CalDAV client makes its first
/// request (Docs/CalDAV.md, "libcurl is loaded at the first request").
@Suite("What every horari process loads")
struct FootprintTests {
    #if os(Linux)
    @Test("a command loads neither libcurl nor FoundationNetworking (the dynamic loader's own list)")
    func noHTTPLibraries() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        // glibc's loader lists the libraries it would load, and stops (what `ldd` does).
        let listed = try cli.run(["--version"], environment: ["LD_TRACE_LOADED_OBJECTS": "1"])
        #expect(listed.status == 0)
        let libraries = listed.stdout.split(separator: "\n").compactMap { line in
            line.split(whereSeparator: { $0 == " " || $0 == "\t" }).first.map(String.init)
        }
        #expect(libraries.contains { $0.hasPrefix("libswiftCore") }, "the list is the loader's: \(listed.stdout)")
        #expect(libraries.contains { $0.hasPrefix("libical") })
        #expect(!libraries.contains { $0.hasPrefix("libcurl") }, "\(libraries)")
        #expect(!libraries.contains { $0.hasPrefix("libFoundationNetworking") }, "\(libraries)")
        #expect(!libraries.contains { $0.hasPrefix("libgnutls") || $0.hasPrefix("libkrb5") || $0.hasPrefix("libldap") }, "\(libraries)")
    }
    #endif
}
