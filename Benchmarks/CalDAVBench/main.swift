import CalendarStore
import Foundation

// `CalDAVBench URL N`: N sequential GETs of one member of a CalDAV
// collection through one CalDAVClient, timed; prints "requests/s". Run by
// Benchmarks/caldav_bench.py, once as the library is and once in its
// reference mode (HORARI_CALDAV_SESSION_PER_REQUEST=1: a URLSession per
// request, as before issue 29). Credentials as horari takes them.
let arguments = CommandLine.arguments
guard arguments.count == 4, let url = URL(string: arguments[1]), let count = Int(arguments[3]), count > 0 else {
    FileHandle.standardError.write(Data("usage: CalDAVBench COLLECTION_URL MEMBER N\n".utf8))
    exit(2)
}
let client = CalDAVClient(collection: url, credentials: CalDAVCredentials.lookUp(for: url))
let started = Date()
do {
    for _ in 0..<count { _ = try await client.get(arguments[2]) }
} catch {
    FileHandle.standardError.write(Data("CalDAVBench: \(error)\n".utf8))
    exit(1)
}
let seconds = Date().timeIntervalSince(started)
print(String(format: "%.1f", Double(count) / seconds))
