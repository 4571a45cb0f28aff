import CalendarCore
import Foundation
// Only where URLSession carries the requests: on Linux, libcurl does
// (HTTPTransport+Curl.swift), and FoundationNetworking, with libcurl and its
// two dozen libraries, would be loaded by every process that links
// CalendarStore, a CalDAV client or not.
#if canImport(FoundationNetworking) && !canImport(CCurl)
import FoundationNetworking
#endif

/// One HTTP request, as ``CalDAVClient`` makes it and either transport sends it.
struct HTTPRequest: Sendable {
    /// The method (`GET`, `PROPFIND`, `PUT`…).
    var method: String
    /// Where it goes.
    var url: URL
    /// The header fields, by name.
    var headers: [String: String]
    /// The body, if the request has one.
    var body: [UInt8]?

    /// Sets a header field, in place of any of that name in another case
    /// (as `URLRequest.setValue(_:forHTTPHeaderField:)` does).
    mutating func setHeader(_ name: String, _ value: String) {
        for key in headers.keys where key.caseInsensitiveCompare(name) == .orderedSame { headers[key] = nil }
        headers[name] = value
    }

    /// Whether the request writes (its answer must be settled on a connection of its own).
    var writes: Bool { ["PUT", "DELETE", "MKCALENDAR", "MKCOL"].contains(method) }
}

/// The reason phrases of HTTP's status codes (the IANA registry, RFC 9110
/// §15), for messages: the same words on every platform, and no
/// FoundationNetworking on Linux for `HTTPURLResponse.localizedString`.
enum HTTPStatus {
    /// The phrase of `status`, or its class's name (`Client Error`) for one
    /// without a phrase of its own; `Unknown Status` outside 100–599.
    static func phrase(_ status: Int) -> String {
        if let phrase = phrases[status] { return phrase }
        switch status {
        case 100..<200: return "Informational"
        case 200..<300: return "Success"
        case 300..<400: return "Redirection"
        case 400..<500: return "Client Error"
        case 500..<600: return "Server Error"
        default: return "Unknown Status"
        }
    }

    private static let phrases: [Int: String] = [
        100: "Continue", 101: "Switching Protocols", 102: "Processing", 103: "Early Hints",
        200: "OK", 201: "Created", 202: "Accepted", 203: "Non-Authoritative Information", 204: "No Content",
        205: "Reset Content", 206: "Partial Content", 207: "Multi-Status", 208: "Already Reported", 226: "IM Used",
        300: "Multiple Choices", 301: "Moved Permanently", 302: "Found", 303: "See Other", 304: "Not Modified",
        305: "Use Proxy", 307: "Temporary Redirect", 308: "Permanent Redirect",
        400: "Bad Request", 401: "Unauthorized", 402: "Payment Required", 403: "Forbidden", 404: "Not Found",
        405: "Method Not Allowed", 406: "Not Acceptable", 407: "Proxy Authentication Required", 408: "Request Timeout",
        409: "Conflict", 410: "Gone", 411: "Length Required", 412: "Precondition Failed", 413: "Content Too Large",
        414: "URI Too Long", 415: "Unsupported Media Type", 416: "Range Not Satisfiable", 417: "Expectation Failed",
        421: "Misdirected Request", 422: "Unprocessable Content", 423: "Locked", 424: "Failed Dependency",
        425: "Too Early", 426: "Upgrade Required", 428: "Precondition Required", 429: "Too Many Requests",
        431: "Request Header Fields Too Large", 451: "Unavailable For Legal Reasons",
        500: "Internal Server Error", 501: "Not Implemented", 502: "Bad Gateway", 503: "Service Unavailable",
        504: "Gateway Timeout", 505: "HTTP Version Not Supported", 506: "Variant Also Negotiates",
        507: "Insufficient Storage", 508: "Loop Detected", 510: "Not Extended", 511: "Network Authentication Required",
    ]
}

/// An HTTP answer, read whole.
struct HTTPReply: Sendable {
    /// The status code.
    var status: Int
    /// The header fields, by their names in lower case.
    var headers: [String: String]
    /// The body.
    var body: [UInt8]

    /// A header field's value, whatever the case of its name.
    func header(_ name: String) -> String? {
        headers[name.lowercased()]
    }
}

/// How one HTTP exchange ended.
enum HTTPOutcome: Sendable {
    /// An answer.
    case reply(HTTPReply)
    /// A redirect (301, 302, 303, 307, 308), not followed by the transport: its status and `Location`.
    case redirect(Int, String?)
    /// No whole answer: the connection closed, or was lost, after the
    /// request went out (a server restarting, a keep-alive connection it
    /// had just closed, a proxy cut). A request that changes nothing may be
    /// sent again; a write may have been made (its caller asks).
    case lost(CalendarStoreError)
}

