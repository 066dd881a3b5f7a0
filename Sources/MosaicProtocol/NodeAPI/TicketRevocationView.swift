/// `GET /v1/storage/tickets/{id}/revoked?owner=`: whether the owner revoked the auth ticket.
public struct TicketRevocationView: Sendable, Hashable, Codable {
    public var ticketID: String
    public var owner: String
    public var revoked: Bool

    enum CodingKeys: String, CodingKey {
        case ticketID = "ticket_id"
        case owner, revoked
    }

    public init(ticketID: String, owner: String, revoked: Bool) {
        self.ticketID = ticketID
        self.owner = owner
        self.revoked = revoked
    }
}
