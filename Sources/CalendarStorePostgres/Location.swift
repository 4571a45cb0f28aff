#if PostgreSQL
import CalendarStore
import Foundation
import Logging
import NIOSSL
import PostgresNIO

extension PostgresBookStorage {
    /// A PostgreSQL database named by a URL,
    /// `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?sslmode=MODE]`
    /// (`postgresql://` too), as `psql` and libpq take it.
    ///
    /// Its ``description`` never holds the password, so it can be printed.
    public struct Location: Sendable, Hashable, CustomStringConvertible {
        /// How the connection is encrypted.
        public enum TLSMode: String, Sendable, Hashable {
            /// No TLS: for a loopback host or a network you trust.
            case disable
            /// TLS when the server offers it, its certificate unchecked, as libpq's `prefer`.
            case prefer
            /// TLS or no connection, its certificate unchecked, as libpq's `require`.
            case require
            /// TLS with the certificate checked against the system's roots and the host name, as libpq's `verify-full`.
            case verifyFull = "verify-full"
        }

        /// The server's host name or address.
        public var host: String
        /// Its port (default 5432).
        public var port: Int
        /// Who logs in.
        public var user: String
        /// The password, if the URL gave one.
        public var password: String?
        /// The database.
        public var database: String
        /// How the connection is encrypted (`sslmode`, as libpq reads it; default `disable` on a loopback host, `prefer` elsewhere).
        public var tls: TLSMode

        /// Reads a URL.
        /// - Parameter url: `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?sslmode=disable|prefer|require|verify-full]`.
        /// - Throws: `CalendarStoreError.invalidLocation`, saying what is
        ///   missing, and never repeating the password.
        public init(url: String) throws(CalendarStoreError) {
            guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(), ["postgres", "postgresql"].contains(scheme) else {
                throw CalendarStoreError(.invalidLocation, "not a postgres:// URL", suggestion: "write postgres://USER@HOST:PORT/DATABASE")
            }
            // Said without its password, nor its settings (a `password=` among them).
            var shown = components
            shown.password = nil
            shown.query = nil
            let safe = shown.string ?? "postgres://…"
            guard let host = components.host, !host.isEmpty else {
                throw CalendarStoreError(.invalidLocation, "\(safe) names no host", suggestion: "write postgres://USER@HOST:PORT/DATABASE")
            }
            guard let user = components.user, !user.isEmpty else {
                throw CalendarStoreError(.invalidLocation, "\(safe) names no user", suggestion: "write postgres://USER@HOST:PORT/DATABASE")
            }
            let database = String(components.path.drop(while: { $0 == "/" }))
            guard !database.isEmpty, !database.contains("/") else {
                throw CalendarStoreError(.invalidLocation, "\(safe) names no database (one path part after the host)", suggestion: "write postgres://USER@HOST:PORT/DATABASE")
            }
            if let port = components.port, !(1...65535).contains(port) {
                throw CalendarStoreError(.invalidLocation, "\(safe): port \(port) is out of range", suggestion: "give a port from 1 to 65535")
            }
            var tls: TLSMode = ["127.0.0.1", "localhost", "::1", "[::1]"].contains(host.lowercased()) ? .disable : .prefer
            for item in components.queryItems ?? [] {
                guard item.name == "sslmode", let value = item.value else {
                    throw CalendarStoreError(.invalidLocation, "\(safe): Horari knows no ‘\(item.name)’ setting", suggestion: "the one setting is sslmode=disable, prefer, require or verify-full")
                }
                guard let mode = TLSMode(rawValue: value) else {
                    throw CalendarStoreError(.invalidLocation, "\(safe): sslmode=\(value) is not one Horari takes", suggestion: "give sslmode=disable, prefer, require or verify-full")
                }
                tls = mode
            }
            self.host = host
            self.port = components.port ?? 5432
            self.user = user
            self.password = components.password
            self.database = database
            self.tls = tls
        }

        /// `postgres://USER@HOST:PORT/DATABASE`: never the password.
        public var description: String {
            let shownHost = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
            return "postgres://\(user)@\(shownHost):\(port)/\(database)"
        }

        /// Connects once and closes, so that a server that is not there, a
        /// refused login or a missing database is said at once, in one line,
        /// rather than after a pool has tried again and again; a server that
        /// takes the connection and never answers is given up after 15 s.
        /// - Throws: `CalendarStoreError`: `.transport`, `.unauthorized`, `.notFound`, `.busy`.
        public func probe() async throws(CalendarStoreError) {
            let location = self
            try await PostgresBookStorage.within(.seconds(15), place: description, doing: "open") {
                let tlsMode: PostgresConnection.Configuration.TLS
                switch location.tls {
                case .disable: tlsMode = .disable
                case .prefer: tlsMode = .prefer(try NIOSSLContext(configuration: location.tlsConfiguration))
                case .require, .verifyFull: tlsMode = .require(try NIOSSLContext(configuration: location.tlsConfiguration))
                }
                var configuration = PostgresConnection.Configuration(host: location.bareHost, port: location.port, username: location.user,
                                                                     password: location.password, database: location.database, tls: tlsMode)
                configuration.options.connectTimeout = .seconds(10)
                let connection = try await PostgresConnection.connect(configuration: configuration, id: 1, logger: Logger(label: "horari.postgres"))
                try? await connection.close()
            }
        }

        /// libpq's meaning: `prefer` and `require` encrypt without checking the certificate; `verify-full` checks it.
        var tlsConfiguration: TLSConfiguration {
            var configuration = TLSConfiguration.makeClientConfiguration()
            if tls != .verifyFull { configuration.certificateVerification = .none }
            return configuration
        }

        private var bareHost: String { host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host }

        /// The PostgresNIO configuration for a pool on this database.
        /// - Throws: `CalendarStoreError.transport` when TLS cannot be set up here.
        public func configuration() throws(CalendarStoreError) -> PostgresClient.Configuration {
            let mode: PostgresClient.Configuration.TLS
            switch tls {
            case .disable: mode = .disable
            case .prefer: mode = .prefer(tlsConfiguration)
            case .require, .verifyFull: mode = .require(tlsConfiguration)
            }
            var configuration = PostgresClient.Configuration(host: bareHost, port: port, username: user, password: password, database: database, tls: mode)
            configuration.options.connectTimeout = .seconds(10)
            // A desk that dies inside a transaction frees the book's revision row within a minute.
            configuration.options.additionalStartupParameters = [("idle_in_transaction_session_timeout", "60000")]
            return configuration
        }
    }
}
#endif
