import CSQLite3

/// One connection to an SQLite database file, closed when released. Not thread-safe by itself:
/// `PhotoLibrary` keeps its connection behind a mutex. SQL text is always a literal
/// (`StaticString`); values travel only as bound parameters.
final class SQLiteConnection {
    let path: String
    private let handle: OpaquePointer

    /// How a connection may use its database file.
    enum Access {
        /// Read and write, creating the file when absent.
        case readWrite
        /// Read only (`mode=ro`); other connections may still write.
        case readOnly
        /// Read only, assuming nobody changes the file (`immutable=1`): no locks and no
        /// write-ahead-log index, so it opens on a volume that cannot be written.
        case immutable
    }

    /// Opens the database at `path` for `access`, waiting up to `busyTimeout` seconds for other
    /// connections' locks before a call fails as busy.
    init(path: String, access: Access, busyTimeout: Double) throws(SQLiteError) {
        var handle: OpaquePointer?
        let (mode, query) = switch access {
        case .readWrite: (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, "")
        case .readOnly: (SQLITE_OPEN_READONLY, "?mode=ro")
        case .immutable: (SQLITE_OPEN_READONLY, "?immutable=1")
        }
        let flags = mode | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        let code = sqlite3_open_v2(Self.uri(path) + query, &handle, flags, nil)
        guard code == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(code))
            sqlite3_close_v2(handle)
            throw SQLiteError(operation: "open", code: code, message: message)
        }
        self.path = path
        self.handle = handle
        sqlite3_busy_timeout(handle, Int32(busyTimeout * 1000))
    }

    deinit { sqlite3_close_v2(handle) }

    /// Prepares one statement; `?` placeholders are filled by `SQLiteStatement.bind`.
    func prepare(_ sql: StaticString) throws(SQLiteError) -> SQLiteStatement {
        var statement: OpaquePointer?
        let code = sql.withUTF8Buffer { text in
            text.withMemoryRebound(to: CChar.self) { sqlite3_prepare_v2(handle, $0.baseAddress, Int32($0.count), &statement, nil) }
        }
        guard code == SQLITE_OK, let statement else { throw error("prepare \(Self.firstLine("\(sql)"))", code) }
        return SQLiteStatement(statement, connection: self)
    }

    /// Runs a statement that takes `values` for its placeholders and returns no rows.
    func run(_ sql: StaticString, _ values: [SQLiteValue] = []) throws(SQLiteError) {
        let statement = try prepare(sql)
        try statement.bind(values)
        while try statement.step() {}
    }

    /// Runs a statement and maps each result row with `row`.
    func query<Row>(
        _ sql: StaticString, _ values: [SQLiteValue] = [], row: (SQLiteStatement) throws(SQLiteError) -> Row
    ) throws(SQLiteError) -> [Row] {
        let statement = try prepare(sql)
        try statement.bind(values)
        var rows: [Row] = []
        while try statement.step() { rows.append(try row(statement)) }
        return rows
    }

    /// Runs `body` inside BEGIN IMMEDIATE … COMMIT, rolling back when it throws. IMMEDIATE takes
    /// the write lock up front, so a busy database fails (after the busy timeout) before any change.
    func transaction<Result>(_ body: () throws(SQLiteError) -> Result) throws(SQLiteError) -> Result {
        try run("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try run("COMMIT")
            return result
        } catch {
            try? run("ROLLBACK")
            throw error
        }
    }

    /// `path` as an SQLite URI filename, with the characters URIs reserve percent-encoded.
    private static func uri(_ path: String) -> String {
        var escaped = ""
        for character in path.unicodeScalars {
            switch character {
            case "%", "?", "#": escaped += "%" + String(character.value, radix: 16, uppercase: true)
            default: escaped.unicodeScalars.append(character)
            }
        }
        return "file:" + escaped
    }

    /// The first line of a statement, quoted, to name it in an error.
    static func firstLine(_ sql: String) -> String {
        "\"\(sql.prefix { $0 != "\n" })\""
    }

    /// An error for a call that returned `code`, with this connection's current message.
    func error(_ operation: String, _ code: Int32) -> SQLiteError {
        SQLiteError(operation: operation, code: code, message: String(cString: sqlite3_errmsg(handle)))
    }
}
