/*
 * ataxx_engine64.c: the Ataxx engine compiled again on one 64-bit word,
 * for boards up to 7x7 (ai_ataxx_move64; ataxx_engine.c says why).
 */
#define AX_NARROW 1
#include "ataxx_engine.c"
