import Foundation
import Testing

/// What a `horari` process loads before it does anything: libcurl and its two
/// dozen libraries are opened only when a CalDAV client makes its first
/// request, and libxml2 when it reads its first answer (Docs/CalDAV.md,
/// "libcurl is loaded at the first request").
@Suite("What every horari process loads")
struct FootprintTests {
    #if os(Linux)
    @Test("a command loads neither libcurl, FoundationNetworking, FoundationXML nor libxml2: not linked (the dynamic loader's own list), nor opened while it runs")
    func noHTTPLibraries() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        // What the loader opens while a local command runs (`LD_DEBUG=files` says each file on stderr).
        let month = try cli.run(["month", "2026-11", "--calendar", "$WORK/gym.ics"], environment: ["LD_DEBUG": "files"])
        #expect(month.status == 0, "\(month.stderr)")
        #expect(month.stderr.contains("libswiftCore"), "the loader's words: \(month.stderr.prefix(500))")
        #expect(!month.stderr.contains("libcurl"))
        #expect(!month.stderr.contains("libFoundationNetworking"))
        #expect(!month.stderr.contains("libFoundationXML"))
        #expect(!month.stderr.contains("libxml2"))
        // glibc's loader lists the libraries it would load, and stops (what `ldd` does).
        let listed = try cli.run(["--version"], environment: ["LD_TRACE_LOADED_OBJECTS": "1"])
        #expect(listed.status == 0)
        let libraries = listed.stdout.split(separator: "\n").compactMap { line in
            line.split(whereSeparator: { $0 == " " || $0 == "\t" }).first.map(String.init)
        }
        #expect(libraries.contains { $0.hasPrefix("libswiftCore") }, "the list is the loader's: \(listed.stdout)")
        #expect(!libraries.contains { $0.hasPrefix("libcurl") }, "\(libraries)")
        #expect(!libraries.contains { $0.hasPrefix("libFoundationNetworking") }, "\(libraries)")
        #expect(!libraries.contains { $0.hasPrefix("libFoundationXML") || $0.hasPrefix("libxml2") }, "\(libraries)")
        #expect(!libraries.contains { $0.hasPrefix("libgnutls") || $0.hasPrefix("libkrb5") || $0.hasPrefix("libldap") }, "\(libraries)")
    }
    #endif
}
