/* The compressed form of the MLCS (mlcs_sparse.c), as the queries of mlcs.c read it. */
#ifndef NSDAE_SYSTEM_MLCS_INTERNAL_H
#define NSDAE_SYSTEM_MLCS_INTERNAL_H

#include <nsdae/mlcs.h>

/* 1 when every compressed value of every phase is finite; *bad names the first matrix that is not. */
int nsdae_mlcs_sparse_finite(const nsdae_mlcs *s, int *phase, const char **bad);
int nsdae_mlcs_sparse_differential(const nsdae_mlcs *s, int *flags);
int nsdae_mlcs_sparse_gap(const nsdae_mlcs *s, int phase, char *which, int *index);

#endif
