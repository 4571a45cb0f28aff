// swift-tools-version:6.1
import PackageDescription

// Reading and writing .ics files where libical cannot go: Horari with its
// `LibICal` trait off, as an iOS app depends on it. No C is linked; the
// occurrences are the ones the default build (with libical) reads.
//
// Built plainly, the app has no libical. `swift build --traits WithLibICal`
// builds the same app on Horari's default (libical checks each import), and
// `make test-pure` shows the two print the same (Examples/check_examples.sh).
let package = Package(
    name: "PortableICS",
    // Horari's floors (Docs/Platforms.md): an iOS app with the trait off is what this app stands for.
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    traits: [
        .trait(name: "WithLibICal", description: "Build on Horari's default, with libical checking each import."),
    ],
    dependencies: [
        // No default traits: `LibICal` only when this app's `WithLibICal` is on.
        .package(name: "Horari", path: "../..", traits: [.trait(name: "LibICal", condition: .when(traits: ["WithLibICal"]))]),
    ],
    targets: [
        .executableTarget(
            name: "PortableICS",
            dependencies: [
                .product(name: "CalendarCore", package: "Horari"),
                .product(name: "ICalendarKit", package: "Horari"),
            ],
            // A Google Calendar export and an Outlook meeting on a zone only
            // its file defines; `PortableICS FILE…` reads any others.
            resources: [.copy("Resources/marta-google.ics"), .copy("Resources/outlook-budget.ics")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
