import ArgumentParser
import CalendarStore
import Foundation

/// `horari doctor URL`: what a CalDAV server does for a collection, and
/// whether bookings are safe there (`CalDAVClient.probe()`).
struct Doctor: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Check what a CalDAV server does for a collection, and whether bookings are safe there.",
        discussion: """
            Reads the collection, asks for its changes (sync-collection), makes and removes a \
            scratch calendar beside it (MKCALENDAR), races conditional writes on a scratch \
            resource (12 rounds of 4 at once; removed afterwards), and says whether this \
            machine's own bookings found a lost update there. Exit 0 when bookings are safe \
            there, 1 when not.

            Example:
              horari doctor https://dav.example.com/calendars/gym/sants/
            """)
    @Argument(help: "The collection's http(s) URL.") var url: String

    func run() async throws {
        let place = try calendarPlace(url)
        guard case .collection(let collection) = place.location else {
            throw ValidationError("doctor checks a CalDAV collection: give its http(s) URL")
        }
        let timeout = try CalendarPlace.requestTimeout() ?? .seconds(30)
        let client = CalDAVClient(collection: collection, credentials: CalDAVCredentials.lookUp(for: collection), requestTimeout: timeout)
        let probed: CalDAVProbe
        do { probed = try await client.probe() } catch { throw storeError(error) }
        // What this machine's own bookings found there counts too: a race the probe did not catch may have been seen.
        let probe = probed.adding(try await place.store().lostUpdatesSeen())
        for finding in probe.findings {
            let mark = finding.holds.map { $0 ? "ok  " : "NO  " } ?? "--  "
            print("\(mark)\(finding.what): \(finding.detail)")
        }
        if probe.bookingsAreSafe {
            print("Bookings are safe on \(place.path): conditional writes hold under a race.")
        } else {
            print("Bookings are NOT safe on \(place.path): see the lines marked NO (Docs/CalDAV.md says what Horari does when a server falls short).")
            throw ExitCode(1)
        }
    }
}
