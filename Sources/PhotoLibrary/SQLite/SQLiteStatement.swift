import CSQLite3

/// A value bound to a `?` placeholder or read from a result column.
enum SQLiteValue: Equatable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)

    /// `.real(value)`, or `.null` when `value` is nil.
    static func nullable(_ value: Double?) -> SQLiteValue { value.map { .real($0) } ?? .null }

    /// `.text(value)`, or `.null` when `value` is nil.
    static func nullable(_ value: String?) -> SQLiteValue { value.map { .text($0) } ?? .null }
}

/// A prepared statement, finalised when released. It keeps its connection alive for its messages.
final class SQLiteStatement {
    private let handle: OpaquePointer
    private let connection: SQLiteConnection

    init(_ handle: OpaquePointer, connection: SQLiteConnection) {
        self.handle = handle
        self.connection = connection
    }

    deinit { sqlite3_finalize(handle) }

    /// Binds `values` to the placeholders in order; text is copied by SQLite (SQLITE_TRANSIENT).
    func bind(_ values: [SQLiteValue]) throws(SQLiteError) {
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let code: Int32 = switch value {
            case .null: sqlite3_bind_null(handle, index)
            case .integer(let number): sqlite3_bind_int64(handle, index, number)
            case .real(let number): sqlite3_bind_double(handle, index, number)
            case .text(let text): csqlite3_bind_text_copy(handle, index, text, Int32(text.utf8.count))
            }
            guard code == SQLITE_OK else { throw connection.error("bind parameter \(index)", code) }
        }
    }

    /// Advances to the next row: true when a row is ready, false when the statement is done.
    func step() throws(SQLiteError) -> Bool {
        let code = sqlite3_step(handle)
        switch code {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw connection.error("run \(SQLiteConnection.firstLine(String(cString: sqlite3_sql(handle))))", code)
        }
    }

    /// The text in `column` of the current row, nil for NULL.
    func text(_ column: Int32) -> String? {
        guard let text = sqlite3_column_text(handle, column) else { return nil }
        return String(cString: text)
    }

    /// The integer in `column` of the current row, nil for NULL.
    func integer(_ column: Int32) -> Int64? {
        sqlite3_column_type(handle, column) == SQLITE_NULL ? nil : sqlite3_column_int64(handle, column)
    }

    /// The floating-point number in `column` of the current row, nil for NULL.
    func real(_ column: Int32) -> Double? {
        sqlite3_column_type(handle, column) == SQLITE_NULL ? nil : sqlite3_column_double(handle, column)
    }
}
