import Foundation
import MosaicSDK
import Synchronization

/// Which network the app talks to: the one named at start-up, else the config's current one;
/// switching in the page changes it for this app process only. The config's `current` is the
/// CLI's choice, and a click in the page must not change it behind the CLI's back.
final class NetworkState: Sendable {
    let home: URL
    private let chosen: Mutex<String?>

    init(home: URL, preferred: String?) {
        self.home = home
        chosen = Mutex(preferred)
    }

    func current() throws -> ClientConfig.Network {
        let config = try ClientConfig.load(home: home)
        return try config.resolve(chosen.withLock { $0 })
    }

    func all() throws -> [ClientConfig.Network] {
        try ClientConfig.load(home: home).networks
    }

    func use(_ name: String) throws {
        _ = try ClientConfig.load(home: home).resolve(name)
        chosen.withLock { $0 = name }
    }
}
