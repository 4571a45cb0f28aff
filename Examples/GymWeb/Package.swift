// swift-tools-version:6.2
import PackageDescription

// GymWeb: the gym on the web, `horari-web`. Pages rendered from the
// library's view models (the week's timetable, the month grid, a member's
// bookings), booking and cancelling through `SchedulingStore` on any store
// the CLI takes (.ics, a folder, CalDAV, SQLite, postgres://), served by
// Hummingbird; several of them on one PostgreSQL database are as safe as one.
//
// It depends on the library as an app outside this repository would (by
// path here; from GitHub, `.package(url: "https://github.com/…/horari", from: "…")`).
let package = Package(
    name: "GymWeb",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "horari-web", targets: ["GymWeb"]),
    ],
    dependencies: [
        .package(name: "Horari", path: "../.."),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
    ],
    targets: [
        .executableTarget(
            name: "GymWeb",
            dependencies: [
                .product(name: "CalendarCore", package: "Horari"),
                .product(name: "CalendarViews", package: "Horari"),
                .product(name: "CalendarScheduling", package: "Horari"),
                .product(name: "ICalendarKit", package: "Horari"),
                .product(name: "SchedulingICalendar", package: "Horari"),
                .product(name: "CalendarStore", package: "Horari"),
                .product(name: "CalendarStorePostgres", package: "Horari"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Mustache", package: "swift-mustache"),
            ],
            resources: [.copy("Resources/templates"), .copy("Resources/style.css")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
