// The system SQLite 3 (Debian libsqlite3-dev), the anchor of the store benchmarks.
#include <sqlite3.h>
