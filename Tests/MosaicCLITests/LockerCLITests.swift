import Foundation
import MosaicCrypto
import MosaicDatabase
import MosaicSDK
import MosaicTestSupport
import Testing

/// The Locker end to end: `mosaic devnet` with real blobbers and the `mosaic locker` commands of the
/// CLI binary, PINs from `--pin-file`.
@Suite(.serialized, .timeLimit(.minutes(6))) struct LockerCLITests: DevnetCLITesting {
    func write(_ cli: CLIRunner, _ name: String, _ text: String) throws -> String {
        let url = cli.home.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    /// Every regular file the devnet's blobbers keep (fragments, metadata, uploads).
    func blobberFiles(_ net: CLIDevnet) throws -> [URL] {
        var out: [URL] = []
        for d in try FileManager.default.contentsOfDirectory(atPath: net.dir.path) where d.hasPrefix("blobber-") {
            let root = net.dir.appendingPathComponent(d)
            let e = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey])
            while let u = e?.nextObject() as? URL {
                if (try? u.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true { out.append(u) }
            }
        }
        return out
    }

    /// The wrapped_key a blobber holds for `path`, read from its metadata database (docs/STORAGE.md).
    func wrappedKey(_ net: CLIDevnet, path: String) throws -> String? {
        for f in try blobberFiles(net) where f.lastPathComponent == "meta.sqlite" {
            let db = try Database(path: f.path)
            defer { db.close() }
            let metas = try db.prepare("SELECT meta FROM files WHERE path = ?1").query([.text(path)]) { $0.bytes(0) }
            for meta in metas {
                if let k = (try JSONSerialization.jsonObject(with: Data(meta)) as? [String: Any])?["wrapped_key"] as? String { return k }
            }
        }
        return nil
    }

    /// Opens a locker wrap exactly as docs/LOCKER.md §2 describes, independently of the SDK.
    func openWrap(_ hex: String, pin: String, seed: SecretBytes) throws -> [UInt8]? {
        let b = try #require(Hex.decode(hex))
        try #require(b.count == 80 && b[0] == 1)
        let params = Argon2id.Parameters(opsLimit: UInt64(b[1]), memLimitBytes: UInt64(1) << (UInt64(b[2]) + 10))
        let salt = Array(b[4..<20])
        let nonce = Array(b[20..<32])
        let stretched = try Argon2id.deriveKey(password: pin, salt: salt, parameters: params)
        let wallet = try HKDF.deriveKey(from: seed, salt: Array("mosaic-locker".utf8), info: Array("mosaic-locker-wallet-secret-v1".utf8))
        let kek = try HKDF.deriveKey(
            from: SecretBytes(stretched.copyBytes() + wallet.copyBytes()), salt: salt,
            info: Array("mosaic-locker-kek-v1".utf8) + Array(b[0..<4]))
        return try? AES256GCM.openCombined(Array(b[32...]), key: kek, nonce: nonce, aad: Array(b[0..<32]))
    }

    func contains(_ hay: [UInt8], _ needle: [UInt8]) -> Bool {
        guard needle.count <= hay.count, let first = needle.first else { return false }
        var i = 0
        while i + needle.count <= hay.count {
            guard let j = hay[i...].firstIndex(of: first), j + needle.count <= hay.count else { return false }
            if hay[j..<(j + needle.count)].elementsEqual(needle) { return true }
            i = j + 1
        }
        return false
    }

    @Test func lockerRoundTripWrongPINReplaceDelayAcrossRestartAndBlobberBytes() async throws {
        let cli = try cli()
        defer { cli.cleanup() }
        let dir = cli.home.appendingPathComponent("dn")
        var net = try await devnet(cli, dir: dir)
        defer { net.stopBlocking() }
        try cli.cheapWallet("alice")
        try await ok(cli, ["wallet", "faucet"])
        let alloc = try await ok(cli, ["alloc", "new", "--data", "2", "--parity", "2", "--size", "16MiB", "--expire", "30d"])
        let allocID = try #require(alloc["id"] as? String)

        let pin = try write(cli, "pin.txt", "4821\n")
        let wrong = try write(cli, "wrong.txt", "1111")
        let file = try randomFile(cli, "passport.bin", 150_000)
        let plain = Array(try Data(contentsOf: file))

        // Empty lockers list as empty; a PIN is required and checked before anything is sent.
        await #expect((try ok(cli, ["locker", "ls"])["entries"] as? [Any])?.isEmpty == true)
        await #expect(try failsWithCode(cli, ["locker", "put", file.path]).message.contains("--pin-file"))
        await #expect(
            try failsWithCode(cli, ["locker", "put", file.path, "--pin-file", try write(cli, "short.txt", "12")]).code == "invalid_pin")
        await #expect(try failsWithCode(cli, ["locker", "put", file.path, "--name", "a/b", "--pin-file", pin]).code == "invalid_name")

        // Round trip.
        let put = try await ok(cli, ["locker", "put", file.path, "--pin-file", pin])
        #expect(put["name"] as? String == "passport.bin")
        #expect(put["path"] as? String == "/locker/passport.bin")
        let ls = try await #require(try ok(cli, ["locker", "ls"])["entries"] as? [[String: Any]])
        #expect(ls.map { $0["name"] as? String } == ["passport.bin"])
        #expect(ls.first?["size"] as? Int == 150_000)
        let out = cli.home.appendingPathComponent("out.bin")
        try await ok(cli, ["locker", "get", "passport.bin", "--to", out.path, "--pin-file", pin])
        #expect(Array(try Data(contentsOf: out)) == plain)
        // An ordinary download cannot open it (the key is not sealed to the wallet).
        await #expect(
            try failsWithCode(cli, ["download", "/locker/passport.bin", cli.home.appendingPathComponent("x").path]).message.contains(
                "locker file"))
        await #expect(try failsWithCode(cli, ["share", "/locker/passport.bin"]).message.contains("cannot be shared"))

        // A wrong PIN fails authentication and says so; nothing is written.
        let bad = cli.home.appendingPathComponent("bad.bin")
        let w = try await failsWithCode(cli, ["locker", "get", "passport.bin", "--to", bad.path, "--pin-file", wrong])
        #expect(w.message.contains("incorrect PIN"))
        #expect(w.code == "incorrect_pin")
        #expect(!FileManager.default.fileExists(atPath: bad.path))

        // An existing name is refused without --replace (and left as it was); --replace overwrites.
        let other = try randomFile(cli, "other.bin", 5_000)
        let refused = try await failsWithCode(cli, ["locker", "put", other.path, "--name", "passport.bin", "--pin-file", pin])
        #expect(refused.message.contains("locker file passport.bin already exists; use --replace to overwrite"))
        #expect(refused.code == "exists")
        try await ok(cli, ["locker", "get", "passport.bin", "--to", out.path, "--replace", "--pin-file", pin])
        #expect(Array(try Data(contentsOf: out)) == plain)
        let pin2 = try write(cli, "pin2.txt", "9370")
        try await ok(cli, ["locker", "put", other.path, "--name", "passport.bin", "--replace", "--pin-file", pin2])
        await #expect(
            try failsWithCode(cli, ["locker", "get", "passport.bin", "--to", bad.path, "--pin-file", pin]).message.contains("incorrect PIN")
        )
        try await ok(cli, ["locker", "get", "passport.bin", "--to", out.path, "--replace", "--pin-file", pin2])
        #expect(try Data(contentsOf: out) == Data(contentsOf: other))
        // Back to the first file for the byte scan below.
        try await ok(cli, ["locker", "put", file.path, "--replace", "--pin-file", pin])

        // The blobbers hold neither the file nor its content key in clear: open the wrap from a
        // blobber's metadata as docs/LOCKER.md says (PIN + wallet seed), then scan every blobber file.
        let hex = try #require(try wrappedKey(net, path: "/locker/passport.bin"))
        let seed = try Keystore(home: cli.home).unlock(name: "alice", passphrase: "correct horse").signingKey.seed
        let key = try #require(try openWrap(hex, pin: "4821", seed: seed))
        #expect(key.count == 32)
        #expect(try openWrap(hex, pin: "1111", seed: seed) == nil)
        #expect(try openWrap(hex, pin: "4821", seed: SecretBytes(Random.bytes(32))) == nil, "the PIN alone must not open it")
        let needles: [(String, [UInt8])] = [
            ("content key", key), ("content key in hex", Array(Hex.encode(key).utf8)),
            ("file start", Array(plain[0..<64])), ("file middle", Array(plain[70_000..<70_064])),
            ("file end", Array(plain[(plain.count - 64)...])),
        ]
        let files = try blobberFiles(net)
        #expect(files.contains { $0.pathExtension == "frag" })
        for f in files {
            let bytes = Array(try Data(contentsOf: f))
            for (what, needle) in needles { #expect(!contains(bytes, needle), "\(f.path) holds the \(what) in clear") }
        }

        // Deleting removes the fragments and the wrapped key from every blobber.
        let diary = try randomFile(cli, "diary.txt", 3_000)
        try await ok(cli, ["locker", "put", diary.path, "--pin-file", pin])
        let fragmentsBefore = try blobberFiles(net).filter { $0.pathExtension == "frag" && $0.path.contains(allocID) }.count
        try await ok(cli, ["locker", "rm", "passport.bin"])
        await #expect((try ok(cli, ["locker", "ls"])["entries"] as? [[String: Any]])?.map { $0["name"] as? String } == ["diary.txt"])
        await #expect(try failsWithCode(cli, ["locker", "get", "passport.bin", "--to", bad.path, "--pin-file", pin]).code == "not_found")
        await #expect(try failsWithCode(cli, ["locker", "rm", "passport.bin"]).code == "not_found")
        for f in try blobberFiles(net) {
            let bytes = Array(try Data(contentsOf: f))
            #expect(!contains(bytes, Array(hex.utf8)), "\(f.path) still holds the wrapped key")
        }
        let fragmentsAfter = try blobberFiles(net).filter { $0.pathExtension == "frag" && $0.path.contains(allocID) }.count
        #expect(fragmentsAfter == fragmentsBefore - 4, "one fragment per blobber goes: \(fragmentsBefore) → \(fragmentsAfter)")

        // Five wrong PINs, then tries wait, even with the right PIN.
        func fiveWrong() async throws {
            for i in 1...5 {
                let m = try await failsWithCode(cli, ["locker", "get", "diary.txt", "--to", bad.path, "--pin-file", wrong]).message
                #expect(m.contains("incorrect PIN"))
                if i == 4 { #expect(m.contains("1 more wrong PIN allowed")) }
                if i == 5 { #expect(m.contains("the next try waits 30 s")) }
            }
        }
        try await fiveWrong()
        let locked = try await failsWithCode(cli, ["locker", "get", "diary.txt", "--to", bad.path, "--pin-file", pin])
        #expect(locked.code == "too_many_attempts")
        #expect(locked.message.contains("too many incorrect PINs for locker file diary.txt; wait"))
        #expect(!FileManager.default.fileExists(atPath: bad.path))

        // Once the wait has passed (moved back in the log), the right PIN opens it and clears the count.
        let log = cli.home.appendingPathComponent("locker/attempts.json")
        var json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: log)) as? [String: Any])
        var entries = try #require(json["files"] as? [String: [String: Any]])
        let diaryWrap = try #require(try wrappedKey(net, path: "/locker/diary.txt"))
        let entryKey = try #require(Locker.attemptKey(wrappedKey: diaryWrap))
        #expect(entries[entryKey]?["failures"] as? Int == 5)
        entries[entryKey]?["last"] = Int(Date().timeIntervalSince1970) - 3600
        json["files"] = entries
        try JSONSerialization.data(withJSONObject: json).write(to: log)
        try await ok(cli, ["locker", "get", "diary.txt", "--to", out.path, "--replace", "--pin-file", pin])
        #expect(try Data(contentsOf: out) == Data(contentsOf: diary))
        json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: log)) as? [String: Any])
        #expect((json["files"] as? [String: Any])?[entryKey] == nil)

        // Locked again; the wait survives a restart of the whole devnet (and of the CLI, a new
        // process each time): the count is kept in $MOSAIC_HOME/locker/attempts.json.
        try await fiveWrong()
        await net.stop()
        net = try await devnet(cli, dir: dir)
        try await ok(cli, ["alloc", "show", allocID])
        let still = try await failsWithCode(cli, ["locker", "get", "diary.txt", "--to", bad.path, "--pin-file", pin])
        #expect(still.code == "too_many_attempts", "\(still.message)")
        #expect(!FileManager.default.fileExists(atPath: bad.path))

        // The attack: rename or copy the locked file to get fresh tries. The count follows the
        // file's wrap (in its signed metadata), not its name, so under the new names a guess is
        // either refused while the wait runs or counted after the five already made (it never gets
        // "4 more wrong PINs allowed"); nothing is ever written.
        try await ok(cli, ["mv", "/locker/diary.txt", "/locker/renamed.txt"])
        try await ok(cli, ["cp", "/locker/renamed.txt", "/locker/copy.txt"])
        for name in ["renamed.txt", "copy.txt"] {
            let guess = try await failsWithCode(cli, ["locker", "get", name, "--to", bad.path, "--pin-file", wrong])
            #expect(guess.code == "too_many_attempts" || guess.message.contains("the next try waits"), "\(name): \(guess.message)")
            #expect(!guess.message.contains("more wrong PIN"), "\(name) got fresh tries: \(guess.message)")
        }
        #expect(!FileManager.default.fileExists(atPath: bad.path))
    }
}
