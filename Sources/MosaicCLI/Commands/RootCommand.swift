/// The whole command tree of `mosaic`.
enum RootCommand {
    static var tree: Command {
        Command(
            name: "mosaic", summary: "a decentralized storage and wallet network",
            subcommands: [
                WalletCommand.command,
                NetworkCommand.command,
                NodeCommand.command,
                DevnetCommand.command,
                BlobberCommand.command,
                AllocCommand.command,
            ] + FileCommands.all + [
                NotesCommand.command,
                LockerCommand.command,
                SocialCommand.command,
                AppCommand.command,
                VersionCommand.command,
            ])
    }
}
