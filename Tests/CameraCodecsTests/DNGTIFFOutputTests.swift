@testable import CameraCodecs
import Testing

/// The libtiff seam under `DNGWriter`: what libtiff says reaches the thrown error, not standard error.
@Suite struct DNGTIFFOutputTests {
    @Test("libtiff's own message for a tag it does not know is in the thrown error")
    func capturesLibTIFFMessages() throws {
        let output = try TIFFOutput(expectedSize: 1024)
        let error = #expect(throws: CodecError.self) { try output.set(65_000, .uint16(1)) }
        #expect(error?.kind == .encodingFailed)
        #expect(error?.description == "cannot write the DNG: libtiff refused tag 65000 = uint16(1): libtiff error: TIFFSetField: memory:"
                + " Unknown tag 65000 — free memory and try again; if it happens again, report this message")
    }
}
