/* SIGINT and SIGTERM during a run: the handler only records the signal; the run's row callback
 * sees it after writing the current row and stops the engine, so the output ends with a whole row
 * and is flushed, and the command exits with 128 + the signal number and says where it stopped. */
#ifndef NSDAE_CLI_STOP_SIGNAL_H
#define NSDAE_CLI_STOP_SIGNAL_H

/* Installs the handler for SIGINT and SIGTERM (interrupted writes are restarted). */
void stop_signal_install(void);

/* The signal received since stop_signal_install, or 0. */
int stop_signal_caught(void);

#endif
