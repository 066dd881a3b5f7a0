import Foundation
import MosaicCrypto
import Testing

@testable import MosaicSDK

/// The Locker's pieces without a network: the key wrap format, the PIN policy and the wrong-PIN
/// counter (the end-to-end tests on a devnet are in MosaicCLITests/LockerCLITests).
@Suite struct LockerTests {
    let fast = Argon2id.Parameters.testing

    func pin(_ s: String) throws -> LockerPIN { try LockerPIN(s) }

    @Test func wrapNeedsThePINAndTheWallet() throws {
        let wallet = Ed25519.SigningKey.generate()
        let secret = try LockerKeyWrap.walletSecret(wallet)
        let key = SecretBytes(Random.bytes(32))
        let w = try LockerKeyWrap.seal(key, pin: try pin("4821"), walletSecret: secret, parameters: fast)
        #expect(w.bytes.count == 80)
        #expect(Array(w.bytes[0..<4]) == [1, 1, 3, 0])  // version, passes, log2(8 KiB), reserved
        let parsed = try LockerKeyWrap(bytes: w.bytes)
        #expect(parsed == w)
        #expect(try parsed.open(pin: try pin("4821"), walletSecret: secret) == key)
        #expect(try parsed.open(pin: try pin("4822"), walletSecret: secret) == nil)
        // The PIN alone (another wallet's secret) does not open it.
        let other = try LockerKeyWrap.walletSecret(Ed25519.SigningKey.generate())
        #expect(try parsed.open(pin: try pin("4821"), walletSecret: other) == nil)
        // The header is authenticated: a changed cost or salt fails, it does not open with other numbers.
        var tampered = w.bytes
        tampered[4] ^= 1
        #expect(try LockerKeyWrap(bytes: tampered).open(pin: try pin("4821"), walletSecret: secret) == nil)
        // Two wraps of the same key differ (fresh salt and nonce).
        #expect(try LockerKeyWrap.seal(key, pin: try pin("4821"), walletSecret: secret, parameters: fast).bytes != w.bytes)
        // The default cost is what the format records.
        #expect(LockerKeyWrap.defaultParameters.memLimitBytes == 64 << 20)
    }

    @Test func malformedWrapsAreRefused() throws {
        #expect(throws: LockerError.self) { try LockerKeyWrap(bytes: [UInt8](repeating: 0, count: 79)) }
        var b = [UInt8](repeating: 0, count: 80)
        b[0] = 2
        b[1] = 1
        b[2] = 3
        #expect(throws: LockerError.self) { try LockerKeyWrap(bytes: b) }  // unknown version
        b[0] = 1
        b[2] = 30
        #expect(throws: LockerError.self) { try LockerKeyWrap(bytes: b) }  // 1 TiB of memory: refused
    }

    @Test func pinPolicy() throws {
        for bad in ["", "123", "12\n34", "12\t34", String(repeating: "7", count: 65)] {
            #expect(throws: LockerError.self) { try LockerPIN(bad) }
        }
        _ = try LockerPIN("0000")
        _ = try LockerPIN(String(repeating: "x", count: 64))
        _ = try LockerPIN("correct horse")
        // NFC: é typed precomposed or decomposed is the same PIN.
        #expect(try LockerPIN("caf\u{e9}!").matches(try LockerPIN("cafe\u{301}!")))
        #expect(try !LockerPIN("1234").matches(try LockerPIN("1235")))
        #expect(throws: LockerError.self) { try LockerPIN(bytes: SecretBytes([0xff, 0xfe, 0x31, 0x32])) }
        let e = LockerError.invalidPIN("x")
        #expect(e.code == "invalid_pin")
    }

