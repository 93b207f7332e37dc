"""harnesslib.history: the history of runs, a SQLite file or a PostgreSQL database (history, db, migrate; pgserver:
a throwaway server for tests)."""