extension HTTPTransport {
    /// Seconds, as messages say them (both transports).
    static func seconds(_ interval: TimeInterval) -> String {
        interval == interval.rounded() ? "\(Int(interval)) s" : "\(interval) s"
    }
}

#if !canImport(CCurl)
// On Linux, HTTPTransport+Curl.swift: swift-corelibs-foundation's URLSession spins a core while it waits.
/// The HTTP exchanges of one ``CalDAVClient`` on Apple platforms: one `URLSession` for all of
/// them (its connections kept alive and reused), with one session-level
/// delegate that keeps each task's state by its identifier —
/// swift-corelibs-foundation has no per-task delegates. A call suspends
/// until its task ends, blocking no thread; cancelling the calling `Task`
/// cancels the `URLSessionTask`.
final class HTTPTransport: Sendable {
    /// The session, made once.
    private let session: URLSession
    /// Its delegate: every task's state.
    private let delegate: SessionDelegate
    /// The longest one exchange may take, in seconds.
    let timeout: TimeInterval
    /// The reference mode of `Benchmarks/caldav_bench.py`
    /// (`HORARI_CALDAV_SESSION_PER_REQUEST=1`): a `URLSession` of its own
    /// for every request, as the client did before issue 29, so that the
    /// two are measured in one run. Never set otherwise.
    private let sessionPerRequest: Bool

    /// A transport whose exchanges take at most `timeout` seconds and read at most `limit` bytes.
    init(timeout: TimeInterval, limit: Int, environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.timeout = timeout
        sessionPerRequest = environment["HORARI_CALDAV_SESSION_PER_REQUEST"] == "1"
        delegate = SessionDelegate(limit: limit)
        session = Self.makeSession(timeout: timeout, delegate: delegate)
    }

    /// `request` as URLSession takes it.
    private func urlRequest(_ request: HTTPRequest) -> URLRequest {
        var made = URLRequest(url: request.url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: max(timeout, 1))
        made.httpMethod = request.method
        for (name, value) in request.headers { made.setValue(value, forHTTPHeaderField: name) }
        if let body = request.body { made.httpBody = Data(body) }
        return made
    }

    /// A session whose every task reports to `delegate`.
    private static func makeSession(timeout: TimeInterval, delegate: SessionDelegate) -> URLSession {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = max(timeout, 1)
        configuration.timeoutIntervalForResource = max(timeout, 1)
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.urlCredentialStorage = nil
        configuration.httpMaximumConnectionsPerHost = 4
        return URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
    }

    deinit {
        // The session holds its delegate until it is invalidated.
        session.finishTasksAndInvalidate()
    }

    /// Runs `request` to its end, at most ``timeout`` seconds.
    /// - Throws: `transport` (the connection, the timeout), `cancelled`
    ///   (the calling task was cancelled), `tooLarge`, `badResponse`.
    func exchange(_ request: HTTPRequest, what: String) async throws(CalendarStoreError) -> HTTPOutcome {
        // A write goes on a session of its own: on Linux, a PUT whose connection the server closed before
        // answering left the shared session's task spinning until the timeout (a PUT cut off by a proxy took
        // the whole 20 s it was given, against 0.1 s on a session of its own), and a lost write's answer must
        // be settled at once. Reads, the bulk of the requests, share the session and its connections.
        guard sessionPerRequest || request.writes else { return try await exchange(request, what: what, on: session, delegate: delegate) }
        let delegate = SessionDelegate(limit: delegate.limit)
        let session = Self.makeSession(timeout: timeout, delegate: delegate)
        defer { session.finishTasksAndInvalidate() }
        return try await exchange(request, what: what, on: session, delegate: delegate)
    }

