"""move_steps.py PERF_DATA [-v]: the share of a perf recording's samples per
step of the move path (bench/move_profile.sh, docs/SCALING.md). Each sample
of the loop's thread goes to the first step its stack names, from the leaf
up; the other threads' samples (the store thread) are one step; leaves
whose callers the unwinder lost are counted apart. -v: the commonest
stacks of the samples no step names.
"""
import collections
import subprocess
import sys

# (category, frame names), checked from the leaf up: the first frame that
# names a category takes the sample.
CATS = [
    ("send: writev (kernel TCP, loopback delivery)", ["__GI___writev", "writev", "__writev"]),
    ("receive: readv/read", ["__GI___readv", "readv", "__libc_read", "read", "__read"]),
    ("wait: epoll_wait", ["epoll_wait"]),
    ("decode request (cJSON parse, fields)", ["proto_decode"]),
    ("encode JSON lines (cJSON print)", ["encode_json", "proto_json_encode", "proto_json_encode_lean"]),
    ("encode text", ["proto_text_encode"]),
    ("position and board rows", ["room_add_board", "room_add_picture", "room_board", "room_add_position", "room_add_position_event"]),
    ("cJSON trees: build and free", ["cJSON_Delete", "cJSON_CreateObject", "cJSON_CreateString", "cJSON_AddStringToObject", "cJSON_AddItemToObject", "cJSON_AddNumberToObject", "cJSON_AddNullToObject", "cJSON_CreateRaw", "proto_int", "proto_event", "proto_reply", "cJSON_AddBoolToObject", "cJSON_CreateArray", "cJSON_AddArrayToObject", "cJSON_AddItemToArray", "cJSON_CreateNull", "cJSON_CreateNumber", "cJSON_Duplicate", "encode_start", "cJSON_CreateStringReference"]),
    ("rules: legal moves, status, apply, notation", ["room_forced_pass", "rules_status", "ataxx_apply", "ataxx_legal_moves", "ataxx_parse_move", "ataxx_format_move", "ataxx_describe_move", "ataxx_status", "ataxx_turn", "rules_is_pass"]),
    ("store op built on the loop", ["write_move", "write_room", "storeq_push", "storeq_op", "store_op_str", "room_commit"]),
    ("held output, store's news", ["held_add", "held_release", "held_move", "held_send", "session_store_done", "held_end_deferring", "storeq_done_cb", "session_store_news"]),
    ("move logic (room, history, events)", ["room_play", "room_after_move", "room_broadcast", "cmd_move", "room_hist_push", "room_event", "cmd_rematch", "room_end", "room_end_prepare", "room_start", "cmd_state"]),
    ("session: framing, rate, dispatch", ["session_line", "proto_framer_push", "net_read_cb"]),
    ("net: flush, output caps", ["net_flush_cb", "net_flush_conn", "net_send", "net_send_cached", "net_send_msg", "conn_reply"]),
    ("libevent loop", ["event_base_loop", "event_process_active"]),
]
# Leaves whose callers the unwinder lost (glibc's allocator, string
# functions): counted apart.
LEAVES = {"_int_malloc": "malloc", "_int_free": "malloc", "__GI___libc_malloc": "malloc",
          "malloc": "malloc", "malloc_consolidate": "malloc", "unlink_chunk": "malloc",
          "tcache_get": "malloc", "tcache_put": "malloc", "__GI___libc_free": "malloc",
          "cfree@GLIBC_2.2.5": "malloc", "_int_realloc": "malloc", "realloc": "malloc",
          "__strlen_evex": "str", "__memcpy_avx512_unaligned_erms": "str",
          "__memmove_avx512_unaligned_erms": "str", "__strcmp_evex": "str",
          "__memcmp_evex_movbe": "str", "__vfprintf_internal": "str"}
def main():
    """Classify the samples of sys.argv[1]; print the shares."""
    data = sys.argv[1]
    out = subprocess.run(["perf", "script", "-i", data, "-F", "tid,ip,sym"],
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                         text=True).stdout
    by_tid = collections.Counter()
    cats = collections.defaultdict(collections.Counter)
    samples = []
    for line in out.split("\n"):
        if not line.strip():
            continue
        if not line.startswith("\t") and line.strip().isdigit():
            samples.append((line.strip(), []))
        elif samples:
            parts = line.strip().split(None, 1)
            if len(parts) == 2:
                samples[-1][1].append(parts[1].replace(" (inlined)", ""))
    main_tid = min((t for t, _ in samples), key=int)
    other = collections.Counter()
    for tid, frames in samples:
        by_tid[tid] += 1
        cat = "other (unwound nowhere known)"
        for f in frames:
            hit = None
            for name, fs in CATS:
                if f in fs:
                    hit = name
                    break
            if hit:
                cat = hit
                break
        if cat.startswith("other") and frames and frames[0] in LEAVES:
            cat = ("malloc/free, callers not unwound" if LEAVES[frames[0]] == "malloc"
                   else "strlen/memcpy/printf, callers not unwound")
        if tid != main_tid or any(f == "storeq_main" for f in frames):
            cat = "store thread: SQLite (:memory:) and its queue"
        cats[tid][cat] += 1
        if cat.startswith("other"):
            other[" < ".join(frames[:4])] += 1
    total = sum(by_tid.values())
    allc = collections.Counter()
    for tid in cats:
        allc.update(cats[tid])
    print("samples %d, threads %s" % (total, dict(by_tid)))
    if "-v" in sys.argv:
        for k, n in other.most_common(15):
            print("   other %d: %s" % (n, k))
    for c, n in allc.most_common():
        print("%5.1f%%  %s" % (100.0 * n / total, c))


if __name__ == "__main__":
    main()
