import Foundation
import MosaicBlobber
import MosaicStorageCore

// A blobber in its own process, for crash tests (SIGKILL at any moment): `blobber-fixture DIR`
// starts a BlobberServer on a free loopback port, prints "PORT <n>" and serves until killed.
let args = CommandLine.arguments
guard args.count == 2 else {
    FileHandle.standardError.write(Data("usage: blobber-fixture DIR\n".utf8))
    exit(2)
}
do {
    let server = try BlobberServer(configuration: .init(directory: args[1]))
    try server.start()
    FileHandle.standardOutput.write(Data("PORT \(server.port)\n".utf8))
    while true { sleep(3600) }
} catch {
    FileHandle.standardError.write(Data("blobber-fixture: \(error)\n".utf8))
    exit(1)
}
