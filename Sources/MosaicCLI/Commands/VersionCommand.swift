import MosaicProtocol

enum VersionCommand {
    static let command = Command(
        name: "version", summary: "print the version of mosaic",
        examples: ["mosaic version", "mosaic version --json"],
        action: { _ in
            CommandOutput(
                text: "mosaic \(MosaicCommandLine.version)",
                json: .object([("version", .string(MosaicCommandLine.version))]))
        })
}
