import Foundation

/// Where the `.cube` reader puts a table's entries, in file order: a `CubeLUT`'s colours, or
/// `LUTFilter`'s packed words, so a file is decoded straight into the table that is kept.
protocol CubeEntries {
    init(capacity: Int)
    var count: Int { get }
    mutating func append(_ entry: SIMD3<Float>)
}

extension Array: CubeEntries where Element == SIMD3<Float> {
    init(capacity: Int) {
        self.init()
        reserveCapacity(capacity)
    }
}

/// The `.cube` reader's state between lines: the keywords seen and the entries so far.
///
/// It reads bytes, not a `String`: a file arrives in chunks (`feed`), each line is parsed where it
/// lies and each entry goes straight into `Entries`, so a 256³ table of 16.8 M lines takes the
/// table's memory and a chunk, never a copy of the text or a list of its lines.
struct CubeParser<Entries: CubeEntries> {
    /// The longest line read: a `.cube` line holds a keyword or three numbers, so anything longer
    /// is not a LUT, and the partial line kept between chunks stays small.
    static var maximumLineLength: Int { 4096 }
    /// Bytes read from a file at a time.
    static var chunkSize: Int { 1 << 20 }

    let source: String
    var title: String?
    var size: Int?
    var domainMin = SIMD3<Float>.zero
    var domainMax = SIMD3<Float>.one
    var entries: Entries?
    /// The number of the last line that held more than a comment.
    var lastLine = 0
    /// Lines begun so far.
    private var lineNumber = 0
    /// The start of a line that continues in the next chunk.
    private var pending = [UInt8]()
    /// Whether the last chunk ended with a "\r", whose "\n" may open the next one.
    private var endedWithCarriageReturn = false

    init(source: String) {
        self.source = source
    }

    /// The table in the `.cube` file at `path`, read a chunk at a time.
    static func parse(file path: String) throws(FilterError) -> CubeParser {
        var isDirectory: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
        func unreadable(_ reason: String) -> FilterError {
            FilterError("cannot read the LUT \(path): \(reason) — give the path of a readable .cube file")
        }
        guard exists else { throw unreadable("no such file") }
        guard !isDirectory.boolValue else { throw unreadable("it is a directory") }
        guard let handle = FileHandle(forReadingAtPath: path) else { throw unreadable("it is not readable") }
        defer { try? handle.close() }
        var parser = CubeParser(source: path)
        while true {
            let chunk: Data?
            do {
                chunk = try handle.read(upToCount: chunkSize)
            } catch {
                throw unreadable((error as NSError).localizedDescription)
            }
            guard let chunk, !chunk.isEmpty else { break }
            try passing { try chunk.withUnsafeBytes { try parser.feed($0) } }
        }
        try parser.finishLines()
        return parser
    }

    /// The table in `text`, a `.cube` file's contents.
    static func parse(text: String, source: String) throws(FilterError) -> CubeParser {
        var parser = CubeParser(source: source)
        var text = text
        try passing { try text.withUTF8 { try parser.feed(UnsafeRawBufferPointer($0)) } }
        try parser.finishLines()
        return parser
    }

    /// Reads the whole lines in `chunk`, keeping a final partial line for the next chunk.
    mutating func feed(_ chunk: UnsafeRawBufferPointer) throws(FilterError) {
        var start = 0
        if endedWithCarriageReturn, !chunk.isEmpty {
            endedWithCarriageReturn = false
            if chunk[0] == Self.lineFeed { start = 1 }
        }
        while let end = chunk[start...].firstIndex(where: { $0 == Self.lineFeed || $0 == Self.carriageReturn }) {
            if pending.isEmpty {
                try readLine(UnsafeRawBufferPointer(rebasing: chunk[start..<end]))
            } else {
                pending.append(contentsOf: chunk[start..<end])
                let line = pending
                pending.removeAll(keepingCapacity: true)
                try Self.passing { try line.withUnsafeBytes { try readLine($0) } }
            }
            start = end + 1
            if chunk[end] == Self.carriageReturn {
                if start == chunk.count {
                    endedWithCarriageReturn = true
                } else if chunk[start] == Self.lineFeed {
                    start += 1
                }
            }
        }
        guard pending.count + chunk.count - start <= Self.maximumLineLength else {
            throw tooLong(lineNumber + 1)
        }
        pending.append(contentsOf: chunk[start...])
    }

    /// Reads the last line when the text does not end with a line break.
    mutating func finishLines() throws(FilterError) {
        let line = pending
        pending = []
        try Self.passing { try line.withUnsafeBytes { try readLine($0) } }
    }

