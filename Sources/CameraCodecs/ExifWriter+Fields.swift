import CameraCore
import CExif
import Foundation

/// Which EXIF tags a photo gets, and how each value is represented.
extension ExifWriter {
    /// The tags for `metadata`, after checking that every value fits EXIF.
    static func fields(_ metadata: ExifMetadata, pixelSize: PixelSize, hasThumbnail: Bool) throws(CodecError) -> [Field] {
        try validate(metadata)
        let (dateTime, subSeconds, offset) = timestamp(metadata.captureDate, in: metadata.timeZone)
        let dpi72 = ExifValue.rational([(72, 1)]), inches = ExifValue.short([2])
        var fields: [Field] = [
            Field(EXIF_IFD_0, EXIF_TAG_MAKE, .ascii(metadata.make)),
            Field(EXIF_IFD_0, EXIF_TAG_MODEL, .ascii(metadata.model)),
            Field(EXIF_IFD_0, EXIF_TAG_ORIENTATION, .short([metadata.orientation.exifOrientation])),
            Field(EXIF_IFD_0, EXIF_TAG_X_RESOLUTION, dpi72),
            Field(EXIF_IFD_0, EXIF_TAG_Y_RESOLUTION, dpi72),
            Field(EXIF_IFD_0, EXIF_TAG_RESOLUTION_UNIT, inches),
            Field(EXIF_IFD_0, EXIF_TAG_SOFTWARE, .ascii(metadata.software)),
            Field(EXIF_IFD_0, EXIF_TAG_YCBCR_POSITIONING, .short([1])),

            Field(EXIF_IFD_EXIF, EXIF_TAG_EXPOSURE_TIME, .rational([exposureTime(metadata.exposureTime)])),
            Field(EXIF_IFD_EXIF, EXIF_TAG_FNUMBER, .rational([ExifValue.fraction(metadata.fNumber)])),
            Field(EXIF_IFD_EXIF, EXIF_TAG_EXPOSURE_PROGRAM, .short([metadata.exposureProgram.rawValue])),
            Field(EXIF_IFD_EXIF, EXIF_TAG_ISO_SPEED_RATINGS, .short([UInt16(clamping: metadata.iso)])),
            Field(EXIF_IFD_EXIF, EXIF_TAG_EXIF_VERSION, .undefined(Array("0232".utf8))),
            Field(EXIF_IFD_EXIF, EXIF_TAG_DATE_TIME_ORIGINAL, .ascii(dateTime)),
            Field(EXIF_IFD_EXIF, EXIF_TAG_OFFSET_TIME_ORIGINAL, .ascii(offset)),
            Field(EXIF_IFD_EXIF, EXIF_TAG_COMPONENTS_CONFIGURATION, .undefined([1, 2, 3, 0])),
            Field(EXIF_IFD_EXIF, EXIF_TAG_EXPOSURE_BIAS_VALUE, .signedRational([ExifValue.signedFraction(metadata.exposureBias)])),
            Field(EXIF_IFD_EXIF, EXIF_TAG_METERING_MODE, .short([metadata.meteringMode.rawValue])),
            Field(EXIF_IFD_EXIF, EXIF_TAG_FLASH, .short([metadata.flash.exifValue])),
            Field(EXIF_IFD_EXIF, EXIF_TAG_FOCAL_LENGTH, .rational([ExifValue.fraction(metadata.focalLength)])),
            Field(EXIF_IFD_EXIF, EXIF_TAG_SUB_SEC_TIME_ORIGINAL, .ascii(subSeconds)),
            Field(EXIF_IFD_EXIF, EXIF_TAG_FLASH_PIX_VERSION, .undefined(Array("0100".utf8))),
            Field(EXIF_IFD_EXIF, EXIF_TAG_COLOR_SPACE, .short([1])),
            Field(EXIF_IFD_EXIF, EXIF_TAG_PIXEL_X_DIMENSION, .long([UInt32(pixelSize.width)])),
            Field(EXIF_IFD_EXIF, EXIF_TAG_PIXEL_Y_DIMENSION, .long([UInt32(pixelSize.height)])),
            Field(EXIF_IFD_EXIF, EXIF_TAG_EXPOSURE_MODE, .short([metadata.exposureMode.rawValue])),
            Field(EXIF_IFD_EXIF, EXIF_TAG_WHITE_BALANCE, .short([metadata.whiteBalance.rawValue])),
            Field(EXIF_IFD_EXIF, EXIF_TAG_DIGITAL_ZOOM_RATIO, .rational([ExifValue.fraction(metadata.digitalZoomRatio)])),
        ]
        if let brightness = metadata.brightnessValue {
            fields.append(Field(EXIF_IFD_EXIF, EXIF_TAG_BRIGHTNESS_VALUE, .signedRational([ExifValue.signedFraction(brightness)])))
        }
        if let artist = metadata.artist {
            fields.append(Field(EXIF_IFD_0, EXIF_TAG_ARTIST, .ascii(artist)))
        }
        if let comment = metadata.userComment {
            fields.append(Field(EXIF_IFD_EXIF, EXIF_TAG_USER_COMMENT, .undefined(userComment(comment))))
        }
        if let location = metadata.location {
            fields += gpsFields(location)
        }
        if let sources = metadata.compositeSources {
            fields += compositeFields(sources)
        }
        if hasThumbnail {
            fields += [
                Field(EXIF_IFD_1, EXIF_TAG_COMPRESSION, .short([6])),
                Field(EXIF_IFD_1, EXIF_TAG_X_RESOLUTION, dpi72),
                Field(EXIF_IFD_1, EXIF_TAG_Y_RESOLUTION, dpi72),
                Field(EXIF_IFD_1, EXIF_TAG_RESOLUTION_UNIT, inches),
            ]
        }
        return fields
    }

