/*
 * stop.c — the stop flag and the SIGINT/SIGTERM handlers that raise it (stop.h). It lives
 * apart from the batch engine so that the input loops (common.c), the resume code and the
 * MPI layer can poll it without calling into the engine: nothing here calls back.
 */
#include "stop.h"

/* The one mutable global of the program. A signal handler may only touch a volatile
 * sig_atomic_t (or lock-free atomic) object, so this flag is the only way for SIGINT/SIGTERM
 * to reach a running command; every other piece of state lives in the engine object. */
static volatile sig_atomic_t stop_requested;

/* SIGINT/SIGTERM handler: asks the running command to stop at the next record boundary. */
static void on_stop_signal(int sig)
{
    (void)sig;
    stop_requested = 1;
}

const volatile sig_atomic_t *cli_stop_flag(void)
{
    return &stop_requested;
}

int cli_stop_requested(void)
{
    return stop_requested != 0;
}

static const int stop_signals[2] = {SIGINT, SIGTERM};

void cli_stop_begin(cli_stop_state *st)
{
    /* Handlers without SA_RESTART, so a blocking read returns EINTR and the loop sees the
     * flag; SA_RESETHAND, so a second signal ends a run stuck writing to a stalled reader.
     * A signal the shell set to be ignored (background jobs) stays ignored. */
    struct sigaction sa = {.sa_handler = on_stop_signal, .sa_flags = SA_RESETHAND};
    sigemptyset(&sa.sa_mask);
    stop_requested = 0;
    for (int k = 0; k < 2; k++) {
        sigaction(stop_signals[k], NULL, &st->old[k]);
        if (st->old[k].sa_handler != SIG_IGN)
            sigaction(stop_signals[k], &sa, NULL);
    }
}

void cli_stop_end(const cli_stop_state *st)
{
    for (int k = 0; k < 2; k++)
        if (st->old[k].sa_handler != SIG_IGN)
            sigaction(stop_signals[k], &st->old[k], NULL);
}