    /// Runs `request` on `session`, whose delegate is `delegate`.
    private func exchange(_ request: HTTPRequest, what: String, on session: URLSession, delegate: SessionDelegate) async throws(CalendarStoreError) -> HTTPOutcome {
        let task = session.dataTask(with: urlRequest(request))
        let id = task.taskIdentifier
        delegate.register(id)
        let timeout = timeout
        // A Dispatch timer, not a sleeping Task: it fires on time even while
        // the cooperative threads are all busy.
        let timer = DispatchWorkItem {
            delegate.end(id, as: .timedOut)
            task.cancel()
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + max(timeout, 0.001), execute: timer)
        let ended = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<SessionDelegate.Ended, Never>) in
                if delegate.attach(id, continuation) { task.resume() }
            }
        } onCancel: {
            delegate.end(id, as: .cancelled)
            task.cancel()
        }
        timer.cancel()
        return try Self.outcome(ended, what: what, url: request.url, timeout: timeout, limit: delegate.limit)
    }

    /// What an ended task comes to.
    private static func outcome(_ ended: SessionDelegate.Ended, what: String, url: URL?, timeout: TimeInterval, limit: Int) throws(CalendarStoreError) -> HTTPOutcome {
        let host = url?.host ?? "the server"
        let state = ended.state
        switch ended.reason {
        case .timedOut:
            throw CalendarStoreError(.transport, "\(what): no answer from \(host) within \(seconds(timeout))")
        case .cancelled:
            throw CalendarStoreError(.cancelled, "\(what): cancelled before the answer came")
        case .completed:
            break
        }
        if state.tooLarge {
            let declared = state.declaredLength.map { " (it declares \($0) bytes)" } ?? ""
            throw CalendarStoreError(.tooLarge, status: state.response?.statusCode, "\(what): the answer is larger than \(limit) bytes\(declared); not read further")
        }
        var body: [UInt8] = []
        body.reserveCapacity(state.received)
        for piece in state.pieces { body.append(contentsOf: piece) }
        if let refused = state.refused {
            return .reply(HTTPReply(status: refused.statusCode, headers: headers(of: refused), body: body))
        }
        if let redirect = state.redirect {
            return .redirect(redirect.status, redirect.location)
        }
        if let error = state.error {
            let failure = transportError(error, what: what, host: host, port: url?.port, timeout: timeout)
            if (error as? URLError)?.code == .networkConnectionLost { return .lost(failure) }
            throw failure
        }
        guard let response = state.response else {
            return .lost(CalendarStoreError(.transport, "\(what): \(host) closed the connection without an HTTP answer"))
        }
        return .reply(HTTPReply(status: response.statusCode, headers: headers(of: response), body: body))
    }

    /// A response's header fields, by their names in lower case.
    private static func headers(of response: HTTPURLResponse) -> [String: String] {
        var headers: [String: String] = [:]
        for (name, value) in response.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
        }
        return headers
    }

    /// What a failed connection says: the host, and what happened.
    private static func transportError(_ error: any Error, what: String, host: String, port: Int?, timeout: TimeInterval) -> CalendarStoreError {
        let place = port.map { "\(host):\($0)" } ?? host
        let said: String
        switch (error as? URLError)?.code {
        case .timedOut?: said = "no answer from \(place) within \(seconds(timeout))"
        case .cannotConnectToHost?: said = "could not connect to \(place) (connection refused)"
        case .cannotFindHost?, .dnsLookupFailed?: said = "the host name \(host) could not be resolved"
        case .notConnectedToInternet?: said = "no network to reach \(place)"
        case .networkConnectionLost?: said = "the connection to \(place) was lost"
        case .secureConnectionFailed?, .serverCertificateUntrusted?, .serverCertificateHasBadDate?,
             .serverCertificateNotYetValid?, .serverCertificateHasUnknownRoot?, .clientCertificateRejected?, .clientCertificateRequired?:
            said = "the TLS connection to \(place) failed (its certificate is not trusted by the system's roots, or the handshake failed)"
        case .badServerResponse?: said = "\(place) answered something that is not HTTP"
        default: said = "the request to \(place) failed: \(WebDAVXML.oneLine(error.localizedDescription))"
        }
        return CalendarStoreError(.transport, "\(what): \(said)")
    }
}

/// The session's delegate: each task's state by its identifier, the
/// answer's size kept under the limit, redirects stopped, and the waiting
/// call resumed when its task ends (or times out, or is cancelled).
final class SessionDelegate: NSObject, URLSessionDataDelegate, Sendable {
    /// Why a task's wait ended.
    enum Reason: Sendable {
        /// The task completed (with an answer or an error).
        case completed
        /// The client's timeout passed first.
        case timedOut
        /// The calling task was cancelled.
        case cancelled
    }

