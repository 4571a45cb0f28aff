// swift-tools-version:6.0
import PackageDescription

// A student's task planner on Horari: tasks in colours, the red rule, the
// month, week, day and list views, and ticks made with no signal kept on the
// phone till the calendar server answers.
//
// It depends on the library as an app outside this repository would. (From
// a clone, `name:` gives the path dependency the name the products below
// use, whatever the folder is called; from GitHub, write
// `.package(url: "https://github.com/…/horari", from: "…")` instead.)
let package = Package(
    name: "TaskPlanner",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Horari", path: "../.."),
    ],
    targets: [
        .executableTarget(
            name: "TaskPlanner",
            dependencies: [
                .product(name: "CalendarCore", package: "Horari"),
                .product(name: "CalendarViews", package: "Horari"),
                .product(name: "ICalendarKit", package: "Horari"),
                .product(name: "CalendarStore", package: "Horari"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
