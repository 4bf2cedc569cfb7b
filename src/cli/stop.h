/*
 * stop.h — the program's stop flag: SIGINT/SIGTERM raise it, every long loop and search
 * polls it. A leaf: stop.c calls nothing else of the program, so any file may use it
 * without closing a circle (make file-graph).
 */
#ifndef SB_CLI_STOP_H
#define SB_CLI_STOP_H

#include <signal.h>

/* The flag SIGINT/SIGTERM raise while cli_stop_begin's handlers are in place: give it to
 * sb_options.stop so a long search ends promptly. */
const volatile sig_atomic_t *cli_stop_flag(void);

/* Saved signal dispositions of cli_stop_begin. */
typedef struct cli_stop_state {
    struct sigaction old[2]; /* SIGINT's and SIGTERM's previous actions */
} cli_stop_state;

/* Clears the stop flag and installs the SIGINT/SIGTERM handlers that raise it (a signal
 * ignored at start stays ignored; a second signal ends the program at once). */
void cli_stop_begin(cli_stop_state *st);

/* Restores the dispositions cli_stop_begin saved. */
void cli_stop_end(const cli_stop_state *st);

/* @return 1 once a stop signal came (since cli_stop_begin). */
int cli_stop_requested(void);

#endif /* SB_CLI_STOP_H */
