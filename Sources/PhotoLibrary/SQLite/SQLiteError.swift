import CSQLite3

/// A failed SQLite call: what was being done, SQLite's result code and its message
/// (sqlite3_errmsg), e.g. "database is locked".
struct SQLiteError: Error {
    let operation: String
    let code: Int32
    let message: String

    /// The primary result code (SQLITE_BUSY, SQLITE_READONLY, …) without its extended detail.
    var primaryCode: Int32 { code & 0xFF }
}
