import CalendarCore
import Foundation
import Hummingbird
import Logging
import Mustache

// horari-web: the gym on the web. Every page is read from the book as it is
// now, and every booking is one change of it through SchedulingStore, so
// several of these processes on one database book as safely as one.

let usage = """
    USAGE: horari-web --calendar CAL [--host 127.0.0.1] [--port 8080] [--now YYYY-MM-DDTHH:MM:SSZ] [--idle-timeout 30]

      --calendar  the gym's book: an .ics file, a folder (ending /), a CalDAV
                  collection (https://…/), an SQLite file (.sqlite) or a
                  postgres://USER@HOST:PORT/DB database
      --host      the address to listen on (default 127.0.0.1)
      --port      the port (default 8080; 0 picks a free one)
      --now       a fixed time to book at, for a demonstration or a test
                  (default: the clock)
      --idle-timeout  seconds a connection may stay silent before it is
                      closed (default 30)

    """

/// The command line, or a message that says what to write instead.
struct Options {
    var calendar = ""
    var host = "127.0.0.1"
    var port = 8080
    var now: Date?
    var idleSeconds = 30

    init(_ arguments: [String]) throws(UsageError) {
        var rest = arguments[...]
        while let option = rest.popFirst() {
            if option == "--help" || option == "-h" { throw UsageError(usage, help: true) }
            guard let value = rest.popFirst() else { throw UsageError("\(option) needs a value") }
            switch option {
            case "--calendar": calendar = value
            case "--host": host = value
            case "--port":
                guard let port = Int(value), (0...65535).contains(port) else { throw UsageError("--port \(value): a port is a number from 0 to 65535") }
                self.port = port
            case "--idle-timeout":
                guard let seconds = Int(value), (1...3600).contains(seconds) else { throw UsageError("--idle-timeout \(value): give seconds from 1 to 3600") }
                idleSeconds = seconds
            case "--now":
                guard case .utc(let t)? = try? CalendarTime(isoText: value) else {
                    throw UsageError("--now \(value): write a UTC time, as 2026-11-23T08:00:00Z")
                }
                now = Date(timeIntervalSince1970: TimeInterval(t.localSeconds))
            default: throw UsageError("horari-web has no option ‘\(option)’")
            }
        }
        guard !calendar.isEmpty else { throw UsageError("say where the gym's book is: --calendar gym.ics, gym.sqlite or postgres://…") }
    }
}

struct UsageError: Error {
    let message: String
    let help: Bool
    init(_ message: String, help: Bool = false) { self.message = message; self.help = help }
}

func fail(_ message: String, status: Int32) -> Never {
    FileHandle.standardError.write(Data("horari-web: \(message)\n".utf8))
    exit(status)
}

let options: Options
do {
    options = try Options(Array(CommandLine.arguments.dropFirst()))
} catch {
    if error.help { print(usage, terminator: ""); exit(0) }
    fail("\(error.message)\n\(usage)", status: 2)
}

await serve(options)

/// Opens the book, then serves the site until SIGINT or SIGTERM.
func serve(_ options: Options) async {
    let gym: Gym
    do {
        gym = try await Gym.open(options.calendar, now: options.now)
    } catch {
        fail("\(error)", status: 1)
    }
    guard let folder = Bundle.module.resourceURL?.appendingPathComponent("templates"),
          let styleURL = Bundle.module.url(forResource: "style", withExtension: "css"),
          let style = try? String(contentsOf: styleURL, encoding: .utf8),
          let templates = try? await MustacheLibrary(directory: folder.path) else {
        fail("the pages' templates are missing beside the program (its Resources)", status: 1)
    }
    var logger = Logger(label: "horari-web")
    logger.logLevel = ProcessInfo.processInfo.environment["LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? .notice
    let site = Site(gym: gym, templates: templates, style: style)
    let (calendar, host, port) = (options.calendar, options.host, options.port)
    let app = Application(
        router: site.router(),
        // A connection silent for the idle timeout is closed: a client that stops sending holds nothing forever.
        server: .http1(configuration: .init(idleTimeout: .seconds(Int64(options.idleSeconds)))),
        configuration: .init(address: .hostname(host, port: port), serverName: "horari-web"),
        onServerRunning: { channel in
            // Written at once: a test waits for this line to learn the port.
            FileHandle.standardOutput.write(Data("horari-web: \(calendar) on http://\(host):\(channel.localAddress?.port ?? port)/\n".utf8))
        },
        logger: logger
    )
    do {
        try await app.runService()
    } catch {
        fail("could not serve on \(host):\(port) (\(error)); choose another --port, or stop what holds it", status: 1)
    }
    gym.pool?.cancel()
    await gym.pool?.value
}