    /// EXIF 2.32's composite tags: CompositeImage 3 (captured as one shot from several exposures)
    /// and the number of source images, all of them used.
    private static func compositeFields(_ sources: [MediaTime]) -> [Field] {
        let count = UInt16(clamping: sources.count)
        return [
            Field(EXIF_IFD_EXIF, EXIF_TAG_COMPOSITE_IMAGE, .short([3])),
            Field(EXIF_IFD_EXIF, EXIF_TAG_SOURCE_IMAGE_NUMBER_OF_COMPOSITE_IMAGE, .short([count, count])),
        ]
    }

    /// The GPS IFD: version 2.3, latitude and longitude as degrees, minutes and seconds (to a
    /// thousandth of a second, 3 cm) with N/S and E/W references, altitude above or below sea level.
    private static func gpsFields(_ location: GPSLocation) -> [Field] {
        func gps(_ tag: Int32) -> ExifTag { ExifTag(rawValue: UInt32(tag)) }
        var fields = [
            Field(EXIF_IFD_GPS, gps(EXIF_TAG_GPS_VERSION_ID), .byte([2, 3, 0, 0])),
            Field(EXIF_IFD_GPS, gps(EXIF_TAG_GPS_LATITUDE_REF), .ascii(location.latitude < 0 ? "S" : "N")),
            Field(EXIF_IFD_GPS, gps(EXIF_TAG_GPS_LATITUDE), degreesMinutesSeconds(location.latitude)),
            Field(EXIF_IFD_GPS, gps(EXIF_TAG_GPS_LONGITUDE_REF), .ascii(location.longitude < 0 ? "W" : "E")),
            Field(EXIF_IFD_GPS, gps(EXIF_TAG_GPS_LONGITUDE), degreesMinutesSeconds(location.longitude)),
        ]
        if let altitude = location.altitude {
            fields.append(Field(EXIF_IFD_GPS, gps(EXIF_TAG_GPS_ALTITUDE_REF), .byte([altitude < 0 ? 1 : 0])))
            fields.append(Field(EXIF_IFD_GPS, gps(EXIF_TAG_GPS_ALTITUDE), .rational([ExifValue.fraction(abs(altitude))])))
        }
        return fields
    }