    /// One task's state.
    struct TaskState: @unchecked Sendable {
        var response: HTTPURLResponse?
        /// The body's pieces as they came (joined once, at the end).
        var pieces: [Data] = []
        /// Their size.
        var received = 0
        var tooLarge = false
        /// The `Content-Length` an answer over the limit declared.
        var declaredLength: Int64?
        var redirect: (status: Int, location: String?)?
        /// The 401 that an authentication challenge was answered for by
        /// cancelling: the credentials sent up front were all there is.
        var refused: HTTPURLResponse?
        var error: (any Error)?
        /// Why it ended, once it has.
        var reason: Reason?
        /// The call waiting for it.
        var waiting: CheckedContinuation<Ended, Never>?
    }

    /// A task's state when its wait ended, and why.
    struct Ended: @unchecked Sendable {
        var state: TaskState
        var reason: Reason
    }

    /// The largest answer read, in bytes.
    let limit: Int
    private let tasks = Locked([Int: TaskState]())

    init(limit: Int) {
        self.limit = limit
    }

    /// Starts keeping a task's state.
    func register(_ id: Int) {
        tasks.withLock { $0[id] = TaskState() }
    }

    /// Gives the call waiting for a task; `false` (and the call resumed)
    /// when the task has already ended, so it is not to be started.
    func attach(_ id: Int, _ continuation: CheckedContinuation<Ended, Never>) -> Bool {
        let ended = tasks.withLock { tasks -> Ended? in
            guard let state = tasks[id] else { return Ended(state: TaskState(), reason: .cancelled) }
            if let reason = state.reason {
                tasks[id] = nil
                return Ended(state: state, reason: reason)
            }
            tasks[id]?.waiting = continuation
            return nil
        }
        guard let ended else { return true }
        continuation.resume(returning: ended)
        return false
    }

    /// Ends a task's wait, the first time only: resumes its call with its state.
    func end(_ id: Int, as reason: Reason) {
        let resume = tasks.withLock { tasks -> (CheckedContinuation<Ended, Never>, Ended)? in
            guard var state = tasks[id], state.reason == nil else { return nil }
            state.reason = reason
            guard let waiting = state.waiting else {
                tasks[id] = state
                return nil
            }
            state.waiting = nil
            tasks[id] = nil
            return (waiting, Ended(state: state, reason: reason))
        }
        if let (continuation, ended) = resume { continuation.resume(returning: ended) }
    }

    /// Changes a task's state, if it is still kept; returns what `change` returns.
    private func update<T>(_ id: Int, _ fallback: T, _ change: (inout TaskState) -> T) -> T {
        tasks.withLock { tasks in
            guard var state = tasks[id], state.reason == nil else { return fallback }
            let result = change(&state)
            tasks[id] = state
            return result
        }
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let limit = limit
        let over = update(dataTask.taskIdentifier, true) { state -> Bool in
            state.response = response as? HTTPURLResponse
            if response.expectedContentLength > Int64(limit) {
                state.tooLarge = true
                state.declaredLength = response.expectedContentLength
            }
            return state.tooLarge
        }
        if over { dataTask.cancel() }
        completionHandler(over ? .cancel : .allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let limit = limit
        let over = update(dataTask.taskIdentifier, false) { state -> Bool in
            guard !state.tooLarge else { return false }
            if state.received + data.count > limit {
                state.tooLarge = true
                state.pieces = []
                return true
            }
            state.received += data.count
            state.pieces.append(data)
            return false
        }
        if over { dataTask.cancel() }
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        // Never followed by URLSession, which would drop a PUT's body on
        // Linux and carry the Authorization header wherever it is sent:
        // CalDAVClient follows it itself, to its own server only.
        update(task.taskIdentifier, ()) { $0.redirect = (response.statusCode, response.value(forHTTPHeaderField: "Location")) }
        completionHandler(nil)
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        #if !canImport(FoundationNetworking)
        // A TLS server's certificate: the system's roots decide. (On Linux,
        // libcurl checks it against them without asking.)
        if challenge.protectionSpace.authenticationMethod == NSURLAuthenticationMethodServerTrust {
            completionHandler(.performDefaultHandling, nil)
            return
        }
        #endif
        // A 401 (or a proxy's 407): the credentials, if any, went with the
        // request already, so there is nothing more to offer. Cancelling
        // keeps the answer (the default handling would wait for ever on
        // Linux, where swift-corelibs-foundation proposes no credential).
        let response = challenge.failureResponse as? HTTPURLResponse
        update(task.taskIdentifier, ()) { $0.refused = response ?? $0.response }
        completionHandler(.cancelAuthenticationChallenge, nil)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let id = task.taskIdentifier
        update(id, ()) { state in
            if state.response == nil, let response = task.response as? HTTPURLResponse { state.response = response }
            if state.error == nil { state.error = error }
        }
        end(id, as: .completed)
    }
}
#endif
