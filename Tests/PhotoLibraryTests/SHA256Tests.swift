import Foundation
@testable import PhotoLibrary
import Testing

@Suite struct SHA256Tests {
    static func digest(_ bytes: [UInt8]) -> String {
        bytes.withUnsafeBytes { SHA256.hash($0).hexadecimal }
    }

    @Test("the FIPS 180-4 example messages hash to their published digests", arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
         "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
    ])
    func publishedVectors(message: String, expected: String) {
        #expect(Self.digest(Array(message.utf8)) == expected)
    }

    @Test("every padding case and a 1 MB buffer agree with sha256sum",
          arguments: [1, 55, 56, 57, 63, 64, 65, 119, 120, 1 << 20])
    func agreesWithSha256sum(length: Int) throws {
        let bytes = (0..<length).map { _ in UInt8.random(in: 0...255) }
        #expect(Self.digest(bytes) == (try sha256sum(bytes)))
    }

    @Test("splitting the message into updates of any size gives the one-shot digest",
          arguments: [1, 3, 63, 64, 65, 1000])
    func incrementalUpdates(chunk: Int) {
        let bytes = (0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        var hasher = SHA256()
        for start in stride(from: 0, to: bytes.count, by: chunk) {
            bytes[start..<min(start + chunk, bytes.count)].withUnsafeBytes { hasher.update($0) }
        }
        #expect(hasher.finalize().hexadecimal == Self.digest(bytes))
    }
}
