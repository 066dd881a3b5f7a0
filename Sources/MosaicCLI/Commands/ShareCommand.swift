import Foundation
import MosaicCrypto
import MosaicProtocol
import MosaicSDK
import MosaicStorageCore

/// `mosaic share`: an owner-signed auth ticket for one file, for one wallet (`--to`) or anyone,
/// printed as a `mosaic-ticket:` string; `--revoke` ends a ticket on the ledger.
enum ShareCommand {
    static let command = Command(
        name: "share", summary: "share a file: print a ticket that 'mosaic download --ticket TICKET LOCAL' accepts; or revoke one",
        usage: "PATH [--to CLIENT_ID] [--expire 7d] | --revoke TICKET",
        discussion: """
            Without --to the ticket is a public link: it carries the file's key, so anyone holding it can read
            the file. With --to only that wallet can open the key (the recipient must have sent at least one
            transaction, e.g. a faucet pour, so its public key is known). --expire defaults to never;
            'mosaic share --revoke TICKET' ends a ticket at once. --read-budget bounds what the allocation's write
            pool pays for reads under the ticket (all readers together; readers with their own read pool pay
            themselves); the default is the cost of 10 full downloads at the allocation's read prices.
            """,
        examples: [
            "mosaic share /docs/report.pdf", "mosaic share /docs/report.pdf --to 6a3803d5…3827 --expire 7d",
            "mosaic share --revoke 549cf8e6…211a",
        ],
        options: Options.self, arguments: ["PATH"], minArguments: 0, maxArguments: 1,
        action: { o, inv in
            if let revoke = o.revoke { return try await ShareCommand.revoke(inv, revoke) }
            guard let path = inv.arguments.first else { throw CLIError.usage("give the PATH to share, or --revoke TICKET") }
            let ctx = try StorageContext(inv, alloc: o.target.alloc)
            let a = try await ctx.allocation(forWriting: false)
            var recipient: Ed25519.PublicKey?
            if let to = o.to {
                do { recipient = try await ctx.client.shareRecipient(to) } catch ShareError.invalidRecipient {
                    throw CLIError.usage("--to \(to): give a client id (64 hex characters)")
                }
            }
            var expiration: Int64 = 0
            if let e = o.expire { expiration = Int64(Date().timeIntervalSince1970) + Int64(clamping: e.seconds) }
            let token = try await StorageContext.failing {
                try await ctx.storage.share(
                    path, allocation: a, recipient: recipient, expiration: expiration, readBudget: o.readBudget?.baseUnits)
            }
            let budget = token.ticket.readBudget
            let who = recipient.map { "wallet \($0.clientID)" } ?? "anyone holding it (public link)"
            // A web link keeps the key in its #fragment, which no server or Referer ever sees.
            let link = recipient == nil ? ctx.ledger.network.app.flatMap(URL.init(string:)).map { token.link(base: $0) } : nil
            let text = """
                \(token.encoded)
                ticket \(token.ticket.id) for \(token.ticket.path), readable by \(who), \(expiration == 0 ? "until revoked" : "until \(Wallet.iso8601(expiration))"), reads paid by this allocation up to \(TokenAmount(baseUnits: budget)) tokens
                \(link.map { "web link: \($0)\n" } ?? "")download with: mosaic download --ticket TICKET LOCAL · revoke with: mosaic share --revoke \(token.ticket.id)
                """
            return CommandOutput(
                text: text,
                json: .object([
                    ("ticket", .string(token.encoded)), ("ticket_id", .string(token.ticket.id)), ("allocation_id", .string(a.id)),
                    ("path", .string(token.ticket.path)), ("recipient_id", .string(token.ticket.recipientID)),
                    ("expiration", .integer(expiration)),
                    ("read_budget", .integer(Int64(clamping: budget))),
                    ("link", link.map(JSONValue.string) ?? .null),
                ]))
        })

    struct Options: CommandOptions {
        var target = AllocTarget()
        @Option("to", "CLIENT_ID", help: "the only wallet that may read (default: anyone with the ticket)") var to: String?
        @Option("expire", help: "ticket lifetime, e.g. 7d (default: until revoked)") var expire: Lifetime?
        @Option("read-budget", help: "most the write pool pays for reads under the ticket (default: 10 full downloads)")
        var readBudget: TokenAmount?
        @Option("revoke", "TICKET", help: "revoke a ticket (its id or the whole ticket string)") var revoke: String?
    }

    static func revoke(_ inv: Invocation, _ text: String) async throws -> CommandOutput {
        let id: String
        if text.hasPrefix(ShareToken.prefix) || text.contains("/s/" + ShareToken.prefix) {
            id = try ShareToken.decode(link: text).ticket.id
        } else {
            guard Transaction.isHexID(text.lowercased()) else {
                throw CLIError.usage("--revoke \(text): give the ticket id (64 hex) or the ticket string")
            }
            id = text.lowercased()
        }
        let ctx = try StorageContext(inv)
        _ = try await AllocCommand.chain({ "cannot revoke ticket \(id): \($0)" }) { () async throws(WalletError) in
            try await ctx.wallet.revokeTicket(id)
        }
        return CommandOutput(
            text: "revoked ticket \(id); blobbers refuse it from now on",
            json: .object([("ticket_id", .string(id)), ("revoked", .bool(true))]))
    }
}
