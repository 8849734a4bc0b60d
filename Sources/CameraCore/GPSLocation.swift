/// Where a photo was taken, for its EXIF GPS block: WGS 84 degrees (north and east positive) and
/// metres above sea level.
public struct GPSLocation: Sendable, Hashable {
    /// −90…90, north positive.
    public var latitude: Double
    /// −180…180, east positive.
    public var longitude: Double
    /// Metres above sea level (negative below); nil when unknown.
    public var altitude: Double?

    public init(latitude: Double, longitude: Double, altitude: Double? = nil) {
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
    }
}
