import Foundation
import MosaicCrypto
import MosaicStorageCore

/// PIN-locked files in the wallet's allocation, under `/locker` (docs/LOCKER.md).
///
/// Each file is stored like any other (encrypted with its own content key, erasure-coded, spread
/// over the blobbers), but its content key is wrapped under Argon2id(PIN, per-file salt) combined
/// with a secret derived from the owner's wallet (`LockerKeyWrap`), not sealed to the owner: the
/// wallet alone, the PIN alone, or a blobber cannot open it. Wrong PINs are counted per file in
/// `$MOSAIC_HOME/locker/attempts.json` (`LockerAttempts`), keyed by the file's wrap so that a
/// rename or a copy keeps the count, and after five, tries wait.
public struct Locker: Sendable {
    /// The folder of the allocation that holds the locker's files.
    public static let folder = "/locker"
    /// Longest name in UTF-8 bytes.
    public static let maxNameBytes = 255
    /// Wrong PINs per file before tries have to wait.
    public static let freeTries = LockerAttempts.freeTries

    let storage: StorageClient
    let allocation: StorageAllocation
    let attempts: LockerAttempts
    var parameters = LockerKeyWrap.defaultParameters
    var clock: @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970) }

    /// - Parameters:
    ///   - storage: the owner's storage client (its home keeps the wrong-PIN counts).
    ///   - allocation: the allocation whose `/locker` folder is used.
    public init(storage: StorageClient, allocation: StorageAllocation) {
        self.storage = storage
        self.allocation = allocation
        attempts = LockerAttempts(home: storage.home)
    }

    /// A name is one path part: 1–255 bytes, no "/", not "." or "..", no control characters.
    /// - Parameter name: the file's name in the locker.
    /// - Throws: `LockerError.invalidName` saying what is wrong.
    public static func validate(name: String) throws(LockerError) {
        guard !name.isEmpty, name.utf8.count <= maxNameBytes, name != ".", name != "..", !name.contains("/"),
            !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else {
            throw .invalidName(
                "'\(name)' is not a valid locker name: use 1 to \(maxNameBytes) bytes without '/' or control characters (not '.' or '..')")
        }
    }

    static func path(_ name: String) -> String { folder + "/" + name }

    /// The key of a locker file's wrong-PIN count, from the `wrapped_key` of its metadata (nil when
    /// that is not hex). The same for every name or copy of the file.
    /// - Parameter hex: the metadata's `wrapped_key`.
    public static func attemptKey(wrappedKey hex: String) -> String? {
        Hex.decode(hex).map(LockerAttempts.key(wrap:))
    }

    /// The locker's files, by name.
    /// - Returns: the entries, sorted by name.
    /// - Throws: `StorageClientError` when the folder cannot be read from enough blobbers.
    public func list() async throws -> [LockerEntry] {
        let metas: [FileMeta]
        do { metas = try await storage.list(Self.folder, allocation: allocation) } catch StorageClientError.notFound { return [] }
        return metas.filter { $0.kind == .file && $0.cipher == FileMeta.lockerCipher }.map(LockerEntry.init).sorted { $0.name < $1.name }
    }

    /// Stores `localFile` as `name`, locked with `pin`. An existing name is refused unless `replace`.
    /// - Parameters:
    ///   - localFile: the file to lock.
    ///   - name: its name in the locker.
    ///   - pin: the PIN that opens it.
    ///   - replace: overwrite a file of that name.
    ///   - contentType: the MIME type to record; nil guesses from the name.
    ///   - progress: called as bytes are sent.
    /// - Returns: the stored entry.
    /// - Throws: `LockerError` — `.invalidName`, `.exists` without `replace`, `.storage` when the
    ///   upload fails.
    @discardableResult
    public func put(
        localFile: URL, name: String, pin: LockerPIN, replace: Bool = false, contentType: String? = nil,
        progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) async throws -> LockerEntry {
        try Self.validate(name: name)
        let path = Self.path(name)
        if !replace {
            // Refuse before any Argon2id or byte is spent (the upload checks again under its commit).
            do {
                _ = try await storage.stat(path, allocation: allocation)
                throw LockerError.exists(name: name)
            } catch StorageClientError.notFound {
            } catch let e as StorageClientError {
                throw LockerError.storage(e)
            }
        }
        let secret = try LockerKeyWrap.walletSecret(storage.key)
        let params = parameters
        let wrapping = ContentKeyWrapping(
            cipher: FileMeta.lockerCipher,
            wrap: { try LockerKeyWrap.seal($0, pin: pin, walletSecret: secret, parameters: params).hex },
            unwrap: { hex in
                guard let b = Hex.decode(hex), let w = try? LockerKeyWrap(bytes: b) else { return nil }
                return (try? w.open(pin: pin, walletSecret: secret)) ?? nil
            })
        let result: UploadResult
        do {
            result = try await storage.upload(
                localFile: localFile, remotePath: path, allocation: allocation, contentType: contentType,
                replace: replace, keyWrapping: wrapping, progress: progress)
        } catch StorageClientError.alreadyExists {
            throw LockerError.exists(name: name)
        } catch let e as StorageClientError {
            throw LockerError.storage(e)
        }
        // A replaced file's count is kept: the new lock has a new wrap (and so a count of its own),
        // while a copy of the old file elsewhere must not get fresh tries.
        return LockerEntry(result.meta)
    }

    /// Opens `name` with `pin` and writes the plaintext to `destination` (a temp file beside it,
    /// renamed when complete). A wrong PIN is counted; after five, tries wait.
    /// - Parameters:
    ///   - name: the file's name in the locker.
    ///   - pin: the PIN it was locked with.
    ///   - destination: the local file to write.
    ///   - progress: called as bytes are written.
    /// - Returns: the entry.
    /// - Throws: `LockerError` — `.incorrectPIN` (with the tries left), `.tooManyAttempts` while a
    ///   wait runs, `.notFound`, `.notALockerFile`, `.damaged`, `.attemptLog`, `.storage`.
    @discardableResult
    public func get(
        name: String, pin: LockerPIN, to destination: URL,
        progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) async throws -> LockerEntry {
        try Self.validate(name: name)
        // Only the signed metadata is read before the count is checked: while the wrap's wait runs,
        // no content is fetched and no PIN is tried.
        let meta = try await lockerMeta(name)
        guard let bytes = Hex.decode(meta.wrappedKey) else { throw LockerError.damaged(name: name, reason: "its wrapped key is not hex") }
        let wrap: LockerKeyWrap
        do { wrap = try LockerKeyWrap(bytes: bytes) } catch let LockerError.damaged(_, why) {
            throw LockerError.damaged(name: name, reason: why)
        }
        let key = LockerAttempts.key(wrap: bytes)
        let failures = try attempts.begin(key, name: name, now: clock())
        guard let contentKey = try wrap.open(pin: pin, walletSecret: try LockerKeyWrap.walletSecret(storage.key)) else {
            throw LockerError.incorrectPIN(
                name: name, triesBeforeWait: max(0, LockerAttempts.freeTries - failures),
                wait: LockerAttempts.wait(afterFailures: failures))
        }
        try attempts.clear(key)
        do {
            let r = try await storage.download(
                remotePath: meta.path, to: destination, allocation: allocation, contentKey: contentKey, progress: progress)
            return LockerEntry(r.meta)
        } catch let e as StorageClientError {
            throw LockerError.storage(e)
        }
    }

    /// Deletes `name`: its metadata (with the wrapped key) and its fragments on every blobber. Its
    /// wrong-PIN count stays, since a copy of the file may still exist under another name.
    /// - Parameter name: the file's name in the locker.
    /// - Throws: `LockerError` — `.notFound`, `.notALockerFile`, `.storage`.
    public func remove(name: String) async throws {
        _ = try await lockerMeta(name)
        do { try await storage.delete(Self.path(name), allocation: allocation) } catch StorageClientError.notFound {
            throw LockerError.notFound(name: name)
        } catch let e as StorageClientError {
            throw LockerError.storage(e)
        }
    }

    /// The signed metadata of a locker file, refusing ordinary files.
    func lockerMeta(_ name: String) async throws -> FileMeta {
        try Self.validate(name: name)
        let meta: FileMeta
        do { meta = try await storage.stat(Self.path(name), allocation: allocation) } catch StorageClientError.notFound {
            throw LockerError.notFound(name: name)
        } catch let e as StorageClientError {
            throw LockerError.storage(e)
        }
        guard meta.kind == .file, meta.cipher == FileMeta.lockerCipher else { throw LockerError.notALockerFile(name: name) }
        return meta
    }
}