    @Test func wrongPINsWaitAndTheCountSurvivesARestart() throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("locker-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let key = LockerAttempts.key(wrap: Array(repeating: 0xf0, count: 80))
        var log = LockerAttempts(home: home)
        let t: Int64 = 1_800_000_000
        for i in 1...5 { #expect(try log.begin(key, name: "f", now: t + Int64(i)) == i) }
        #expect(throws: LockerError.tooManyAttempts(name: "f", retryAfter: 29)) { try log.begin(key, name: "f", now: t + 6) }
        #expect(throws: LockerError.tooManyAttempts(name: "f", retryAfter: 29)) { try log.check(key, name: "f", now: t + 6) }
        // A new instance (another process, after a restart) reads the same count.
        log = LockerAttempts(home: home)
        #expect(throws: LockerError.self) { try log.begin(key, name: "f", now: t + 34) }
        #expect(try log.begin(key, name: "f", now: t + 35) == 6)
        #expect(throws: LockerError.tooManyAttempts(name: "f", retryAfter: 60)) { try log.begin(key, name: "f", now: t + 35) }
        // Other files are not affected; clearing forgets the count.
        #expect(try log.begin(LockerAttempts.key(wrap: Array(repeating: 0x0f, count: 80)), name: "g", now: t + 36) == 1)
        try log.clear(key)
        #expect(try log.entry(key) == nil)
        #expect(try log.begin(key, name: "f", now: t + 37) == 1)
        // The wait doubles up to an hour.
        #expect((0...5).map(LockerAttempts.wait(afterFailures:)) == [0, 0, 0, 0, 0, 30])
        #expect(LockerAttempts.wait(afterFailures: 6) == 60)
        #expect(LockerAttempts.wait(afterFailures: 12) == 3600)
        #expect(LockerAttempts.wait(afterFailures: 1000) == 3600)
        // A damaged log fails closed: no PIN is tried.
        try Data("not json".utf8).write(to: log.url)
        #expect(throws: LockerError.self) { try log.begin(key, name: "f", now: t + 38) }
    }

    /// The count belongs to the wrap in the file's signed metadata, not to its name: a renamed,
    /// moved or copied locker file keeps the wrap, so it keeps the count; a file locked anew has a
    /// fresh salt, so a new wrap and a count of its own.
    @Test func theCountFollowsTheWrapNotTheName() throws {
        let wallet = Ed25519.SigningKey.generate()
        let secret = try LockerKeyWrap.walletSecret(wallet)
        let key = SecretBytes(Random.bytes(32))
        let w = try LockerKeyWrap.seal(key, pin: try pin("4821"), walletSecret: secret, parameters: fast)
        let hex = Hex.encode(w.bytes)
        // Whatever the file is called or wherever it sits, the key is the same.
        #expect(Locker.attemptKey(wrappedKey: hex) == LockerAttempts.key(wrap: w.bytes))
        #expect(Locker.attemptKey(wrappedKey: hex.uppercased()) == LockerAttempts.key(wrap: w.bytes))
        let again = try LockerKeyWrap.seal(key, pin: try pin("4821"), walletSecret: secret, parameters: fast)
        #expect(LockerAttempts.key(wrap: again.bytes) != LockerAttempts.key(wrap: w.bytes))
        #expect(Locker.attemptKey(wrappedKey: "not hex") == nil)

        let home = FileManager.default.temporaryDirectory.appendingPathComponent("locker-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let log = LockerAttempts(home: home)
        let t: Int64 = 1_800_000_000
        let k = LockerAttempts.key(wrap: w.bytes)
        for i in 1...5 { _ = try log.begin(k, name: "diary.txt", now: t + Int64(i)) }
        // "renamed.txt" is the same wrap: it waits like the original.
        #expect(throws: LockerError.tooManyAttempts(name: "renamed.txt", retryAfter: 29)) {
            try log.begin(k, name: "renamed.txt", now: t + 6)
        }
    }

    @Test func messagesSayWhatToDo() {
        #expect(LockerError.exists(name: "a.pdf").description == "locker file a.pdf already exists; use --replace to overwrite")
        #expect(
            LockerError.incorrectPIN(name: "a.pdf", triesBeforeWait: 0, wait: 30).description
                == "incorrect PIN for locker file a.pdf; the next try waits 30 s")
        #expect(LockerError.tooManyAttempts(name: "a.pdf", retryAfter: 3599).description.contains("wait 60 min"))
        #expect(throws: LockerError.self) { try Locker.validate(name: "a/b") }
        #expect(throws: LockerError.self) { try Locker.validate(name: "..") }
        #expect(throws: LockerError.self) { try Locker.validate(name: "") }
    }
}
