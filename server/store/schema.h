/*
 * schema.h: the store's schema, one description for both backends. Each
 * migration is one step of SQL, in SQLite's dialect and in PostgreSQL's
 * where the two differ; the schema version of a store is the number of
 * steps applied. Append new steps at the end, never edit old ones.
 */
#ifndef TABLERO_STORE_SCHEMA_H
#define TABLERO_STORE_SCHEMA_H

/* One migration: its SQL for SQLite, and for PostgreSQL (NULL: the same). */
struct store_migration {
	const char *sqlite;
	const char *pg;
};

extern const struct store_migration store_schema[];
/* The number of migrations: the schema version this server writes. */
extern const int store_schema_version;

/* The migration i (0-based) in one dialect (pg: 1 for PostgreSQL's). */
const char *store_schema_sql(int i, int pg);

/*
 * A table as --copy-db copies it: every column, as text, read with `read`
 * and written with `write` (parameters $1.. in the columns' order), each
 * in SQLite's dialect and PostgreSQL's where they differ (NULL: the
 * same). The last entry, "room_max", is not a table: one row holding the
 * highest room number ever given out, so that the copy never gives out a
 * pruned room's number again.
 */
struct store_table {
	const char *name;
	int ncols;
	const char *read, *read_pg;
	const char *write, *write_pg;
};

/* A table's read (write: 0) or write (1) in one dialect (pg: 1). */
const char *store_table_sql(const struct store_table *t, int write, int pg);

/* The tables in the order a copy writes them (rooms before moves). */
extern const struct store_table store_tables[];
extern const int store_ntables;
/* The most columns a table has. */
#define STORE_TABLE_COLS 18

#endif
