import Foundation

/// Entry point of the `mosaic` executable.
public enum MosaicCommandLine {
    public static let version = "0.1.0"

    public static func main() async {
        let args = Array(CommandLine.arguments.dropFirst())
        if args.first == "version" {
            print("mosaic \(version)")
            exit(0)
        }
        FileHandle.standardError.write(Data("usage: mosaic version\n".utf8))
        exit(2)
    }
}
