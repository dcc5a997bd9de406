/* The nsdae subcommands: each lives in its own cmd_<name>.c and returns the process exit status. */
#ifndef NSDAE_CLI_COMMANDS_H
#define NSDAE_CLI_COMMANDS_H

int nsdae_cmd_simulate(int argc, char **argv);
int nsdae_cmd_converge(int argc, char **argv);
int nsdae_cmd_crosscheck(int argc, char **argv);
int nsdae_cmd_check(int argc, char **argv);
int nsdae_cmd_analyze(int argc, char **argv);
int nsdae_cmd_restart(int argc, char **argv);
int nsdae_cmd_examples(int argc, char **argv);
int nsdae_cmd_plot(int argc, char **argv);
int nsdae_cmd_compare(int argc, char **argv);

#endif
