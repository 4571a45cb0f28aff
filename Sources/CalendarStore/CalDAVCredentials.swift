import Foundation

/// A user name and password for a CalDAV server, sent as HTTP Basic
/// authentication.
///
/// Neither ``description``, ``debugDescription`` nor a mirror (`dump`,
/// `print`, string interpolation, a debugger's summary) shows the password:
/// only the user name and `<hidden>`.
///
/// ```swift
/// let credentials = CalDAVCredentials.lookUp(for: collection)   // the environment, else ~/.netrc
/// let client = CalDAVClient(collection: collection, credentials: credentials)
/// ```
public struct CalDAVCredentials: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The user name.
    public let user: String
    /// The password.
    public let password: String

    /// Credentials for `user`.
    public init(user: String, password: String) {
        self.user = user
        self.password = password
    }

    /// The user name, with the password hidden.
    public var description: String { "CalDAVCredentials(user: \(user), password: <hidden>)" }

    /// The user name, with the password hidden.
    public var debugDescription: String { description }

    /// A mirror with the user name only.
    public var customMirror: Mirror { Mirror(self, children: ["user": user, "password": "<hidden>"]) }

    /// The value of an `Authorization` header that carries these credentials.
    var basicAuthorization: String {
        "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
    }

    /// `~/.netrc`, the home folder taken from `HOME` (else Foundation's
    /// `NSHomeDirectory()`, which every platform has; on iOS and its kin, the
    /// app's own container, where no `.netrc` is unless the app put one).
    public static var defaultNetrc: URL {
        if let home = ProcessInfo.processInfo.environment["HOME"], !home.isEmpty {
            return URL(fileURLWithPath: home).appendingPathComponent(".netrc")
        }
        // Not `FileManager.homeDirectoryForCurrentUser`: macOS only.
        return URL(fileURLWithPath: NSHomeDirectory()).appendingPathComponent(".netrc")
    }

    /// Where ``CalendarStore`` looks for a `.netrc` when it is given no
    /// credentials: ``defaultNetrc`` on Linux and macOS, where people keep
    /// one; `nil` on iOS, tvOS, watchOS and visionOS, where an app keeps its
    /// users' passwords in the Keychain and passes them as ``CalDAVCredentials``.
    public static var platformNetrc: URL? {
        #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
        nil
        #else
        defaultNetrc
        #endif
    }

    /// The environment variable that names the user.
    public static let userVariable = "HORARI_CALDAV_USER"
    /// The environment variable that holds the password.
    public static let passwordVariable = "HORARI_CALDAV_PASSWORD"

    /// The credentials for a server: `HORARI_CALDAV_USER` and
    /// `HORARI_CALDAV_PASSWORD` when both are set (the password may be
    /// empty), else the `.netrc` entry for the URL's host.
    ///
    /// A `.netrc` is read as `ftp`, `curl` and Python read it: tokens
    /// separated by spaces, tabs or line ends, so an entry may be on one line
    /// or several; `machine HOST` starts an entry for `HOST` (compared
    /// without regard to case), `default` one for every other host, and the
    /// first entry for the host wins over `default`; `login` and `password`
    /// give the credentials, `account` is skipped, and a `macdef` is skipped
    /// up to the empty line that ends it. A token may be written in double
    /// quotes, with `\` escaping the next character. An entry without both a
    /// login and a password gives no credentials. A file that cannot be
    /// read, or one over 1 MiB, is ignored.
    ///
    /// - Parameters:
    ///   - url: the server's URL; only its host is used.
    ///   - environment: where to look for the variables.
    ///   - netrc: the `.netrc` file; `nil` reads none.
    /// - Returns: the credentials, or `nil` when neither place has them.
    public static func lookUp(
        for url: URL,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        netrc: URL? = CalDAVCredentials.defaultNetrc
    ) -> CalDAVCredentials? {
        if let user = environment[userVariable], !user.isEmpty, let password = environment[passwordVariable] {
            return CalDAVCredentials(user: user, password: password)
        }
        guard let netrc, let host = url.host, !host.isEmpty else { return nil }
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: netrc.path),
              let size = attributes[.size] as? NSNumber, size.intValue <= 1 << 20,
              let data = FileManager.default.contents(atPath: netrc.path)
        else { return nil }
        return Netrc.entry(for: host, in: String(decoding: data, as: UTF8.self))
    }
}

/// The reading of a `.netrc` file (see ``CalDAVCredentials/lookUp(for:environment:netrc:)``).
enum Netrc {
    /// The credentials the text gives `host`.
    static func entry(for host: String, in text: String) -> CalDAVCredentials? {
        var tokens = Tokens(text)
        var found: (login: String?, password: String?)?
        var fallback: (login: String?, password: String?)?
        // Which entry the tokens now read belong to: 0 none, 1 the host's, 2 the default, 3 another.
        var current = 0
        var entry: (login: String?, password: String?) = (nil, nil)
        func close() {
            if current == 1, found == nil { found = entry }
            if current == 2, fallback == nil { fallback = entry }
            entry = (nil, nil)
        }
        while let token = tokens.next() {
            switch token {
            case "machine":
                close()
                let name = tokens.next() ?? ""
                current = name.caseInsensitiveCompare(host) == .orderedSame ? 1 : 3
            case "default":
                close()
                current = 2
            case "login":
                entry.login = tokens.next()
            case "password":
                entry.password = tokens.next()
            case "account":
                _ = tokens.next()
            case "macdef":
                close()
                current = 0
                _ = tokens.next()
                tokens.skipMacro()
            default:
                break
            }
        }
        close()
        guard let chosen = found ?? fallback, let login = chosen.login, let password = chosen.password else { return nil }
        return CalDAVCredentials(user: login, password: password)
    }

    /// The tokens of a `.netrc`, with what a `macdef` needs to skip its body.
    struct Tokens {
        private let scalars: [Unicode.Scalar]
        private var index = 0

        init(_ text: String) { scalars = Array(text.unicodeScalars) }

        private static func isSpace(_ s: Unicode.Scalar) -> Bool {
            s == " " || s == "\t" || s == "\n" || s == "\r" || s == "\u{0C}" || s == "\u{0B}"
        }

        /// The next token, or `nil` at the end.
        mutating func next() -> String? {
            while index < scalars.count, Self.isSpace(scalars[index]) { index += 1 }
            guard index < scalars.count else { return nil }
            var token = String.UnicodeScalarView()
            if scalars[index] == "\"" {
                index += 1
                while index < scalars.count, scalars[index] != "\"" {
                    if scalars[index] == "\\", index + 1 < scalars.count { index += 1 }
                    token.append(scalars[index])
                    index += 1
                }
                index += 1
            } else {
                while index < scalars.count, !Self.isSpace(scalars[index]) {
                    if scalars[index] == "\\", index + 1 < scalars.count { index += 1 }
                    token.append(scalars[index])
                    index += 1
                }
            }
            return String(token)
        }

        /// Skips the rest of a `macdef` line and its body, up to and with the
        /// empty line that ends it (or the end of the text).
        mutating func skipMacro() {
            while index < scalars.count, scalars[index] != "\n" { index += 1 }
            // Now at the line end after `macdef NAME`; the body runs to an empty line.
            while index < scalars.count {
                index += 1
                var end = index
                while end < scalars.count, scalars[end] == "\r" { end += 1 }
                if end >= scalars.count || scalars[end] == "\n" {
                    index = end
                    return
                }
                while index < scalars.count, scalars[index] != "\n" { index += 1 }
            }
        }
    }
}
