/*
 * cpu.h: function multi-versioning for the bit-counting hot paths (the
 * Ataxx and Amazons bitboards, perft). The installed binaries are built for
 * any x86-64, whose popcount is a slow library call; a function marked
 * RULES_HOT is compiled twice more, for POPCNT and for AVX2 machines
 * (Haswell and later: POPCNT too), and the loader picks the best copy the
 * machine runs.
 * Built with -march=native (make bench) or for another architecture, the
 * mark is empty and the one copy is already the machine's best.
 */
#ifndef TABLERO_CPU_H
#define TABLERO_CPU_H

/* ThreadSanitizer instruments the loader's choice of copy (an ifunc
 * resolver, run while relocating, before its runtime starts): the program
 * crashes at once. `make tsan` builds one plain copy. */
#if defined(__SANITIZE_THREAD__)
#define RULES_NO_CLONES 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define RULES_NO_CLONES 1
#endif
#endif

#if defined(__x86_64__) && !defined(__POPCNT__) &&                             \
    (defined(__GNUC__) || defined(__clang__)) && !defined(RULES_NO_CLONES)
#define RULES_HOT __attribute__((target_clones("avx2", "popcnt", "default")))
#else
#define RULES_HOT
#endif

/* A helper of a RULES_HOT function: compilers inline a plain function
 * into a clone only when told to, and a call out of the clone runs the
 * slow generic copy. */
#define RULES_INLINE static inline __attribute__((always_inline))

#endif
