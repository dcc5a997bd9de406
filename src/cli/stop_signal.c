/* Recording SIGINT and SIGTERM for an orderly stop (stop_signal.h). */
#include "cli/stop_signal.h"

#include <signal.h>
#include <string.h>

static volatile sig_atomic_t caught;

static void on_signal(int sig)
{
    caught = sig;
}

void stop_signal_install(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    /* a write interrupted by the signal resumes instead of failing with EINTR: the row completes */
    sa.sa_flags = SA_RESTART;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

int stop_signal_caught(void)
{
    return caught;
}