    /// The table's parts, once every line is read.
    func finish() throws(FilterError) -> (size: Int, entries: Entries) {
        guard let size, let entries else {
            throw FilterError("\(source): no LUT_3D_SIZE line — a 3D .cube file states its size before its entries")
        }
        guard entries.count == size * size * size else {
            throw error(lastLine, "the file ends after \(entries.count) of the \(size * size * size) entries (\(size)³)",
                        "export the LUT again; the file is incomplete")
        }
        guard all(domainMin .< domainMax) else {
            throw FilterError("\(source): the domain \(domainMin)…\(domainMax) is empty in a channel — give each channel a DOMAIN_MIN below its DOMAIN_MAX")
        }
        return (size, entries)
    }

    /// Runs `body`, which throws only the parser's `FilterError`s through a rethrowing call.
    private static func passing(_ body: () throws -> Void) throws(FilterError) {
        do {
            try body()
        } catch let error as FilterError {
            throw error
        } catch {
            throw FilterError("\(error)")
        }
    }

    private static var lineFeed: UInt8 { 0x0A }
    private static var carriageReturn: UInt8 { 0x0D }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || (0x09...0x0D).contains(byte)
    }

    private func tooLong(_ line: Int) -> FilterError {
        error(line, "a line longer than \(Self.maximumLineLength) bytes",
              "a .cube line holds a keyword or three numbers; give a .cube file")
    }

    /// One line without its line break: an entry is parsed from its bytes; a keyword, or anything
    /// unusual, as text.
    private mutating func readLine(_ bytes: UnsafeRawBufferPointer) throws(FilterError) {
        lineNumber += 1
        guard bytes.count <= Self.maximumLineLength else { throw tooLong(lineNumber) }
        var line = bytes[...]
        if lineNumber == 1, line.starts(with: [0xEF, 0xBB, 0xBF]) { line = line.dropFirst(3) }
        guard let first = line.first(where: { !Self.isSpace($0) }), first != UInt8(ascii: "#") else { return }
        let isNumeric = first == UInt8(ascii: "-") || first == UInt8(ascii: "+") || first == UInt8(ascii: ".")
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first)
        if isNumeric, let size, entries != nil {
            lastLine = lineNumber
            try readEntry(line, size: size)
        } else {
            try read(Substring(String(decoding: line, as: UTF8.self)), at: lineNumber)
        }
    }

    /// An entry line's three numbers, parsed from its bytes into the table.
    private mutating func readEntry(_ line: Slice<UnsafeRawBufferPointer>, size: Int) throws(FilterError) {
        try checkRoom(size: size, at: lineNumber)
        var fields = [Range<Int>]()
        fields.reserveCapacity(3)
        var index = line.startIndex
        let end = line.firstIndex(of: UInt8(ascii: "#")) ?? line.endIndex
        while index < end {
            while index < end, Self.isSpace(line[index]) { index += 1 }
            guard index < end else { break }
            let fieldStart = index
            while index < end, !Self.isSpace(line[index]) { index += 1 }
            fields.append(fieldStart..<index)
        }
        guard fields.count == 3 else {
            throw error(lineNumber, "\(fields.count) values where 3 are needed", "give 3 numbers on this line")
        }
        var values = SIMD3<Float>()
        for (channel, field) in fields.enumerated() {
            let bytes = line[field]
            guard let value = Self.decimal(bytes) ?? Float(String(decoding: bytes, as: UTF8.self)), value.isFinite else {
                throw notANumber(String(decoding: bytes, as: UTF8.self), at: lineNumber)
            }
            values[channel] = value
        }
        entries?.append(values)
    }

    /// Powers of ten that a `Float` holds exactly.
    private static var powersOfTen: [Float] { [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10] }

    /// A plain decimal (`-0.5`, `1`, `.25`, `2.5e-3`) whose digits and power of ten a `Float`
    /// holds exactly, so one multiplication or division rounds it correctly — the numbers LUT
    /// exporters write. Anything else is nil, for `Float(String)` to read.
    private static func decimal(_ bytes: Slice<UnsafeRawBufferPointer>) -> Float? {
        var index = bytes.startIndex
        let end = bytes.endIndex
        var negative = false
        if index < end, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
            negative = bytes[index] == UInt8(ascii: "-")
            index += 1
        }
        var mantissa: UInt64 = 0, exponent = 0, digits = 0, seenPoint = false
        while index < end {
            let byte = bytes[index]
            if byte == UInt8(ascii: ".") {
                guard !seenPoint else { return nil }
                seenPoint = true
            } else if (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
                digits += 1
                guard digits <= 18 else { return nil }
                mantissa = mantissa * 10 + UInt64(byte - UInt8(ascii: "0"))
                if seenPoint { exponent -= 1 }
            } else {
                break
            }
            index += 1
        }
        guard digits > 0 else { return nil }
        if index < end, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            var negativeExponent = false
            if index < end, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
                negativeExponent = bytes[index] == UInt8(ascii: "-")
                index += 1
            }
            var written = 0, count = 0
            while index < end, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]), count < 4 {
                written = written * 10 + Int(bytes[index] - UInt8(ascii: "0"))
                count += 1
                index += 1
            }
            guard count > 0 else { return nil }
            exponent += negativeExponent ? -written : written
        }
        guard index == end else { return nil }
        let magnitude: Float
        if mantissa == 0 {
            magnitude = 0
        } else {
            guard mantissa <= 1 << 24, abs(exponent) < powersOfTen.count else { return nil }
            magnitude = exponent < 0 ? Float(mantissa) / powersOfTen[-exponent] : Float(mantissa) * powersOfTen[exponent]
        }
        return negative ? -magnitude : magnitude
    }

    /// A line that is not a plain entry, as text.
    mutating func read(_ rawLine: Substring, at line: Int) throws(FilterError) {
        // A quoted title may hold a "#"; anywhere else it starts a comment.
        let isTitle = rawLine.drop { $0.isWhitespace }.hasPrefix("TITLE")
        let content = isTitle ? rawLine[...] : rawLine.prefix { $0 != "#" }
        let fields = content.split(whereSeparator: \.isWhitespace)
        guard let keyword = fields.first else { return }
        lastLine = line
        guard keyword.first?.isLetter == true else {
            guard let size else {
                throw error(line, "an entry before LUT_3D_SIZE", "state the size (LUT_3D_SIZE N) before the entries")
            }
            try checkRoom(size: size, at: line)
            let entry = try vector([""] + fields, at: line)
            entries?.append(entry)
            return
        }
        guard (entries?.count ?? 0) == 0 else {
            throw error(line, "the keyword \(keyword) comes after the table's first entry", "put every keyword before the entries")
        }
        switch keyword {
        case "TITLE":
            title = content.drop { $0.isWhitespace }.dropFirst(keyword.count)
                .trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        case "LUT_3D_SIZE":
            let value = try numbers(fields, count: 1, at: line)[0]
            guard let whole = Int(exactly: value), CubeLUT.sizes.contains(whole) else {
                throw error(line, "LUT_3D_SIZE \(fields[1]) is outside \(CubeLUT.sizes.lowerBound)…\(CubeLUT.sizes.upperBound)",
                            "export the LUT with \(CubeLUT.sizes.lowerBound) to \(CubeLUT.sizes.upperBound) points per axis")
            }
            size = whole
            entries = Entries(capacity: whole * whole * whole)
        case "LUT_1D_SIZE":
            throw error(line, "this is a 1D LUT (LUT_1D_SIZE) where a 3D LUT is needed", "export the grade as a 3D LUT (LUT_3D_SIZE)")
        case "DOMAIN_MIN":
            domainMin = try vector(fields, at: line)
        case "DOMAIN_MAX":
            domainMax = try vector(fields, at: line)
        case "LUT_3D_INPUT_RANGE":
            let range = try numbers(fields, count: 2, at: line)
            domainMin = SIMD3(repeating: range[0])
            domainMax = SIMD3(repeating: range[1])
        default:
            throw error(line, "unknown keyword \(keyword)", "use TITLE, LUT_3D_SIZE, DOMAIN_MIN, DOMAIN_MAX or LUT_3D_INPUT_RANGE")
        }
    }

    /// Throws when the table already holds the `size`³ entries it is stated to have.
    private func checkRoom(size: Int, at line: Int) throws(FilterError) {
        guard (entries?.count ?? 0) < size * size * size else {
            throw error(line, "more than the \(size * size * size) entries (\(size)³) LUT_3D_SIZE \(size) allows",
                        "remove the extra lines or correct LUT_3D_SIZE")
        }
    }

    private func vector(_ fields: [Substring], at line: Int) throws(FilterError) -> SIMD3<Float> {
        let values = try numbers(fields, count: 3, at: line)
        return SIMD3(values[0], values[1], values[2])
    }

    /// The `count` numbers after the line's first field.
    private func numbers(_ fields: [Substring], count: Int, at line: Int) throws(FilterError) -> [Float] {
        let values = fields.dropFirst()
        guard values.count == count else {
            throw error(line, "\(values.count) values where \(count) are needed", "give \(count) numbers on this line")
        }
        var result = [Float]()
        for field in values {
            guard let value = Float(field), value.isFinite else { throw notANumber(String(field), at: line) }
            result.append(value)
        }
        return result
    }

    private func notANumber(_ field: String, at line: Int) -> FilterError {
        error(line, "\"\(field)\" is not a number", "write the value as a decimal number such as 0.5")
    }

    private func error(_ line: Int, _ what: String, _ remedy: String) -> FilterError {
        FilterError("\(source), line \(line): \(what) — \(remedy)")
    }
}
