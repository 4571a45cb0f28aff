import ArgumentParser
import CalendarScheduling
import Foundation
import ICalendarKit

/// `horari gym`: what the book keeps about the gym itself.
struct Gym: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gym",
        abstract: "Show or set what the calendar keeps about the gym itself.",
        discussion: """
            Examples:
              horari gym address
              horari gym address 'Gimnàs Sants <desk@gym.example>'
            """,
        subcommands: [Address.self])

    /// `horari gym address`.
    struct Address: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "address",
            abstract: "Show or keep the gym's name and address, which a class's messages come from.",
            discussion: """
                Kept once in the calendar, the address is the sender of every class's \
                invitation and cancellation written with --outbox (and of a session's when its \
                coach has no address), and the organizer a member's answer about a class must \
                name; --gym on a command overrides it for that command.

                Examples:
                  horari gym address
                  horari gym address 'Gimnàs Sants <desk@gym.example>'
                  horari gym address --none
                """)
        @Argument(help: "The gym's address, 'Name <address>' (or just the address).")
        var address: String?
        @Flag(help: "Forget the address: a class's messages then need --gym.") var none = false
        @Option(help: "text or json.") var format: OutputFormat = .text
        @OptionGroup var book: BookOptions

        func validate() throws {
            if address != nil && none { throw ValidationError("give an address or --none, not both") }
            if let address { _ = try Self.mailbox(address) }
        }

        private static func mailbox(_ text: String) throws -> IMIPMessage.Mailbox {
            do { return try IMIPMessage.Mailbox(parsing: text) } catch { throw ValidationError("the gym's address: \(error.message)") }
        }

        func run() async throws {
            let book = book
            let (gym, zone): (SchedulingNotice.Person?, String)
            if address == nil && !none {
                let b = try await book.read()
                (gym, zone) = (b.gymAddress, try book.clock(for: b).display.name)
            } else {
                let box = try address.map(Self.mailbox)
                (gym, zone) = try await book.change { b in
                    if let box { try b.setGymAddress(name: box.name ?? box.email, email: box.email) } else { b.removeGymAddress() }
                    return (b.gymAddress, try book.clock(for: b).display.name)
                }
            }
            if format == .json { return try printJSON(GymAddressJSON(gymAddress: gym.map { .init(name: $0.name, email: $0.email) }), command: "gym address", timeZone: zone) }
            guard let gym else { return print("No gym address: a class's messages need --gym 'Name <address>'.") }
            print(IMIPMessage.Mailbox(name: gym.name, email: gym.email).description)
        }
    }
}

/// The body of `gym address --format json`.
struct GymAddressJSON: Encodable {
    struct Address: Encodable {
        let name: String
        let email: String
    }

    /// `null` when the calendar keeps none.
    let gymAddress: Address?

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(gymAddress, forKey: .gymAddress)
    }

    private enum CodingKeys: String, CodingKey { case gymAddress }
}
