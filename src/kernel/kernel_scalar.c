/* kernel_scalar.c — the kernel for any x86-64 (or other) CPU: the reference every other
 * level is tested against. POPCNT is not part of baseline x86-64, so a table counts bits. */
#define SB_KERNEL_DFS sb_kernel_dfs_scalar
#define SB_KERNEL_BFS sb_kernel_bfs_scalar
#define SB_KERNEL_POPCNT 0
#include "kernel.h"
