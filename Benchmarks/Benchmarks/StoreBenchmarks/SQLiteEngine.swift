import CSQLite

/// SQLite 3 (the system library): one table `kv(key TEXT PRIMARY KEY, value BLOB)`, prepared statements,
/// `INSERT OR REPLACE`, WAL journal with `synchronous=NORMAL` (no fsync per commit, like MMKV's
/// unsynced appends), autocommit: every set is its own transaction.
final class SQLiteEngine: KVEngine {
    static let name = "SQLite"
    private var database: OpaquePointer?
    private var insert: OpaquePointer?
    private var select: OpaquePointer?
    /// `SQLITE_TRANSIENT`: SQLite copies bound text before the call returns.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    init(directory: String) throws {
        guard sqlite3_open_v2(directory + "/bench.sqlite", &database, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil) == SQLITE_OK else {
            throw BenchmarkFailure("sqlite3_open_v2 failed")
        }
        try execute("PRAGMA journal_mode=WAL")
        try execute("PRAGMA synchronous=NORMAL")
        try execute("CREATE TABLE IF NOT EXISTS kv(key TEXT PRIMARY KEY, value BLOB)")
        insert = try prepare("INSERT OR REPLACE INTO kv(key, value) VALUES(?, ?)")
        select = try prepare("SELECT value FROM kv WHERE key = ?")
    }

    private func execute(_ sql: String) throws {
        guard sqlite3_exec(database, sql, nil, nil, nil) == SQLITE_OK else { throw BenchmarkFailure("sqlite3_exec failed: \(sql)") }
    }

    private func prepare(_ sql: String) throws -> OpaquePointer? {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(database, sql, -1, &statement, nil) == SQLITE_OK else { throw BenchmarkFailure("prepare failed: \(sql)") }
        return statement
    }

    private func bindKey(_ statement: OpaquePointer?, _ key: String) {
        var key = key
        key.withUTF8 { bytes in
            _ = bytes.withMemoryRebound(to: CChar.self) { sqlite3_bind_text(statement, 1, $0.baseAddress, Int32($0.count), SQLiteEngine.transient) }
        }
    }

    private func stepInsert() throws {
        defer { sqlite3_reset(insert) }
        guard sqlite3_step(insert) == SQLITE_DONE else { throw BenchmarkFailure("INSERT failed") }
    }

    func setInt64(_ value: Int64, forKey key: String) throws {
        bindKey(insert, key)
        sqlite3_bind_int64(insert, 2, value)
        try stepInsert()
    }

    func int64(forKey key: String) throws -> Int64? {
        bindKey(select, key)
        defer { sqlite3_reset(select) }
        guard sqlite3_step(select) == SQLITE_ROW else { return nil }
        return sqlite3_column_int64(select, 0)
    }

    func setString(_ value: String, forKey key: String) throws {
        bindKey(insert, key)
        var value = value
        value.withUTF8 { bytes in
            _ = bytes.withMemoryRebound(to: CChar.self) { sqlite3_bind_text(insert, 2, $0.baseAddress, Int32($0.count), SQLiteEngine.transient) }
        }
        try stepInsert()
    }

    func string(forKey key: String) throws -> String? {
        bindKey(select, key)
        defer { sqlite3_reset(select) }
        guard sqlite3_step(select) == SQLITE_ROW, let text = sqlite3_column_text(select, 0) else { return nil }
        return String(decoding: UnsafeBufferPointer(start: text, count: Int(sqlite3_column_bytes(select, 0))), as: UTF8.self)
    }

    /// SQLite reads lazily: the reopen benchmark counts the rows, which reads the whole table.
    func load() throws -> Int {
        let count = try prepare("SELECT count(*) FROM kv")
        defer { sqlite3_finalize(count) }
        guard sqlite3_step(count) == SQLITE_ROW else { throw BenchmarkFailure("count failed") }
        return Int(sqlite3_column_int64(count, 0))
    }

    func close() throws {
        sqlite3_finalize(insert)
        sqlite3_finalize(select)
        insert = nil
        select = nil
        guard sqlite3_close(database) == SQLITE_OK else { throw BenchmarkFailure("sqlite3_close failed") }
        database = nil
    }
}
