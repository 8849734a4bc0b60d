import CameraCapture
import CameraFilters
import CameraMovie
import CameraRecording
import Foundation
import PhotoLibrary

/// One take into the library, the way `camerasun record` and the viewfinder make it: its place
/// reserved before the first frame (with the room to catalogue it, so a take a full disk ends is
/// still catalogued), recorded there by a `MovieFileOutput`, and catalogued once saved from what
/// its read-back found, with its stop reason and the output's thumbnail.
///
/// ```
///  MovieTake(library:output:) ─► start(…) ─► output writes path.partial ─► Saved ─► catalogue(saved) ─► Asset
///   reserveMoviePath            startRecording(to: path)                  (validated)  MovieFacts, addMovie
/// ```
///
/// Reserving and cataloguing fsync: call them off the concurrency pool (`onOwnThread`) where the
/// pool's threads matter.
public struct MovieTake: Sendable {
    public let library: PhotoLibrary
    public let output: MovieFileOutput
    /// The take's place; keep the take until `catalogue` returns (its lock marks the take as in progress).
    public let reservation: MovieReservation

    /// Reserves the take's place in `library`, for `output` to record into.
    public init(library: PhotoLibrary, output: MovieFileOutput) throws(PhotoLibraryError) {
        self.library = library
        self.output = output
        reservation = try library.reserveMoviePath()
    }

    /// Where the saved movie goes (`reservation.path`).
    public var path: String { reservation.path }

    /// Starts recording into the reservation from the output's next frame (`MovieFileOutput.startRecording`).
    public func start(limits: MovieRecording.Limits, encoder: H264EncoderChoice, sound: MovieSound?, filters: FilterChain?) throws(MovieError) {
        try output.startRecording(to: path, limits: limits, encoder: encoder.name, sound: sound, filters: filters)
    }

    /// Starts recording into the reservation the packets of `live`'s running stream, one encode for
    /// both (`MovieFileOutput.startRecording(to:limits:sharingEncodeOf:)`).
    public func start(limits: MovieRecording.Limits, sharingEncodeOf live: LiveStreamOutput) throws(MovieError) {
        try output.startRecording(to: path, limits: limits, sharingEncodeOf: live)
    }

    /// Catalogues the saved take: its read-back facts, why it ended and the output's thumbnail of
    /// it (so call this before the output's next take starts).
    public func catalogue(_ saved: MovieRecording.Saved) throws(PhotoLibraryError) -> Asset {
        try library.addMovie(reservation, facts: MovieFacts(saved.validation), stopReason: saved.reason.rawValue,
                             thumbnail: output.status.thumbnail.map { Data($0) })
    }
}
