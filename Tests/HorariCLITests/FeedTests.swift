import Foundation
import Testing

@Suite("horari export: the feeds say how often to read them again")
struct FeedTests {
    @Test("--refresh-interval sets REFRESH-INTERVAL and X-PUBLISHED-TTL on the public, member and coach feeds; 'none' leaves them out")
    func refreshInterval() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        for audience in [["public"], ["member", "aina"]] {
            let quarter = try runner.run(["export", "$SAMPLE", "--for"] + audience + ["--refresh-interval", "PT15M"])
            #expect(quarter.status == 0, "\(quarter.stderr)")
            #expect(quarter.stdout.contains("\r\nREFRESH-INTERVAL;VALUE=DURATION:PT15M\r\nX-PUBLISHED-TTL:PT15M\r\n"), "\(audience)")
            let none = try runner.run(["export", "$SAMPLE", "--for"] + audience + ["--refresh-interval", "NONE"])
            #expect(none.status == 0 && !none.stdout.contains("REFRESH-INTERVAL") && !none.stdout.contains("X-PUBLISHED-TTL"))
        }
        let daily = try runner.run(["export", "$SAMPLE", "--for", "public", "--refresh-interval", "P1D", "--out", "$WORK/pub.ics"])
        #expect(daily.status == 0, "\(daily.stderr)")
        #expect(try String(contentsOf: runner.work.appendingPathComponent("pub.ics"), encoding: .utf8).contains("REFRESH-INTERVAL;VALUE=DURATION:P1D\r\n"))
        // The sample itself says nothing of the kind, and its backup neither.
        let backup = try runner.run(["export", "$SAMPLE", "--for", "all"])
        #expect(backup.status == 0 && !backup.stdout.contains("REFRESH-INTERVAL"))
    }

    @Test("a refresh interval a person mistypes, or gives a backup, is a usage error naming what to write", arguments: [
        (["--for", "public", "--refresh-interval", "15"], "‘15’ is not a length written as ISO 8601"),
        (["--for", "public", "--refresh-interval", "-PT5M"], "a positive length"),
        (["--for", "public", "--refresh-interval", "PT0S"], "a positive length"),
        (["--for", "all", "--refresh-interval", "PT1H"], "a backup is not a feed"),
        (["--refresh-interval", "PT1H"], "a backup is not a feed"),
    ])
    func mistyped(_ arguments: [String], _ said: String) throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let out = try runner.run(["export", "$SAMPLE"] + arguments)
        #expect(out.status == 2 && out.stdout.isEmpty, "\(out)")
        #expect(out.stderr.contains(said) && out.stderr.contains("--refresh-interval"), "\(out.stderr)")
    }
}
