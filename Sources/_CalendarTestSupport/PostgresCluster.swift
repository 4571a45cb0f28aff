import Foundation

/// A PostgreSQL 15 server of the test's own: a cluster made by `initdb` in a
/// temporary folder, started on 127.0.0.1 at a free port, stopped by its
/// process ID, and its folder removed.
///
/// The server's programs are found in `HORARI_POSTGRES_BIN` (`make test`
/// sets it; `make deps` installs Debian's `postgresql-15`), else in
/// Debian's `/usr/lib/postgresql/15/bin`. PostgreSQL refuses to run as
/// root, so as root (CI) the cluster belongs to the `postgres` user the
/// Debian package makes, and its programs run as that user through
/// `setpriv`, which executes them in place: the process ID kept is the
/// server's own.
///
/// Not API: shared by the tests only.
public final class PostgresCluster: @unchecked Sendable {
    /// The folder of `initdb`, `postgres` and `pg_isready`, when there is one.
    public static var binaries: URL? {
        let env = ProcessInfo.processInfo.environment["HORARI_POSTGRES_BIN"]
        for path in [env, "/usr/lib/postgresql/15/bin"].compactMap({ $0 }) where FileManager.default.isExecutableFile(atPath: path + "/initdb") {
            return URL(fileURLWithPath: path)
        }
        return nil
    }

    /// Whether `make test` asked for PostgreSQL, so that its absence is a failure, not a skip.
    public static var required: Bool { ProcessInfo.processInfo.environment["HORARI_POSTGRES_BIN"] != nil }

    /// Why the cluster could not be made or started.
    public struct Failure: Error, CustomStringConvertible {
        /// What went wrong.
        public var description: String
        /// A failure.
        public init(description: String) { self.description = description }
    }

    /// The cluster's folder.
    public let folder: URL
    /// Its port on 127.0.0.1.
    public let port: Int
    /// The server's process.
    public let server: Process
    /// The user that logs in (trusted, on 127.0.0.1 only).
    public let user = "horari"

    /// `postgres://horari@127.0.0.1:PORT/DATABASE`.
    public func url(database: String = "postgres") -> String { "postgres://\(user)@127.0.0.1:\(port)/\(database)" }

    /// Makes and starts a cluster; throws when the server does not answer within 60 s.
    public init() throws {
        guard let bin = Self.binaries else {
            throw Failure(description: "PostgreSQL 15's server is not installed (HORARI_POSTGRES_BIN, or /usr/lib/postgresql/15/bin): make deps installs it")
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("horari-pg-\(UUID().uuidString)")
        self.folder = folder
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        // Until the server is started, a failure removes the folder here (deinit runs only once all is set).
        var started = false
        defer { if !started { try? FileManager.default.removeItem(at: folder) } }
        let owner = Self.serverUser()
        if let owner { chown(folder.path, owner.uid, owner.gid) }
        let data = folder.appendingPathComponent("data").path
        port = try Self.freePort()
        let log = folder.appendingPathComponent("server.log").path
        let initdb = try Self.run(bin.appendingPathComponent("initdb").path,
                                  ["-D", data, "-U", user, "--auth=trust", "-E", "UTF8", "--no-sync", "--no-instructions"], as: owner)
        guard initdb.status == 0 else { throw Failure(description: "initdb failed: \(initdb.output)") }
        server = Process()
        Self.prepare(server, bin.appendingPathComponent("postgres").path,
                     ["-D", data, "-h", "127.0.0.1", "-p", "\(port)", "-k", folder.path,
                      "-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off", "-c", "max_connections=300"], as: owner)
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        if let owner { chown(log, owner.uid, owner.gid) }
        let logHandle = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        server.standardOutput = logHandle
        server.standardError = logHandle
        try server.run()
        started = true
        let deadline = Date().addingTimeInterval(60)
        while true {
            let ready = try Self.run(bin.appendingPathComponent("pg_isready").path, ["-h", "127.0.0.1", "-p", "\(port)", "-U", user, "-d", "postgres", "-q"], as: nil)
            if ready.status == 0 { break }
            guard server.isRunning, Date() < deadline else {
                stop()
                throw Failure(description: "PostgreSQL did not start: \((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")
            }
            Thread.sleep(forTimeInterval: 0.1)
        }
    }

    /// Stops the server by its process ID (a fast shutdown, then SIGKILL after 20 s) and removes the folder.
    public func stop() {
        if server.isRunning {
            kill(server.processIdentifier, SIGINT)
            let deadline = Date().addingTimeInterval(20)
            while server.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
            if server.isRunning { kill(server.processIdentifier, SIGKILL) }
            server.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: folder)
    }

    deinit { stop() }

    /// The `postgres` user, when the tests run as root (PostgreSQL will not).
    private static func serverUser() -> (uid: uid_t, gid: gid_t)? {
        guard getuid() == 0, let entry = getpwnam("postgres") else { return nil }
        return (entry.pointee.pw_uid, entry.pointee.pw_gid)
    }

    private static func prepare(_ process: Process, _ program: String, _ arguments: [String], as owner: (uid: uid_t, gid: gid_t)?) {
        if let owner {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
            process.arguments = ["--reuid=\(owner.uid)", "--regid=\(owner.gid)", "--clear-groups", program] + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: program)
            process.arguments = arguments
        }
        process.currentDirectoryURL = FileManager.default.temporaryDirectory
    }

    private static func run(_ program: String, _ arguments: [String], as owner: (uid: uid_t, gid: gid_t)?) throws -> (status: Int32, output: String) {
        let process = Process(), out = Pipe()
        prepare(process, program, arguments, as: owner)
        process.standardOutput = out
        process.standardError = out
        try process.run()
        let watchdog = ChildWatchdog(process)
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try watchdog.check(program)
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// A port on 127.0.0.1 nothing listens on now.
    private static func freePort() throws -> Int {
        let (fd, port) = try loopbackSocket()
        close(fd)
        return port
    }

    /// A TCP socket bound to 127.0.0.1 at a port the system chose, and that port.
    public static func loopbackSocket() throws -> (fd: Int32, port: Int) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "no socket on 127.0.0.1") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        guard bound == 0 else {
            close(fd)
            throw Failure(description: "could not bind a port on 127.0.0.1")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        return (fd, Int(UInt16(bigEndian: address.sin_port)))
    }
}
