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

#endif
