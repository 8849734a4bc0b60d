import Foundation

/// The `.cube` reader's state between lines: the keywords seen and the entries so far.
struct CubeParser {
    let source: String
    var title: String?
    var size: Int?
    var domainMin = SIMD3<Float>.zero
    var domainMax = SIMD3<Float>.one
    var entries = [SIMD3<Float>]()
    /// The number of the last line that held more than a comment.
    var lastLine = 0

    init(source: String) {
        self.source = source
    }

    mutating func read(_ rawLine: Substring, at line: Int) throws(FilterError) {
        // A quoted title may hold a "#"; anywhere else it starts a comment.
        let isTitle = rawLine.drop { $0.isWhitespace }.hasPrefix("TITLE")
        let content = isTitle ? rawLine[...] : rawLine.prefix { $0 != "#" }
        let fields = content.split(whereSeparator: \.isWhitespace)
        guard let keyword = fields.first else { return }
        lastLine = line
        guard keyword.first?.isLetter == true else {
            return try readEntry(fields, at: line)
        }
        guard entries.isEmpty else {
            throw error(line, "the keyword \(keyword) comes after the table's first entry", "put every keyword before the entries")
        }
        switch keyword {
        case "TITLE":
            title = content.drop { $0.isWhitespace }.dropFirst(keyword.count)
                .trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        case "LUT_3D_SIZE":
            let value = try numbers(fields, count: 1, at: line)[0]
            guard let whole = Int(exactly: value), CubeLUT.sizes.contains(whole) else {
                throw error(line, "LUT_3D_SIZE \(fields[1]) is outside 2…256", "export the LUT with 2 to 256 points per axis")
            }
            size = whole
            entries.reserveCapacity(whole * whole * whole)
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

    func finish() throws(FilterError) -> CubeLUT {
        guard let size else {
            throw FilterError("\(source): no LUT_3D_SIZE line — a 3D .cube file states its size before its entries")
        }
        guard entries.count == size * size * size else {
            throw error(lastLine, "the file ends after \(entries.count) of the \(size * size * size) entries (\(size)³)",
                        "export the LUT again; the file is incomplete")
        }
        guard all(domainMin .< domainMax) else {
            throw FilterError("\(source): the domain \(domainMin)…\(domainMax) is empty in a channel — give each channel a DOMAIN_MIN below its DOMAIN_MAX")
        }
        return try CubeLUT(size: size, entries: entries, title: title, domainMin: domainMin, domainMax: domainMax)
    }

    private mutating func readEntry(_ fields: [Substring], at line: Int) throws(FilterError) {
        guard let size else {
            throw error(line, "an entry before LUT_3D_SIZE", "state the size (LUT_3D_SIZE N) before the entries")
        }
        guard entries.count < size * size * size else {
            throw error(line, "more than the \(size * size * size) entries (\(size)³) LUT_3D_SIZE \(size) allows",
                        "remove the extra lines or correct LUT_3D_SIZE")
        }
        entries.append(try vector([""] + fields, at: line))
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
            guard let value = Float(field), value.isFinite else {
                throw error(line, "\"\(field)\" is not a number", "write the value as a decimal number such as 0.5")
            }
            result.append(value)
        }
        return result
    }

    private func error(_ line: Int, _ what: String, _ remedy: String) -> FilterError {
        FilterError("\(source), line \(line): \(what) — \(remedy)")
    }
}
