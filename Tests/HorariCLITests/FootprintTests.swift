import Foundation
import Testing

/// What a `horari` process loads before it does anything: libcurl and its two
/// dozen libraries are opened only when a CalDAV client makes its first
/// request, libxml2 when it reads its first answer (Docs/CalDAV.md, "libcurl
/// is loaded at the first request"), and libcrypto at the first SHA-256 digest
/// (a folder's file names; Docs/Platforms.md).
@Suite("What every horari process loads")
struct FootprintTests {
    #if os(Linux)
    @Test("a command loads neither libcurl, FoundationNetworking, FoundationXML, libxml2 nor libcrypto: not linked (the dynamic loader's own list), nor opened while it runs")
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
        #expect(!month.stderr.contains("libcrypto"))
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
        #expect(!libraries.contains { $0.hasPrefix("libcrypto") }, "\(libraries)")
        #expect(!libraries.contains { $0.hasPrefix("libgnutls") || $0.hasPrefix("libkrb5") || $0.hasPrefix("libldap") }, "\(libraries)")
    }

    @Test("libcrypto is opened when a digest is taken: an event whose UID cannot name a file is added to a folder under its SHA-256")
    func cryptoOpenedForADigest() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let folder = cli.work.appendingPathComponent("folder")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let added = try cli.run(["add", "Odd", "--start", "2026-11-24 10:00", "--minutes", "30", "--id", "a/b", "--calendar", folder.path + "/"],
                                environment: ["LD_DEBUG": "files"])
        #expect(added.status == 0, "\(added.stderr.suffix(500))")
        #expect(added.stderr.contains("file=libcrypto.so.3 [0];  dynamically loaded by"), "the loader's words: \(added.stderr.prefix(500))")
        // SHA-256 of "a/b" (Python's hashlib.sha256(b"a/b")).
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(names.contains("horari-c14cddc033f64b9dea80ea675cf280a015e672516090a5626781153dc68fea11.ics"), "\(names)")
    }
    #endif
}
