// swift-tools-version:6.0
import PackageDescription

// A gym's app on Horari: classes, bookings until full, a waitlist, a
// member's schedule, and .ics export and import (a Google Calendar file);
// given a CalDAV collection's URL (GYMAPP_CALDAV_URL), the same bookings on
// that server, as a phone app that syncs with one makes them.
//
// It depends on the library as an app outside this repository would. (From
// a clone, `name:` gives the path dependency the name the products below
// use, whatever the folder is called; from GitHub, write
// `.package(url: "https://github.com/…/horari", from: "…")` instead.)
let package = Package(
    name: "GymApp",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Horari", path: "../.."),
    ],
    targets: [
        .executableTarget(
            name: "GymApp",
            dependencies: [
                .product(name: "CalendarCore", package: "Horari"),
                .product(name: "CalendarScheduling", package: "Horari"),
                .product(name: "ICalendarKit", package: "Horari"),
                .product(name: "SchedulingICalendar", package: "Horari"),
                .product(name: "CalendarStore", package: "Horari"),
            ],
            // Marta's own calendar, as Google Calendar exports it.
            resources: [.copy("Resources/marta-google.ics")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
