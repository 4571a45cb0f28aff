// swift-tools-version:6.2
import PackageDescription

// Horari: an embeddable calendar and scheduling core.
//
// Modules point one way (../shared/DESIGN.md, Docs/Modules.md):
//   CalendarCore (Foundation only)
//     <- CalendarViews, CalendarScheduling (pure Swift; an app that only needs
//        views or booking links no C; the book knows nothing of iCalendar)
//     <- ICalendarKit (the format only: .ics bytes <-> the core model; no
//        files, folders or gym; libical behind `internal import CLibICal`
//        when the `LibICal` trait is on, as it is by default — off, as an
//        iOS app turns it, the Swift reader and writer alone, no C)
//   CalendarScheduling + ICalendarKit
//     <- SchedulingICalendar (the scheduling book <-> iCalendar mapping: the
//        X-HORARI-* names, member journals, ATTENDEE rosters, the exports)
//   ICalendarKit + CalendarScheduling + SchedulingICalendar
//     <- CalendarStore (where a calendar lives: one .ics file written
//        atomically under a folder lock, a folder of one .ics per UID, a
//        CalDAV collection; conditional writes; a booking spliced into a file)
//   all of the above
//     <- horari (the example CLI).
// The tests and the benchmark also use CLibICal directly, as a referee (with
// the trait; without it they build and run without that referee).
let package = Package(
    name: "Horari",
    // The Apple releases of autumn 2024, which carry the Swift 6 runtime:
    // typed-throws function types (FrontDesk's queued `throws(SchedulingError)`
    // closures, CalendarStore's typed change bodies) need its metadata, which
    // the compiler refuses before them. Each floor, symbol by symbol, and what
    // differs between Linux and Darwin: Docs/Platforms.md.
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "CalendarCore", targets: ["CalendarCore"]),
        .library(name: "ICalendarKit", targets: ["ICalendarKit"]),
        .library(name: "CalendarViews", targets: ["CalendarViews"]),
        .library(name: "CalendarScheduling", targets: ["CalendarScheduling"]),
        .library(name: "SchedulingICalendar", targets: ["SchedulingICalendar"]),
        .library(name: "CalendarStore", targets: ["CalendarStore"]),
        // The BookStorage protocol's conformance suite, for an app to run against its own backend.
        .library(name: "BookStorageConformance", targets: ["BookStorageConformance"]),
        // The book in PostgreSQL, for many desks on many machines (PostgresNIO): its own product, so an
        // app that does not use it builds none of SwiftNIO.
        .library(name: "CalendarStorePostgres", targets: ["CalendarStorePostgres"]),
        .executable(name: "horari", targets: ["horari"]),
    ],
    // Off (`swift build --disable-default-traits`, or `traits: []` on the
    // dependency): no libical, and no C in ICalendarKit, for platforms
    // libical cannot ship on (CalendarStore's SHA-256 is CryptoKit there).
    traits: [
        .default(enabledTraits: ["LibICal", "PostgreSQL"]),
        .trait(
            name: "LibICal",
            description: "libical (Debian's libical-dev, Homebrew's libical) reads each imported event and task beside the Swift reader, for its validation and diagnostics; the tests and benchmarks use it as a referee. Off, ICalendarKit has no C code and says the checks are unavailable."
        ),
        // On by default; only the CalendarStorePostgres product uses it. Our own builds
        // that compile every target (the sanitizers', the one without libical) turn it
        // off, so that SwiftNIO compiles in one build tree, not in four.
        .trait(
            name: "PostgreSQL",
            description: "CalendarStorePostgres: the book in PostgreSQL (PostgresBookStorage) through PostgresNIO (SwiftNIO). Off, that product is empty."
        ),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // `swift package generate-documentation` (the DocC catalogs in Sources/*/*.docc).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.4.0"),
        // SQLite, the book's embedded store (SQLiteBookStorage): Debian's libsqlite3-dev, the system's on Apple platforms.
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        // PostgreSQL, the book for many machines (CalendarStorePostgres, with the `PostgreSQL` trait).
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.25.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.5.3"),
    ],
    targets: [
        .target(name: "CalendarCore"),
        // iCalendar import/export; libical stays behind `internal import`, and
        // is linked only with the `LibICal` trait (`#if LibICal` in the code).
        .target(name: "ICalendarKit", dependencies: ["CalendarCore", .target(name: "CLibICal", condition: .when(traits: ["LibICal"]))]),
        // Month, week, day and list view models (pure; no UI).
        .target(name: "CalendarViews", dependencies: ["CalendarCore"]),
        // Coaches, clients, sessions, classes, bookings and waitlists (pure; no C).
        .target(name: "CalendarScheduling", dependencies: ["CalendarCore"]),
        // The scheduling book in a calendar file: `ICalendar(book, for:)`,
        // `calendar.schedulingBook()`, `calendar.setScheduling(book)`.
        .target(name: "SchedulingICalendar", dependencies: ["CalendarCore", "CalendarScheduling", "ICalendarKit"]),
        // Where a calendar lives: a file (`CalendarFile`, and `SchedulingFile`'s
        // splice of one booking), a folder of one .ics per UID (vdir), a CalDAV
        // collection (URLSession on Apple platforms, libcurl opened at the first request on Linux; libxml2 opened at the first answer); and the
        // scheduling store, the gym's book on any of them (SchedulingStore).
        .target(name: "CalendarStore", dependencies: [
            "CalendarCore", "ICalendarKit", "CalendarScheduling", "SchedulingICalendar",
            // SHA-256 for the cache's and a folder's file names: CryptoKit on Apple platforms.
            .target(name: "CLibCrypto", condition: .when(platforms: [.linux, .android, .openbsd])),
            // HTTP for CalDAV on Linux (URLSession on Apple platforms): HTTPTransport+Curl.swift says why.
            .target(name: "CCurl", condition: .when(platforms: [.linux])),
            // libxml2's reader for WebDAV's answers, opened at the first one (Sources/CLibXML2/shim.h says why).
            "CLibXML2",
            .product(name: "GRDB", package: "GRDB.swift"),
        ]),
        // The protocol's guarantees as checks an app runs against its own BookStorage (any test framework).
        .target(name: "BookStorageConformance", dependencies: ["CalendarCore", "CalendarScheduling", "CalendarStore"]),
        // BookStorage in PostgreSQL (`#if PostgreSQL`: empty without the trait).
        .target(name: "CalendarStorePostgres", dependencies: [
            "CalendarCore", "CalendarStore",
            .product(name: "PostgresNIO", package: "postgres-nio", condition: .when(traits: ["PostgreSQL"])),
            .product(name: "NIOSSL", package: "swift-nio-ssl", condition: .when(traits: ["PostgreSQL"])),
            .product(name: "Logging", package: "swift-log", condition: .when(traits: ["PostgreSQL"])),
        ]),
        // Not API: one desk as a process of its own, for the tests that race and kill processes on one
        // SQLite book, or on one PostgreSQL database (as separate machines would).
        .executableTarget(name: "_BookDesk", dependencies: ["CalendarCore", "CalendarScheduling", "SchedulingICalendar", "CalendarStore", "CalendarStorePostgres"]),
        // Not API: helpers shared by the tests and the benchmarks.
        .target(name: "_CalendarTestSupport"),
        // Not API: the test gym (a book with coaches, clients, members and
        // classes) for CalendarSchedulingTests and IntegrationTests.
        .target(name: "_SchedulingTestSupport", dependencies: ["CalendarCore", "CalendarScheduling"]),
        // Not API: the test data in Tests/Fixtures, each file kept once and
        // read by every test target that needs it (`Fixture.url(_:)`).
        .target(
            name: "_CalendarTestFixtures",
            dependencies: ["_CalendarTestSupport"],
            path: "Tests/Fixtures",
            resources: [.copy("ics"), .copy("jcal"), .copy("fuzz"), .copy("dateutil_rrule_cases.json"), .copy("ciede2000_css_vs_red.json")]
        ),
        // OpenSSL's libcrypto: SHA-256 on Linux, in CalendarStore's Digest only, opened at the
        // first digest (Sources/CLibCrypto/shim.h says why): no header, no link.
        .systemLibrary(name: "CLibCrypto"),
        // libcurl's header only: the library is loaded on the first request (Sources/CCurl/shim.h says why).
        // Debian's libcurl4-openssl-dev puts it where the compiler looks (/usr/include/<triple>/curl).
        .systemLibrary(name: "CCurl"),
        // libxml2, declared in its shim and opened on the first WebDAV answer: no header, no link.
        .systemLibrary(name: "CLibXML2"),
        .systemLibrary(
            name: "CLibICal",
            pkgConfig: "libical",
            providers: [.apt(["libical-dev"]), .brew(["libical"])]
        ),
        .executableTarget(
            name: "horari",
            dependencies: [
                "CalendarCore",
                "ICalendarKit",
                "CalendarViews",
                "CalendarScheduling",
                "SchedulingICalendar",
                "CalendarStore",
                "CalendarStorePostgres",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Examples/horari",
            plugins: ["EmbedSample"]
        ),
        // Build-time only: the sample calendar embedded in `horari` (Plugins/).
        .executableTarget(name: "EmbedText", path: "Plugins/EmbedText"),
        .plugin(name: "EmbedSample", capability: .buildTool(), dependencies: ["EmbedText"]),
        // The README's and the DocC articles' Swift snippets, compiled by every
        // build and run by `make snippets` (Plugins/CompileDocSnippets).
        .executableTarget(
            name: "DocSnippets",
            dependencies: ["CalendarCore", "ICalendarKit", "CalendarViews", "CalendarScheduling", "SchedulingICalendar", "CalendarStore"],
            path: "Examples/DocSnippets",
            // A snippet computes values for the reader to look at, which the
            // compiler calls "never used": those warnings say nothing here.
            swiftSettings: [.unsafeFlags(["-suppress-warnings"])],
            plugins: ["CompileDocSnippets"]
        ),
        .executableTarget(name: "ExtractSnippets", path: "Plugins/ExtractSnippets"),
        .plugin(name: "CompileDocSnippets", capability: .buildTool(), dependencies: ["ExtractSnippets"]),
        .executableTarget(
            name: "HorariBench",
            dependencies: ["CalendarCore", "ICalendarKit", "CalendarViews", "CalendarScheduling", .target(name: "CLibICal", condition: .when(traits: ["LibICal"])), "_CalendarTestSupport"],
            path: "Benchmarks/HorariBench"
        ),
        // Not in `make test`: sequential GETs against a CalDAV server, for Benchmarks/caldav_bench.py.
        .executableTarget(name: "CalDAVBench", dependencies: ["CalendarStore"], path: "Benchmarks/CalDAVBench"),
        // Fuzzing (CONTRIBUTING.md, `make fuzz`): what each input must survive,
        // and one libFuzzer executable per entry point. Built plainly, each
        // replays inputs; with `-sanitize=fuzzer,address -DFUZZING`, it fuzzes.
        .target(name: "_HorariFuzzing", dependencies: ["CalendarCore", "ICalendarKit", "CLibFuzzer"], path: "Fuzz/Targets"),
        .systemLibrary(name: "CLibFuzzer", path: "Fuzz/CLibFuzzer"),
        .executableTarget(name: "FuzzICalendarImport", dependencies: ["_HorariFuzzing"], path: "Fuzz/ICalendarImport"),
        .executableTarget(name: "FuzzRecurrence", dependencies: ["_HorariFuzzing"], path: "Fuzz/Recurrence"),
        // One test target per module, each depending only on what it imports,
        // so that a test of CalendarCore cannot lean on ICalendarKit; what
        // crosses modules (the README's examples, the five apps, scheduling ⇄
        // iCalendar, libical as the recurrence referee, fuzz findings) is in
        // IntegrationTests.
        .testTarget(name: "CalendarCoreTests", dependencies: ["CalendarCore", "_CalendarTestSupport", "_CalendarTestFixtures"]),
        .testTarget(
            name: "ICalendarKitTests",
            dependencies: ["CalendarCore", "CalendarViews", "ICalendarKit", .target(name: "CLibICal", condition: .when(traits: ["LibICal"])), "_CalendarTestSupport", "_CalendarTestFixtures"]
        ),
        .testTarget(name: "CalendarViewsTests", dependencies: ["CalendarCore", "CalendarViews"]),
        .testTarget(name: "CalendarSchedulingTests", dependencies: ["CalendarCore", "CalendarScheduling", "_SchedulingTestSupport"]),
        // Support/hostile_dav.py: a misbehaving WebDAV server the CalDAV tests start with python3.
        .testTarget(
            name: "CalendarStoreTests",
            dependencies: ["CalendarCore", "ICalendarKit", "CalendarScheduling", "SchedulingICalendar", "CalendarStore", "BookStorageConformance", "_BookDesk", "_CalendarTestSupport", "_SchedulingTestSupport"],
            exclude: ["Support/hostile_dav.py"]),
        // CalendarStorePostgres against a real PostgreSQL 15 the tests start (HORARI_POSTGRES_BIN; `make deps` installs it).
        .testTarget(
            name: "CalendarStorePostgresTests",
            dependencies: [
                "CalendarCore", "CalendarScheduling", "CalendarStore", "BookStorageConformance", "CalendarStorePostgres", "_BookDesk", "_CalendarTestSupport",
                .product(name: "PostgresNIO", package: "postgres-nio", condition: .when(traits: ["PostgreSQL"])),
            ],
            exclude: ["Support/cut_proxy.py"]),
        .testTarget(
            name: "IntegrationTests",
            dependencies: [
                "CalendarCore", "ICalendarKit", "CalendarViews", "CalendarScheduling", "SchedulingICalendar", "CalendarStore",
                .target(name: "CLibICal", condition: .when(traits: ["LibICal"])),
                "_CalendarTestSupport", "_CalendarTestFixtures", "_SchedulingTestSupport", "_HorariFuzzing",
            ]
        ),
        // Runs the built `horari` and compares its output with golden files.
        .testTarget(name: "HorariCLITests", dependencies: ["horari", "_CalendarTestSupport"], exclude: ["Golden"]),
    ],
    swiftLanguageModes: [.v6]
)
