import CalendarCore
import Foundation

extension CalDAVClient {
    // MARK: - The wire

    /// The statuses a server answers while it is busy, locked or failing
    /// for a moment — 423 Locked, 429 Too Many Requests, 500, 502, 503, 504
    /// — after which a request is sent again (``RetryPolicy``).
    static let passingStatuses: Set<Int> = [423, 429, 500, 502, 503, 504]

    /// The methods that change nothing on the server (RFC 9110 §9.2.1 and
    /// WebDAV's PROPFIND and REPORT): sent again when their connection was
    /// lost before the answer.
    static let readMethods: Set<String> = ["GET", "HEAD", "OPTIONS", "PROPFIND", "REPORT"]

    /// Sends a request for `path` (absolute, percent-encoded, on the
    /// collection's server) and reads its answer: following redirects to the
    /// same scheme, host and port, and sending it again, after a wait, while
    /// the server answers a passing status (``passingStatuses``), as
    /// ``retryPolicy`` allows. Every request Horari sends may be sent twice:
    /// reads change nothing, and writes are conditional. A read whose
    /// connection closed or was lost before its answer is sent again too,
    /// under the same policy (``readMethods``); a write is not, since it may
    /// have been made: its caller asks the server.
    func send(_ method: String, path: String, headers: [String: String], body: [UInt8]?) async throws(CalendarStoreError) -> HTTPReply {
        var attempt = 0
        while true {
            let outcome = try await sendOnce(method, path: path, headers: headers, body: body)
            let retryAfter: String?
            switch outcome {
            case .reply(let reply):
                guard Self.passingStatuses.contains(reply.status), attempt < retryPolicy.retries else { return reply }
                retryAfter = reply.header("Retry-After")
            case .lost(let error):
                guard Self.readMethods.contains(method), attempt < retryPolicy.retries else { throw error }
                retryAfter = nil
            }
            attempt += 1
            let wait = retryPolicy.wait(attempt: attempt, retryAfter: retryAfter)
            do { try await Task.sleep(for: wait) } catch {
                throw CalendarStoreError(.cancelled, "\(method) \(display(path)): cancelled while waiting to ask again")
            }
        }
    }

    /// One request and its answer, following redirects to the same origin:
    /// the answer, or the error of a connection lost before it.
    private func sendOnce(_ method: String, path: String, headers: [String: String], body: [UInt8]?) async throws(CalendarStoreError) -> SentOnce {
        if let invalid { throw invalid }
        guard var url = URL(string: path, relativeTo: collection)?.absoluteURL else {
            throw CalendarStoreError(.invalidLocation, "‘\(WebDAVXML.oneLine(path))’ is not a path on \(collection.absoluteString)")
        }
        for _ in 0...Self.maxRedirects {
            let request = makeRequest(method, url: url, headers: headers, body: body)
            let what = "\(method) \(url.absoluteString)"
            switch try await transport.exchange(request, what: what) {
            case .reply(let reply):
                return .reply(reply)
            case .lost(let error):
                return .lost(error)
            case .redirect(let status, let location):
                guard let location, let target = URL(string: location, relativeTo: url)?.absoluteURL else {
                    throw CalendarStoreError(.badResponse, status: status, "\(what): a redirect without a usable Location")
                }
                guard isSameOrigin(target) else {
                    throw CalendarStoreError(.redirect, status: status, "\(what): the server redirects to \(WebDAVXML.oneLine(Self.withoutUserInfo(target))), on another server or scheme; not followed, so the credentials stay with \(collection.host ?? "the collection's host")")
                }
                url = target
            }
        }
        throw CalendarStoreError(.redirect, "\(method) \(collection.absoluteString): more than \(Self.maxRedirects) redirects in a row")
    }

    /// What one sending came to.
    enum SentOnce {
        case reply(HTTPReply)
        case lost(CalendarStoreError)
    }

    /// The request, with the credentials (to the collection's origin only:
    /// ``sendOnce(_:path:headers:body:)`` follows no redirect elsewhere).
    private func makeRequest(_ method: String, url: URL, headers: [String: String], body: [UInt8]?) -> HTTPRequest {
        var request = HTTPRequest(method: method, url: url, headers: [:], body: body)
        for (name, value) in headers { request.setHeader(name, value) }
        request.setHeader("User-Agent", "Horari-CalendarStore")
        if let credentials { request.setHeader("Authorization", credentials.basicAuthorization) }
        return request
    }

    /// A URL as text, without any user or password in it.
    static func withoutUserInfo(_ url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: true) else { return "another URL" }
        components.user = nil
        components.password = nil
        return components.string ?? "another URL"
    }
}

/// How often, and after how long, ``CalDAVClient`` asks again when a server
/// answers a passing status (423, 429, 500, 502, 503, 504): a bounded
/// number of times, each wait random (so that desks refused together do not
/// ask again together) and about twice the last, and never longer than
/// ``longestWait`` — a `Retry-After` the server sends is honoured up to that.
public struct RetryPolicy: Sendable, Hashable {
    /// How many times a request is sent again; 0 never.
    public var retries: Int
    /// The first wait's upper bound; each next doubles it.
    public var firstWait: Duration
    /// The longest one wait may be, whatever `Retry-After` says.
    public var longestWait: Duration

    /// A policy.
    /// - Parameters:
    ///   - retries: how many times a request is sent again (at least 0).
    ///   - firstWait: the first wait's upper bound (kept between 0 and a minute).
    ///   - longestWait: the longest one wait may be (kept between 0 and five minutes).
    public init(retries: Int = 8, firstWait: Duration = .milliseconds(50), longestWait: Duration = .seconds(2)) {
        self.retries = max(retries, 0)
        self.firstWait = min(max(firstWait, .zero), .seconds(60))
        self.longestWait = min(max(longestWait, .zero), .seconds(300))
    }

    /// Never asks again: the server's passing answer is the caller's.
    public static let never = RetryPolicy(retries: 0)

    /// The wait before the `attempt`th retry (from 1): what `Retry-After`
    /// says (seconds, or an HTTP date), else a random wait up to
    /// `firstWait × 2^(attempt−1)`; at most ``longestWait`` either way.
    /// - Parameters:
    ///   - attempt: which retry this is, from 1.
    ///   - retryAfter: the server's `Retry-After` header, if it sent one.
    public func wait(attempt: Int, retryAfter: String?) -> Duration {
        let longest = longestWait.timeInterval
        if let retryAfter, let asked = Self.seconds(retryAfter) {
            return Duration(timeInterval: min(max(asked, 0), longest))
        }
        let bound = min(firstWait.timeInterval * Double(1 << min(max(attempt - 1, 0), 20)), longest)
        return Duration(timeInterval: bound > 0 ? Double.random(in: bound / 2...bound) : 0)
    }

    /// A `Retry-After` value in seconds: delta-seconds, or an HTTP date from now.
    static func seconds(_ value: String) -> TimeInterval? {
        let text = value.trimmingCharacters(in: .whitespaces)
        if let whole = Int(text) { return TimeInterval(whole) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return formatter.date(from: text).map { $0.timeIntervalSinceNow }
    }
}
