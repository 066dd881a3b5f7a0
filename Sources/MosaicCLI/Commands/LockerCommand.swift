import Foundation
import MosaicProtocol
import MosaicSDK

/// `mosaic locker put/get/ls/rm`: PIN-locked files in the wallet's allocation, under /locker.
/// The PIN comes from `--pin-file` or a prompt without echo (twice for `put`); it is never stored.
enum LockerCommand {
    static let command = Command(
        name: "locker", summary: "files that open only with a PIN and this wallet",
        discussion: """
            Locker files live in the allocation under \(Locker.folder). Each file's key is wrapped under Argon2id(PIN,
            a salt of its own) combined with a secret derived from the wallet: a blobber, someone with only the PIN,
            or the wallet without the PIN cannot open it. After \(Locker.freeTries) wrong PINs for a file, further tries
            wait (30 s, doubling, at most 1 h). A forgotten PIN cannot be recovered. PINs have \(LockerPIN.minCharacters)
            to \(LockerPIN.maxCharacters) characters. docs/LOCKER.md says what a short PIN does and does not protect.
            """,
        subcommands: [put, get, ls, rm])

    static let put = Command(
        name: "put", summary: "lock a local FILE in the locker (asks for a new PIN twice)",
        usage: "FILE [--name NAME] [--replace]",
        examples: ["mosaic locker put ./passport.pdf", "mosaic locker put ./tax.pdf --name tax-2026.pdf --pin-file ./pin.txt --json"],
        options: PutOptions.self, arguments: ["FILE"], minArguments: 1, maxArguments: 1,
        action: { o, inv in
            let local = URL(fileURLWithPath: inv.arguments[0])
            let name = o.name ?? local.lastPathComponent
            try Locker.validate(name: name)
            var isDir: ObjCBool = false
            guard FileManager.default.fileExists(atPath: local.path, isDirectory: &isDir), !isDir.boolValue else {
                throw CLIError.failure("cannot use local file \(local.path): it does not exist or is a folder")
            }
            let ctx = try StorageContext(inv, alloc: o.target.alloc)
            let a = try await ctx.allocation(forWriting: true)
            let locker = Locker(storage: ctx.storage, allocation: a)
            if !o.replace, try await locker.list().contains(where: { $0.name == name }) {
                throw LockerError.exists(name: name)
            }
            let pin = try LockerPIN.read(pinFile: o.pin.path, prompt: "New PIN for \(name): ", confirm: true)
            let bar = ProgressBar(label: "lock", json: inv.json)
            let e = try await locker.put(localFile: local, name: name, pin: pin, replace: o.replace, progress: bar.callback)
            bar.finish()
            return CommandOutput(
                text:
                    "locked \(local.path) as \(e.name) (\(ByteSize.format(UInt64(max(0, e.size))))); open it with 'mosaic locker get \(e.name)'",
                json: .object([
                    ("allocation_id", .string(a.id)), ("name", .string(e.name)), ("path", .string(Locker.folder + "/" + e.name)),
                    ("size", .integer(e.size)), ("replaced", .bool(o.replace)),
                ]))
        })

    /// `--pin-file` of `put` and `get`.
    struct PINFile: CommandOptions {
        @Option("pin-file", "FILE", help: "read the PIN from FILE (one trailing newline is dropped) instead of asking") var path: String?
    }

    struct PutOptions: CommandOptions {
        var target = AllocTarget()
        @Option("name", "NAME", help: "name in the locker (default: FILE's name)") var name: String?
        @Flag("replace", help: "overwrite a locker file of that name") var replace: Bool
        var pin = PINFile()
    }

    struct GetOptions: CommandOptions {
        var target = AllocTarget()
        @Option("to", "PATH", help: "where to save it (default: NAME in the current folder)") var to: String?
        @Flag("replace", help: "overwrite PATH if it exists") var replace: Bool
        var pin = PINFile()
    }

    static let get = Command(
        name: "get", summary: "open locker file NAME with its PIN and save it (default ./NAME)",
        usage: "NAME [--to PATH]",
        examples: ["mosaic locker get passport.pdf", "mosaic locker get tax-2026.pdf --to ~/tax.pdf --pin-file ./pin.txt"],
        options: GetOptions.self, arguments: ["NAME"], minArguments: 1, maxArguments: 1,
        action: { o, inv in
            let name = inv.arguments[0]
            try Locker.validate(name: name)
            let local = URL(fileURLWithPath: o.to ?? name)
            if FileManager.default.fileExists(atPath: local.path), !o.replace {
                throw CLIError.failure("\(local.path) already exists; choose another path with --to or pass --replace")
            }
            let ctx = try StorageContext(inv, alloc: o.target.alloc)
            let a = try await ctx.allocation(forWriting: false)
            let locker = Locker(storage: ctx.storage, allocation: a)
            let pin = try LockerPIN.read(pinFile: o.pin.path, prompt: "PIN for \(name): ", confirm: false)
            let bar = ProgressBar(label: "open", json: inv.json)
            let e = try await locker.get(name: name, pin: pin, to: local, progress: bar.callback)
            bar.finish()
            return CommandOutput(
                text: "opened \(e.name) to \(local.path) (\(ByteSize.format(UInt64(max(0, e.size)))))",
                json: .object([
                    ("allocation_id", .string(a.id)), ("name", .string(e.name)), ("local", .string(local.path)),
                    ("size", .integer(e.size)),
                ]))
        })

    static let ls = Command(
        name: "ls", summary: "list the locker's files (name, size, modified)",
        examples: ["mosaic locker ls", "mosaic locker ls --json"],
        options: AllocTarget.self,
        action: { o, inv in
            let ctx = try StorageContext(inv, alloc: o.alloc)
            let a = try await ctx.allocation(forWriting: false)
            let entries = try await Locker(storage: ctx.storage, allocation: a).list()
            var table = Table(["NAME", "SIZE", "MODIFIED (UTC)", "TYPE"])
            for e in entries {
                table.add([
                    e.name, ByteSize.format(UInt64(max(0, e.size))), Wallet.iso8601(e.modified),
                    e.contentType.isEmpty ? "file" : e.contentType,
                ])
            }
            return CommandOutput(
                text: entries.isEmpty ? "the locker is empty; add a file with 'mosaic locker put FILE'" : table.rendered(),
                json: .object([("allocation_id", .string(a.id)), ("entries", try .output(entries))]))
        })

    static let rm = Command(
        name: "rm", summary: "delete locker file NAME (its fragments, its wrapped key and its PIN count)",
        usage: "NAME", options: AllocTarget.self, arguments: ["NAME"], minArguments: 1, maxArguments: 1,
        action: { o, inv in
            let name = inv.arguments[0]
            try Locker.validate(name: name)
            let ctx = try StorageContext(inv, alloc: o.alloc)
            let a = try await ctx.allocation(forWriting: true)
            try await Locker(storage: ctx.storage, allocation: a).remove(name: name)
            return CommandOutput(
                text: "deleted locker file \(name)", json: .object([("allocation_id", .string(a.id)), ("deleted", .string(name))]))
        })
}
