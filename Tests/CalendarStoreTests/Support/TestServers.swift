import Foundation
#if canImport(Glibc)
import Glibc
private let streamSocket = Int32(SOCK_STREAM.rawValue)
#elseif canImport(Darwin)
import Darwin
private let streamSocket = SOCK_STREAM
#endif

/// A server a test starts on 127.0.0.1 (Radicale, or `hostile_dav.py`),
/// waits for, and stops by its process id: `defer { server.stop() }`.
final class TestServer {
    /// The port it listens on.
    let port: Int
    /// Its scratch folder (its configuration, its storage, its log).
    let folder: URL
    private var process: Process
    private let executable: String
    private let arguments: [String]

    /// The Python that has Radicale (`HORARI_RADICALE_PYTHON`), or `nil`:
    /// `make test` installs no Python packages, so the Radicale tests run
    /// only where this is set (CI; `.venv-conformance/bin/python` after
    /// `make corpus`).
    static let radicalePython: String? = {
        guard let python = ProcessInfo.processInfo.environment["HORARI_RADICALE_PYTHON"], !python.isEmpty else { return nil }
        return python
    }()

    /// `python3` on the `PATH`, for `hostile_dav.py` (standard library only).
    static let python3: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":") {
            let candidate = "\(folder)/python3"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }()

    /// The hostile server's script, beside this file.
    static let hostileScript = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("hostile_dav.py")

    /// The user and password the Radicale servers accept.
    static let user = "alice"
    /// Alice's password: never to appear in a message.
    static let password = "correct-horse-battery-staple"

    /// A URL on the server.
    func url(_ path: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)\(path)") ?? URL(fileURLWithPath: "/")
    }

    /// The requests the hostile server logged: `ADDRESS METHOD PATH auth|no-auth`.
    var requestLog: [String] {
        let text = (try? String(contentsOf: folder.appendingPathComponent("requests.log"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map(String.init)
    }

    /// Radicale on a free port, with Basic authentication against a
    /// plain-text htpasswd file (``user`` : ``password``) and each user owning
    /// their own collections.
    static func radicale() throws -> TestServer {
        guard let python = radicalePython else { throw Failure("HORARI_RADICALE_PYTHON is not set") }
        let folder = try scratchFolder("radicale")
        let port = try freePort()
        let users = folder.appendingPathComponent("users")
        try "\(user):\(password)\n".write(to: users, atomically: true, encoding: .utf8)
        let config = folder.appendingPathComponent("config")
        try """
            [server]
            hosts = 127.0.0.1:\(port)
            [auth]
            type = htpasswd
            htpasswd_filename = \(users.path)
            htpasswd_encryption = plain
            delay = 0
            [rights]
            type = owner_only
            [storage]
            filesystem_folder = \(folder.appendingPathComponent("collections").path)
            [logging]
            level = warning
            """.write(to: config, atomically: true, encoding: .utf8)
        // `python -m radicale --config FILE`, but for unblocking SIGTERM first:
        // the test runner's threads block it, and a child inherits that mask.
        let run = "import runpy, signal; signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT}); runpy.run_module('radicale', run_name='__main__', alter_sys=True)"
        return try TestServer(python, ["-c", run, "--config", config.path], port: port, folder: folder)
    }

    /// `hostile_dav.py MODE` on a free port.
    static func hostile(_ mode: String) throws -> TestServer {
        guard let python = python3 else { throw Failure("python3 is not on the PATH") }
        let folder = try scratchFolder("hostile-\(mode)")
        let port = try freePort()
        let log = folder.appendingPathComponent("requests.log").path
        return try TestServer(python, [hostileScript.path, mode, String(port), log], port: port, folder: folder)
    }

    private init(_ executable: String, _ arguments: [String], port: Int, folder: URL) throws {
        self.port = port
        self.folder = folder
        self.executable = executable
        self.arguments = arguments
        process = Process()
        try start()
    }

    /// Starts the process (again), logging to `server.log`, and waits till it listens.
    private func start() throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let log = folder.appendingPathComponent("server.log")
        guard FileManager.default.createFile(atPath: log.path, contents: (try? Data(contentsOf: log)) ?? Data()) else { throw Failure("cannot write \(log.path)") }
        let handle = try FileHandle(forWritingTo: log)
        handle.seekToEndOfFile()
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = FileHandle.nullDevice
        try process.run()
        do {
            try waitUntilListening()
        } catch {
            stop()
            throw error
        }
    }

    /// Waits, at most 20 s, until the port takes a connection.
    private func waitUntilListening() throws {
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            guard process.isRunning else {
                let log = (try? String(contentsOf: folder.appendingPathComponent("server.log"), encoding: .utf8)) ?? ""
                throw Failure("the server exited at once: \(log.suffix(600))")
            }
            if Self.connects(port) { return }
            usleep(30_000)
        }
        throw Failure("nothing listens on port \(port) after 20 s")
    }

    /// Stops the server by its process id (SIGTERM, then SIGKILL after 5 s)
    /// and keeps its folder, as a server out of reach: nothing listens on
    /// its port till ``resume()``.
    func interrupt() {
        let pid = process.processIdentifier
        if process.isRunning { kill(pid, SIGTERM) }
        let deadline = Date().addingTimeInterval(5)
        while process.isRunning, Date() < deadline { usleep(10_000) }
        if process.isRunning {
            kill(pid, SIGKILL)
            process.waitUntilExit()
        }
    }

    /// Starts the server again on its port, with what it stored.
    func resume() throws {
        try start()
    }

    /// Stops the server by its process id (SIGTERM, then SIGKILL after 5 s),
    /// and removes its folder.
    func stop() {
        interrupt()
        try? FileManager.default.removeItem(at: folder)
    }

    private static func scratchFolder(_ name: String) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("horari-caldav-\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// A port nothing listens on now, on 127.0.0.1, as the system hands one out.
    static func freePort() throws -> Int {
        let fd = socket(AF_INET, streamSocket, 0)
        guard fd >= 0 else { throw Failure("socket() failed") }
        defer { close(fd) }
        var address = loopback(0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else { throw Failure("bind() failed") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else { throw Failure("getsockname() failed") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Whether a TCP connection to 127.0.0.1:`port` is taken.
    static func connects(_ port: Int) -> Bool {
        let fd = socket(AF_INET, streamSocket, 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = loopback(port)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        } == 0
    }

    private static func loopback(_ port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        return address
    }

    /// Why a server could not be started.
    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
