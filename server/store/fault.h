/*
 * fault.h: test-only fault injection, the same for every backend. When
 * TABLERO_TEST_STORE_FAULTS names a file, every write fails while that
 * file holds "fail", as on a full disk, and "pass N" lets the next N
 * writes through first (a fault in the middle of a group; the commit
 * counts as a write); "undo" after either makes the rollback of the
 * failed group fail too; "hold" stops the next commit before it begins
 * (it writes "holding" there, then waits while the file says so), as a
 * stalled database would; "readhold" stops the next page read of
 * finished games the same way ("readholding"), as a slow read would.
 * docs/HACKING.md, "Storage faults". Without the variable, never.
 */
#ifndef TABLERO_STORE_FAULT_H
#define TABLERO_STORE_FAULT_H

#define STORE_FAULT_ENV "TABLERO_TEST_STORE_FAULTS"
/* Bytes of the control file read. */
#define STORE_FAULT_READ 32

struct store_fault {
	char *file;                  /* the control file, or NULL */
	char seen[STORE_FAULT_READ]; /* its "pass N" last read */
	long left;                   /* writes it still lets through */
};

/* Read the variable (0, or -1 out of memory). */
int store_fault_init(struct store_fault *f);
void store_fault_free(struct store_fault *f);
/* 1 when the next write must fail. */
int store_fault_now(struct store_fault *f);
/* 1 when the rollback of a failed group must fail too. */
int store_fault_undo(struct store_fault *f);
/* At the start of a commit: while the file holds "hold", write "holding"
 * into it and wait until it says something else. */
void store_fault_hold(struct store_fault *f);
/* Before a page read of finished games: while the file holds "readhold",
 * write "readholding" into it and wait until it says something else. */
void store_fault_read_hold(struct store_fault *f);

#endif