    private static func degreesMinutesSeconds(_ angle: Double) -> ExifValue {
        let magnitude = abs(angle)
        let degrees = magnitude.rounded(.down)
        let minutes = ((magnitude - degrees) * 60).rounded(.down)
        let milliseconds = ((magnitude - degrees) * 3600 - minutes * 60) * 1000
        return .rational([(UInt32(degrees), 1), (UInt32(minutes), 1), (UInt32(milliseconds.rounded()), 1000)])
    }

    /// The exposure time as an exact fraction when its timescale allows (1/250 s from any
    /// timescale), else the closest fraction.
    private static func exposureTime(_ time: MediaTime) -> (numerator: UInt32, denominator: UInt32) {
        var (numerator, denominator) = (time.value, Int64(time.timescale))
        var (a, b) = (numerator, denominator)
        while b != 0 { (a, b) = (b, a % b) }
        (numerator, denominator) = (numerator / a, denominator / a)
        if let exactNumerator = UInt32(exactly: numerator), let exactDenominator = UInt32(exactly: denominator) {
            return (exactNumerator, exactDenominator)
        }
        return ExifValue.fraction(time.seconds)
    }

    /// DateTimeOriginal ("YYYY:MM:DD HH:MM:SS", local time in `zone`), SubSecTimeOriginal
    /// (milliseconds, three digits) and OffsetTimeOriginal ("+HH:MM").
    static func timestamp(_ date: Date, in zone: TimeZone) -> (dateTime: String, subSeconds: String, offset: String) {
        let milliseconds = (date.timeIntervalSince1970 * 1000).rounded()
        let seconds = (milliseconds / 1000).rounded(.down)
        let whole = Date(timeIntervalSince1970: seconds)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: whole)
        let dateTime = String(format: "%04d:%02d:%02d %02d:%02d:%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0,
                              parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0)
        let offsetMinutes = zone.secondsFromGMT(for: whole) / 60
        let offset = String(format: "%@%02d:%02d", offsetMinutes < 0 ? "-" : "+", abs(offsetMinutes) / 60, abs(offsetMinutes) % 60)
        return (dateTime, String(format: "%03d", Int(milliseconds - seconds * 1000)), offset)
    }

    /// UserComment: an 8-byte character code, then the text — ASCII when it is, else UTF-16 in
    /// the block's (little-endian) byte order.
    private static func userComment(_ text: String) -> [UInt8] {
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return Array("ASCII\0\0\0".utf8) + Array(text.utf8) }
        return Array("UNICODE\0".utf8) + text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
    }

    private static func validate(_ metadata: ExifMetadata) throws(CodecError) {
        guard metadata.exposureTime.isNumeric else {
            throw CodecError(.invalidSetting, "the EXIF exposure time must be a number of seconds, not"
                + " \(metadata.exposureTime.kind) — pass the frame's exposure duration")
        }
        try check("EXIF exposure time", metadata.exposureTime.seconds, 1e-6...86_400, unit: "s")
        try check("EXIF f-number", metadata.fNumber, 0.5...1000)
        try check("EXIF ISO speed", Double(metadata.iso), 1...Double(Int32.max))
        try check("EXIF exposure bias", metadata.exposureBias, -64...64, unit: "EV")
        try check("EXIF focal length", metadata.focalLength, 0.1...100_000, unit: "mm")
        try check("EXIF digital zoom ratio", metadata.digitalZoomRatio, 1...1000)
        if let brightness = metadata.brightnessValue { try check("EXIF brightness value", brightness, -64...64, unit: "APEX") }
        if let location = metadata.location {
            try check("GPS latitude", location.latitude, -90...90, unit: "°")
            try check("GPS longitude", location.longitude, -180...180, unit: "°")
            if let altitude = location.altitude { try check("GPS altitude", altitude, -100_000...1e8, unit: "m") }
        }
    }

    private static func check(_ setting: String, _ value: Double, _ range: ClosedRange<Double>, unit: String = "") throws(CodecError) {
        guard value.isFinite, range.contains(value) else { throw .outOfRange(setting, value, range, unit: unit) }
    }
}
