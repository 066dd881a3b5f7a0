import MosaicCLI

await MosaicCommandLine.main()
