// swift-tools-version:6.0
import PackageDescription

// A remote personal trainer's app on Horari: coaches, clients, sessions,
// clashes, free slots and a client's history, kept as JSON (no iCalendar).
//
// It depends on the library as an app outside this repository would. (From
// a clone, `name:` gives the path dependency the name the products below
// use, whatever the folder is called; from GitHub, write
// `.package(url: "https://github.com/…/horari", from: "…")` instead.)
let package = Package(
    name: "TrainerApp",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Horari", path: "../.."),
    ],
    targets: [
        .executableTarget(
            name: "TrainerApp",
            dependencies: [
                .product(name: "CalendarCore", package: "Horari"),
                .product(name: "CalendarScheduling", package: "Horari"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
