/* The state of one run (run.h), shared by its preparation (run.c) and execution (execute.c). */
#ifndef NSDAE_RUN_INTERNAL_H
#define NSDAE_RUN_INTERNAL_H

#include <nsdae/moreau.h>
#include <nsdae/run.h>

struct nsdae_run {
    nsdae_run_plan plan;
    nsdae_model *own_model;        /* parsed by prepare_file; NULL otherwise */
    nsdae_mlcs *mlcs;              /* exactly one of mlcs and contact */
    nsdae_lagrangian *contact;
    nsdae_stepper_options so;
    nsdae_moreau_options mo;
    int executed;
};

#endif
