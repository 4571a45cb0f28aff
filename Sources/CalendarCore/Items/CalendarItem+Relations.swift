extension CalendarItem {
    /// How an item stands to the one a relation names (`RELTYPE`, RFC 5545
    /// §3.2.15; RFC 9253 §5 registers more, such as `FIRST`, `NEXT` and
    /// `DEPENDS-ON`). Compared upper case, as parameter values are.
    ///
    /// ```swift
    /// match.relate(to: "round-12", as: .parent)   // the match is part of round 12
    /// ```
    public struct RelationType: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
        /// The `RELTYPE` value, upper case.
        public let rawValue: String

        /// A type by its `RELTYPE` value, in any case.
        /// - Parameter rawValue: such as `PARENT` or `X-ROUND`.
        public init(rawValue: String) { self.rawValue = rawValue.uppercased() }

        /// The named item holds this one (a round holds its matches); the
        /// default when `RELTYPE` is left out.
        public static let parent = RelationType(rawValue: "PARENT")
        /// The named item is part of this one.
        public static let child = RelationType(rawValue: "CHILD")
        /// The named item shares a parent with this one.
        public static let sibling = RelationType(rawValue: "SIBLING")

        /// The `RELTYPE` value.
        public var description: String { rawValue }
    }

    /// One relation of an item to another (a `RELATED-TO` in iCalendar, RFC
    /// 5545 §3.8.4.5): whom it names, and how this item stands to it.
    ///
    /// ICalendarKit reads and writes an item's relations
    /// (`CalendarItem.relations`, `parentUID`): a `UID` when the line has no
    /// `VALUE` or `VALUE=TEXT` or `VALUE=UID` (RFC 9253 §7), a link with `VALUE=URI`.
    public struct Relation: Hashable, Sendable, Codable {
        /// What a relation names.
        public enum Target: Hashable, Sendable, Codable {
            /// Another item, by its `UID`.
            case uid(String)
            /// A resource elsewhere, by its URI (`VALUE=URI`, RFC 9253).
            case uri(String)
        }

        /// Whom it names.
        public var target: Target
        /// How this item stands to it.
        public var type: RelationType

        /// A relation to another item, by `UID`.
        /// - Parameters:
        ///   - uid: the other item's `UID`.
        ///   - type: how this item stands to it; ``RelationType/parent`` by default.
        public init(uid: String, type: RelationType = .parent) {
            self.init(target: .uid(uid), type: type)
        }

        /// A relation to anything a relation can name.
        /// - Parameters:
        ///   - target: a `UID` or a URI.
        ///   - type: how this item stands to it.
        public init(target: Target, type: RelationType = .parent) {
            self.target = target
            self.type = type
        }

        /// The `UID` it names, or `nil` for a URI.
        public var uid: String? {
            if case .uid(let uid) = target { return uid }
            return nil
        }
    }
}
